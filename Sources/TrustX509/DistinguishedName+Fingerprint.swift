import TrustDER

extension DistinguishedName {
    /// A 64-bit digest of a name's comparison key, computed while the name is validated, so that
    /// `==` can tell most different names apart without building either key.
    ///
    /// Chain building compares the two names of almost every certificate (is it self-issued?) and
    /// candidate issuers' names; they usually differ, and a key costs a walk and an allocation per
    /// name. The fingerprint is a function of the key (RFC 5280 §7.1 normalisation, as
    /// ``appendNormalizedPart(type:value:in:to:)`` writes it): equal keys always have equal
    /// fingerprints, so different fingerprints prove different names; equal fingerprints prove
    /// nothing, and the keys decide. A name with a value that needs Unicode folding (a string that
    /// is not ASCII, or of a type other than UTF8String, PrintableString, IA5String and
    /// VisibleString) has none: folding it costs what building its key does.
    ///
    /// Not a defence against chosen collisions, and not needed as one: a collision only sends `==`
    /// to the keys, which is the full comparison.
    struct Fingerprint {
        /// FNV-1a's 64-bit parameters.
        private static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
        private static let prime: UInt64 = 0x0000_0100_0000_01B3

        private var name = Fingerprint.offsetBasis
        private var rdn: UInt64 = 0
        /// False once a value that needs Unicode folding was seen.
        private(set) var isKnown = true

        /// The digest, or nil when a value needed Unicode folding.
        var value: UInt64? { isKnown ? name : nil }

        /// Adds one attribute (`type`'s content octets and `value`) to the current RDN.
        mutating func addAttribute(type: ArraySlice<UInt8>, value: DERIndexedElement, in bytes: ArraySlice<UInt8>) {
            guard isKnown else { return }
            var part = Fingerprint.offsetBasis
            Fingerprint.mixField(type, into: &part)
            if value.tag.isString {
                let number = value.tag.number
                let asciiCompatible = number == 12 || number == 19 || number == 22 || number == 26
                let content = bytes[value.contentRange]
                guard asciiCompatible, ASCIIScan.isASCII(content) else {
                    isKnown = false
                    return
                }
                Fingerprint.mixByte(0x0C, into: &part)
                Fingerprint.mixFolded(content, into: &part)
            } else {
                Fingerprint.mixByte(0x04, into: &part)
                Fingerprint.mixField(bytes[value.encodedRange], into: &part)
            }
            // The key sorts the parts of an RDN of several attributes: their sum does not depend
            // on the order.
            rdn &+= part
        }

        /// Ends the current RDN.
        mutating func endRDN() {
            Fingerprint.mixWord(rdn, into: &name)
            rdn = 0
        }

        private static func mixByte(_ byte: UInt8, into hash: inout UInt64) {
            hash = (hash ^ UInt64(byte)) &* prime
        }

        private static func mixField(_ bytes: ArraySlice<UInt8>, into hash: inout UInt64) {
            for byte in bytes { mixByte(byte, into: &hash) }
            // The length ends the field: ("ab", "c") and ("a", "bc") mix differently.
            mixWord(UInt64(bytes.count), into: &hash)
        }

        /// A whole word in one step (a length, an RDN's digest): FNV's step, widened.
        private static func mixWord(_ word: UInt64, into hash: inout UInt64) {
            hash = (hash ^ word) &* prime
        }

        /// Mixes ASCII `bytes` as ``foldASCII(_:into:)`` writes them.
        private static func mixFolded(_ bytes: ArraySlice<UInt8>, into hash: inout UInt64) {
            var count: UInt64 = 0
            DistinguishedName.forEachFoldedASCII(bytes) { byte in
                mixByte(byte, into: &hash)
                count += 1
            }
            mixWord(count, into: &hash)
        }
    }
}
