// refcount-probe: an LD_PRELOAD library that counts, for one run of a Swift program, every
// swift_retain / swift_release (and the bridge-object and `_n` variants) the program's own code
// makes, by call site and by object. It also records every malloc'ed block, so that each object can be told
// apart from others later allocated at the same address, and the type metadata of each object at
// its first count. scripts/refcount-probe turns two runs into "reference-count operations per
// evaluation on objects that outlive an evaluation": the objects concurrent evaluations share,
// whose reference counts move between the cores (docs/performance-log.md, "Scaling with objects reused").
//
// Only calls through the dynamic linker are seen: the counts the Swift runtime makes itself (copying
// and destroying the elements of an array, say) are not, so the figures are a lower bound, and
// retains and releases need not balance.
//
// A developer tool, never linked into SwiftTrust. Meant for single-threaded loops (a spin lock keeps
// it correct, not fast). Its tables are fixed: when one fills up, counting stops and the report says
// "overflow" (the caller treats the run as failed), rather than probing forever. Output, one line per
// (kind, call site, object), written at exit to $REFCOUNT_PROBE_OUT:
//   kind(0 retain, 1 release) count module offset-in-module object-id metadata-module offset
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static atomic_flag busy = ATOMIC_FLAG_INIT;
static void lock(void) { while (atomic_flag_test_and_set(&busy)) {} }
static void unlock(void) { atomic_flag_clear(&busy); }

// Live allocations: address -> object id (ids are never reused; 0 means "not from malloc").
#define ALLOCATION_SLOTS (1u << 22)
typedef struct { uintptr_t address; uint32_t id; } Allocation;
static Allocation *allocations;
static uint32_t nextID = 1;

// Counts: (kind, call site, object id) -> count, with the object's metadata at its first count.
#define COUNT_SLOTS (1u << 22)
typedef struct { uintptr_t site; uintptr_t metadata; uint64_t count; uint32_t id; uint32_t kind; } Count;
static Count *counts;

static int ready, initialising, overflowed;
static uint32_t allocationsUsed, countsUsed;
static void *(*realMalloc)(size_t);
static void (*realFree)(void *);
static void *(*realCalloc)(size_t, size_t);
static void *(*realRealloc)(void *, size_t);
static int (*realPosixMemalign)(void **, size_t, size_t);
static void *(*realRetain)(void *);
static void (*realRelease)(void *);
static void *(*realBridgeRetain)(void *);
static void (*realBridgeRelease)(void *);
static void *(*realRetainN)(void *, uint32_t);
static void (*realReleaseN)(void *, uint32_t);
static void *(*realBridgeRetainN)(void *, int);
static void (*realBridgeReleaseN)(void *, int);

// dlsym may allocate before the real allocator is known: serve it from a static arena (never freed).
static _Alignas(16) char arena[1 << 16];
static size_t arenaUsed;
static int inArena(const void *block) { return (const char *)block >= arena && (const char *)block < arena + sizeof arena; }
static void *arenaAllocate(size_t size) {
    size_t rounded = (size + 15) & ~(size_t)15;
    if (rounded < size || rounded > sizeof arena - arenaUsed) return NULL;
    void *block = arena + arenaUsed;
    arenaUsed += rounded;
    return block;
}

