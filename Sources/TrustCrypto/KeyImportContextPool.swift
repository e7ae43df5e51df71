internal import CTrustOpenSSL
import Synchronization

/// libcrypto contexts set up for `EVP_PKEY_fromdata` of one key type, reused from key to key.
///
/// `EVP_PKEY_CTX_new_from_name` fetches the key manager by name for every context it creates, a
/// large share of building an RSA key. `EVP_PKEY_fromdata` only reads the context's key manager, so
/// one initialised context builds any number of keys. OpenSSL 3 does not let two threads use one
/// `EVP_PKEY_CTX` at once, so a context is taken out of the pool for one key and put back afterwards.
final class KeyImportContextPool: Sendable {
    /// The pool for RSA public keys.
    static let rsa = KeyImportContextPool(type: "RSA")

    /// The pool for EC domain parameters (``ECGroupTemplate``, once per curve).
    static let ec = KeyImportContextPool(type: "EC")

    /// Idle contexts kept at most: more than the threads that build keys at the same time here; a
    /// context returned to a full pool is freed.
    private static let idleLimit = 8

    /// The key type every context is for ("RSA", "EC").
    private let type: String

    /// The idle contexts (`EVP_PKEY_CTX *` as address bits), each initialised for fromdata.
    private let idle = Mutex<[UInt]>([])

    private init(type: String) {
        self.type = type
    }

    /// EVP_PKEY_fromdata of the `selection` of a key from `parameters`, or nil if libcrypto refuses.
    func key(selection: Int32, _ parameters: UnsafeMutablePointer<OSSL_PARAM>) -> OpaquePointer? {
        guard let context = idle.withLock({ $0.popLast() }).flatMap({ OpaquePointer(bitPattern: $0) }) ?? newContext() else {
            return nil
        }
        var key: OpaquePointer?
        let built = EVP_PKEY_fromdata(context, &key, selection, parameters) == 1
        let kept = idle.withLock { contexts -> Bool in
            guard contexts.count < KeyImportContextPool.idleLimit else { return false }
            contexts.append(UInt(bitPattern: context))
            return true
        }
        if !kept { EVP_PKEY_CTX_free(context) }
        guard built else {
            EVP_PKEY_free(key)
            return nil
        }
        return key
    }

    /// A new context for fromdata of this pool's key type.
    private func newContext() -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { return nil }
        guard EVP_PKEY_fromdata_init(context) == 1 else {
            EVP_PKEY_CTX_free(context)
            return nil
        }
        return context
    }

    deinit {
        idle.withLock { contexts in
            for address in contexts { EVP_PKEY_CTX_free(OpaquePointer(bitPattern: address)) }
        }
    }
}
