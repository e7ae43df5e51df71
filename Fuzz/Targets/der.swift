import TrustDER

// Fuzz target `der`: the DER reader and every primitive decoder, over arbitrary bytes.
//
// The input is read as a sequence of DER elements; constructed ones are walked to the reader's
// depth limit, and every primitive is decoded as each universal type regardless of its tag (the
// decoders must reject what is not theirs, never trap). Errors are described, since their text
// quotes input (QuotedValue caps it).

/// Decodes `element` in every way the DER module offers and walks into it when constructed.
private func exercise(_ element: DERElement) {
    Sink.keep(element.tag)
    Sink.describe(element.tag)
    Sink.keep(element.offset)
    if element.tag.isConstructed {
        do {
            var children = try element.children()
            while let child = try children.next() { exercise(child) }
            try children.finish()
        } catch {
            Sink.describe(error)
        }
        return
    }
    let tag = element.tag
    record { try element.boolean() }
    record { () throws -> Bool in
        try element.null(); return true
    }
    record { try element.integerBytes(tag: tag) }
    record { try element.integer(as: Int64.self, tag: tag) }
    record { try element.integer(as: UInt8.self, tag: tag) }
    record { () throws -> Int in
        let bits = try element.bitString(tag: tag)
        return bits.bitCount + (bits.isSet(0) ? 1 : 0) + (bits.isSet(bits.bitCount) ? 1 : 0)
    }
    record { try element.octetString(tag: tag) }
    record { () throws -> String in
        let oid = try element.objectIdentifier()
        Sink.keep(oid.arcs)
        return oid.dotted
    }
    if element.isString {
        record { try element.string() }
        record { () throws -> Bool in
            try element.validateString(); return true
        }
    }
    record { () throws -> String in
        let time = try element.time()
        Sink.keep(time.secondsSince1970)
        return time.description
    }
    if let oid = try? ASN1ObjectIdentifier(validating: element.content, at: element.contentOffset) {
        Sink.keep(oid)
        if let again = ASN1ObjectIdentifier(dotted: oid.dotted) { Sink.keep(again == oid) }
    }
}

/// Runs one decoder: keeps its value, or the description of its error.
private func record<T: Hashable>(_ decode: () throws -> T) {
    do {
        Sink.keep(try decode())
    } catch {
        Sink.describe(error)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDER(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var reader = DERReader(bytes[...])
    do {
        while let element = try reader.next() { exercise(element) }
        try reader.finish()
    } catch {
        Sink.describe(error)
    }
    do {
        Sink.keep(try DERReader.parseSingle(bytes).tag)
    } catch {
        Sink.describe(error)
    }
    return 0
}
