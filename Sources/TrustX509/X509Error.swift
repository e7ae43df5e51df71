import TrustDER

/// Why a certificate (or a bundle of them) could not be read.
public struct X509Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Hashable, Sendable {
        /// The DER structure broke a rule.
        case der(DERError)
        /// The PEM text was malformed.
        case pem(PEMError)
        /// A PEM block had a label this reader does not handle.
        case unexpectedPEMBlock(label: String, line: Int)
        /// The structure is valid DER but breaks an RFC 5280 rule.
        case invalidStructure(String, offset: Int)
        /// An extension appears twice (RFC 5280 §4.2).
        case duplicateExtension(oid: String, offset: Int)
        /// A known extension's value could not be decoded.
        case malformedExtension(name: String, underlying: String, offset: Int)
        /// The certificate is larger than ``Certificate/maximumEncodedSize`` (bounded work).
        case certificateTooLarge(size: Int, limit: Int)
        /// The input held no certificate.
        case empty
    }

    /// What was wrong.
    public let reason: Reason
    /// The PEM block the item was decoded from, when it came from PEM text: ``offset`` then counts
    /// from the start of that block's decoded bytes.
    public let pemBlock: PEMBlockLocation?

    /// Wraps a reason.
    public init(_ reason: Reason) {
        self.reason = reason
        self.pemBlock = nil
    }

    /// Wraps a reason found in the item decoded from `pemBlock`.
    public init(_ reason: Reason, pemBlock: PEMBlockLocation?) {
        self.reason = reason
        self.pemBlock = pemBlock
    }

    /// This error, located in the item decoded from `block`.
    public func inPEMBlock(_ block: PEMBlockLocation) -> X509Error { X509Error(reason, pemBlock: block) }

    /// The byte offset of the problem, when it has one.
    public var offset: Int? {
        switch reason {
        case let .der(error): return error.offset
        case let .invalidStructure(_, offset), let .duplicateExtension(_, offset), let .malformedExtension(_, _, offset):
            return offset
        case .pem, .unexpectedPEMBlock, .certificateTooLarge, .empty: return nil
        }
    }

    /// One line a person can act on; DER problems end with `at byte OFFSET`. Values quoted from the
    /// input are capped (at 256 characters, an OID at 64 arcs: `QuotedValue`). An item from PEM
    /// text names its block and says that offsets count from the start of the block's decoded bytes.
    public var description: String {
        guard let pemBlock else { return reasonDescription }
        var offsets = ""
        if let offset {
            offsets = "; byte offsets count from the start of its decoded bytes"
            // Base64 has no byte-for-byte position in the text, but each decoded byte has a line.
            if let line = pemBlock.line(ofDecodedByte: offset) { offsets += "; byte \(offset) is on line \(line)" }
        }
        return "\(reasonDescription) (in \(pemBlock)\(offsets))"
    }

    /// The reason alone, without the PEM block.
    public var reasonDescription: String {
        switch reason {
        case let .der(error): return error.description
        case let .pem(error): return error.description
        case let .unexpectedPEMBlock(label, line): return "unexpected PEM block \(QuotedValue.capped(label)) at line \(line) (expected CERTIFICATE)"
        case let .invalidStructure(what, offset): return "\(QuotedValue.capped(what)) at byte \(offset)"
        case let .duplicateExtension(oid, offset): return "duplicate extension \(QuotedValue.capped(oid)) at byte \(offset)"
        case let .malformedExtension(name, underlying, offset):
            return "malformed \(QuotedValue.capped(name)) extension: \(QuotedValue.capped(underlying)) (extension at byte \(offset))"
        case let .certificateTooLarge(size, limit): return "certificate is \(size) bytes, more than the \(limit) accepted"
        case .empty: return "no certificate found"
        }
    }
}

extension X509Error {
    static func structure(_ what: String, at offset: Int) -> X509Error {
        X509Error(.invalidStructure(what, offset: offset))
    }
}

/// Runs parsing code written with untyped `throws`, mapping whatever it throws to `X509Error`.
///
/// Internal parsers throw `DERError` or `X509Error`; public entry points expose one typed error.
@inline(__always)
func mapX509Errors<T>(_ body: () throws -> T) throws(X509Error) -> T {
    do {
        return try body()
    } catch let error as X509Error {
        throw error
    } catch let error as DERError {
        throw X509Error(.der(error))
    } catch let error as PEMError {
        throw X509Error(.pem(error))
    } catch {
        throw X509Error(.invalidStructure(String(describing: error), offset: 0))
    }
}