static void initialise(void) {
    if (ready || initialising) return;
    initialising = 1;
    realMalloc = dlsym(RTLD_NEXT, "malloc");
    realFree = dlsym(RTLD_NEXT, "free");
    realCalloc = dlsym(RTLD_NEXT, "calloc");
    realRealloc = dlsym(RTLD_NEXT, "realloc");
    realPosixMemalign = dlsym(RTLD_NEXT, "posix_memalign");
    realRetain = dlsym(RTLD_NEXT, "swift_retain");
    realRelease = dlsym(RTLD_NEXT, "swift_release");
    realBridgeRetain = dlsym(RTLD_NEXT, "swift_bridgeObjectRetain");
    realBridgeRelease = dlsym(RTLD_NEXT, "swift_bridgeObjectRelease");
    realRetainN = dlsym(RTLD_NEXT, "swift_retain_n");
    realReleaseN = dlsym(RTLD_NEXT, "swift_release_n");
    realBridgeRetainN = dlsym(RTLD_NEXT, "swift_bridgeObjectRetain_n");
    realBridgeReleaseN = dlsym(RTLD_NEXT, "swift_bridgeObjectRelease_n");
    allocations = mmap(NULL, sizeof(Allocation) * ALLOCATION_SLOTS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    counts = mmap(NULL, sizeof(Count) * COUNT_SLOTS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ready = allocations != MAP_FAILED && counts != MAP_FAILED;
    initialising = 0;
}

static uint32_t mix(uint64_t value) {
    value ^= value >> 17;
    value *= 0x9E3779B97F4A7C15ull;
    return (uint32_t)(value >> 32);
}

// The slot of `address`, or the empty slot where it would go. The table is never more than half
// full (noteAllocation stops counting first), so the probe ends.
static Allocation *allocationSlot(uintptr_t address) {
    uint32_t slot = mix(address) & (ALLOCATION_SLOTS - 1);
    while (allocations[slot].address && allocations[slot].address != address) slot = (slot + 1) & (ALLOCATION_SLOTS - 1);
    return &allocations[slot];
}

static void noteAllocation(void *block) {
    if (!block || !ready || overflowed) return;
    lock();
    Allocation *slot = allocationSlot((uintptr_t)block);
    if (!slot->address && ++allocationsUsed > ALLOCATION_SLOTS / 2) {
        overflowed = 1;
    } else {
        slot->address = (uintptr_t)block;
        slot->id = nextID++;
    }
    unlock();
}

static void noteFree(void *block) {
    if (!block || !ready) return;
    lock();
    Allocation *slot = allocationSlot((uintptr_t)block);
    if (slot->address) slot->id = 0;
    unlock();
}

static void noteCount(void *object, uintptr_t site, uint32_t kind, uint32_t amount) {
    if (!object || !ready || overflowed) return;
    lock();
    Allocation *allocation = allocationSlot((uintptr_t)object);
    uint32_t id = allocation->address ? allocation->id : 0;
    uint32_t slot = mix(site * 31 + (uint64_t)id * 7 + kind) & (COUNT_SLOTS - 1);
    while (counts[slot].count && !(counts[slot].site == site && counts[slot].id == id && counts[slot].kind == kind))
        slot = (slot + 1) & (COUNT_SLOTS - 1);
    if (!counts[slot].count && ++countsUsed > COUNT_SLOTS / 2) {
        overflowed = 1;
        unlock();
        return;
    }
    if (!counts[slot].count) {
        counts[slot].site = site;
        counts[slot].id = id;
        counts[slot].kind = kind;
        // A live heap object's first word is its type metadata.
        counts[slot].metadata = id ? *(uintptr_t *)object : 0;
    }
    counts[slot].count += amount;
    unlock();
}

void *malloc(size_t size) {
    if (!realMalloc) {
        if (initialising) return arenaAllocate(size);
        initialise();
    }
    void *block = realMalloc(size);
    noteAllocation(block);
    return block;
}

void *calloc(size_t count, size_t size) {
    if (!realCalloc) {
        if (initialising) {
            if (size && count > SIZE_MAX / size) return NULL;
            void *block = arenaAllocate(count * size);
            if (block) memset(block, 0, count * size);
            return block;
        }
        initialise();
    }
    void *block = realCalloc(count, size);
    noteAllocation(block);
    return block;
}

void *realloc(void *old, size_t size) {
    if (!realRealloc) {
        if (initialising) return NULL;
        initialise();
    }
    if (inArena(old)) {
        // An arena block's size is not kept: copy what can be valid, at most the rest of the arena.
        void *block = malloc(size);
        size_t available = (size_t)(arena + sizeof arena - (char *)old);
        if (block && old) memcpy(block, old, size < available ? size : available);
        return block;
    }
    noteFree(old);
    void *block = realRealloc(old, size);
    noteAllocation(block);
    return block;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (!realPosixMemalign) {
        if (initialising) return 12;  // ENOMEM
        initialise();
    }
    int status = realPosixMemalign(result, alignment, size);
    if (status == 0) noteAllocation(*result);
    return status;
}

void free(void *block) {
    if (inArena(block)) return;
    if (!realFree) initialise();
    noteFree(block);
    realFree(block);
}

// A bridge object may carry tag bits; the native object address is what is left.
static void *untagged(void *object) { return (void *)((uintptr_t)object & 0x00fffffffffffff8ull); }

void *swift_retain(void *object) {
    if (!realRetain) initialise();
    noteCount(object, (uintptr_t)__builtin_return_address(0), 0, 1);
    return realRetain(object);
}

void swift_release(void *object) {
    if (!realRelease) initialise();
    noteCount(object, (uintptr_t)__builtin_return_address(0), 1, 1);
    realRelease(object);
}

void *swift_retain_n(void *object, uint32_t n) {
    if (!realRetainN) initialise();
    noteCount(object, (uintptr_t)__builtin_return_address(0), 0, n);
    return realRetainN(object, n);
}

void swift_release_n(void *object, uint32_t n) {
    if (!realReleaseN) initialise();
    noteCount(object, (uintptr_t)__builtin_return_address(0), 1, n);
    realReleaseN(object, n);
}

void *swift_bridgeObjectRetain(void *object) {
    if (!realBridgeRetain) initialise();
    noteCount(untagged(object), (uintptr_t)__builtin_return_address(0), 0, 1);
    return realBridgeRetain(object);
}

void swift_bridgeObjectRelease(void *object) {
    if (!realBridgeRelease) initialise();
    noteCount(untagged(object), (uintptr_t)__builtin_return_address(0), 1, 1);
    realBridgeRelease(object);
}

void *swift_bridgeObjectRetain_n(void *object, int n) {
    if (!realBridgeRetainN) initialise();
    noteCount(untagged(object), (uintptr_t)__builtin_return_address(0), 0, (uint32_t)n);
    return realBridgeRetainN(object, n);
}

void swift_bridgeObjectRelease_n(void *object, int n) {
    if (!realBridgeReleaseN) initialise();
    noteCount(untagged(object), (uintptr_t)__builtin_return_address(0), 1, (uint32_t)n);
    realBridgeReleaseN(object, n);
}

// "module offset" of an address, or "- 0" when no module holds it.
static void locate(uintptr_t address, char *out, size_t size) {
    Dl_info info;
    if (address && dladdr((void *)address, &info) && info.dli_fname) {
        const char *name = strrchr(info.dli_fname, '/');
        snprintf(out, size, "%s %lx", name ? name + 1 : info.dli_fname, (unsigned long)(address - (uintptr_t)info.dli_fbase));
    } else {
        snprintf(out, size, "- 0");
    }
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("REFCOUNT_PROBE_OUT");
    if (!path || !ready) return;
    FILE *out = fopen(path, "w");
    if (!out) return;
    if (overflowed) {
        fprintf(out, "overflow\n");
        fclose(out);
        return;
    }
    for (uint32_t slot = 0; slot < COUNT_SLOTS; slot++) {
        if (!counts[slot].count) continue;
        char site[512], metadata[512];
        locate(counts[slot].site, site, sizeof site);
        locate(counts[slot].metadata, metadata, sizeof metadata);
        fprintf(out, "%u %llu %s %u %s\n", counts[slot].kind, (unsigned long long)counts[slot].count, site, counts[slot].id, metadata);
    }
    fclose(out);
}
