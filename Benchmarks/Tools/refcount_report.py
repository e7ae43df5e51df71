#!/usr/bin/env python3
"""Reference-count operations per evaluation, from two refcount-probe runs of N and 2N iterations.

An object counts as *shared* when it is counted at least N times in a run (the same threshold for
both runs, so that an object is in the same category in both): it outlives an evaluation (the certificates a caller reuses, cached values, process-wide tables), so
concurrent evaluations move its reference count between the cores. *Local* objects live within one
evaluation; *static* ones (no malloc behind them: immortal literals and singletons) never write their
count. Per-evaluation figures are (2N-run count - N-run count) / N, which cancels set-up and tear-down.

usage: refcount_report.py RUN_N RUN_2N N BINARY [--top K] [--type NAME]
(--type: list by type and by function only the shared objects whose type name contains NAME, e.g.
Certificate.Storage; the totals still count every object)
"""
import bisect
import collections
import subprocess
import sys


def load(path):
    rows = []
    lines = open(path).read().splitlines()
    if lines[:1] == ["overflow"]:
        sys.exit(f"{path}: the probe's tables filled up; run fewer iterations")
    for line in lines:
        kind, count, site_module, site_offset, object_id, meta_module, meta_offset = line.split()
        rows.append((int(kind), int(count), site_module, int(site_offset, 16), int(object_id), meta_module, int(meta_offset, 16)))
    return rows


def classify(rows, iterations):
    per_object = collections.Counter()
    for kind, count, _, _, object_id, _, _ in rows:
        per_object[object_id] += count
    def kind_of(object_id):
        if object_id == 0:
            return "static"
        return "shared" if per_object[object_id] >= iterations else "local"
    return kind_of


class Symbols:
    """Names for offsets into the benchmark binary and the Swift runtime (nm, demangled)."""

    def __init__(self, binary):
        self.binary = binary
        self.tables = {}

    def table(self, module):
        if module not in self.tables:
            path = self.binary if module == self.binary.split("/")[-1] else None
            if path is None:
                found = subprocess.run(["bash", "-c", f"ldd {self.binary} | awk '$1==\"{module}\" {{print $3}}'"],
                                       capture_output=True, text=True).stdout.strip()
                path = found or None
            entries = []
            if path:
                # The static symbol table names the most; a stripped library has only the dynamic one.
                for options in (["-n"], ["-n", "-D"]):
                    for line in subprocess.run(["nm"] + options + [path], capture_output=True, text=True).stdout.splitlines():
                        parts = line.split()
                        if len(parts) == 3:
                            entries.append((int(parts[0], 16), parts[2]))
                    if entries:
                        break
            self.tables[module] = (entries, [address for address, _ in entries])
        return self.tables[module]

    def name(self, module, offset):
        if module == "-":
            return "(no module)"
        entries, addresses = self.table(module)
        index = bisect.bisect_right(addresses, offset) - 1
        if index < 0:
            return f"{module}+{offset:x}"
        return entries[index][1]


def demangle(names):
    names = list(names)
    output = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                            capture_output=True, text=True).stdout.splitlines()
    return dict(zip(names, output)) if len(output) == len(names) else {name: name for name in names}


# Generic metadata the runtime instantiates lies in its allocation pool, which has no symbols.
pool = "_ZL21InitialAllocationPool"
generic_name = "a generic type instantiated at run time (an array, set or dictionary)"


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    short, long, iterations, binary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 25
    type_filter = sys.argv[sys.argv.index("--type") + 1] if "--type" in sys.argv else None
    symbols = Symbols(binary)
    type_names = {}

    def type_name(module, offset):
        key = (module, offset)
        if key not in type_names:
            raw = symbols.name(module, offset)
            type_names[key] = (raw, generic_name if raw == pool else demangle([raw])[raw])
        return type_names[key]
    totals = collections.Counter()
    by_type = collections.Counter()
    by_site = collections.Counter()
    for sign, path in ((-1, short), (1, long)):
        rows = load(path)
        kind_of = classify(rows, iterations)
        for kind, count, site_module, site_offset, object_id, meta_module, meta_offset in rows:
            category = kind_of(object_id)
            totals[(category, kind)] += sign * count
            if category == "shared":
                raw, readable = type_name(meta_module, meta_offset)
                if type_filter and type_filter not in readable:
                    continue
                by_type[raw] += sign * count
                by_site[(symbols.name(site_module, site_offset), kind)] += sign * count
    names = demangle(list(by_type) + [name for name, _ in by_site])
    names[pool] = generic_name
    print(f"reference-count operations per evaluation ({iterations} vs {2 * iterations} iterations)")
    for category in ("shared", "local", "static"):
        retains, releases = totals[(category, 0)] / iterations, totals[(category, 1)] / iterations
        print(f"  {category:6}  {retains:6.1f} retains  {releases:6.1f} releases")
    print("\nshared objects, by type (retains + releases per evaluation)")
    for name, count in sorted(by_type.items(), key=lambda item: -item[1])[:top]:
        if count / iterations >= 0.5:
            print(f"  {count / iterations:6.1f}  {names.get(name, name)[:120]}")
    print("\nshared objects, by calling function (R retain, r release)")
    for (name, kind), count in sorted(by_site.items(), key=lambda item: -item[1])[:top]:
        if count / iterations >= 0.5:
            print(f"  {count / iterations:6.1f} {'R' if kind == 0 else 'r'}  {names.get(name, name)[:120]}")


if __name__ == "__main__":
    main()
