import TrustDER
@testable import TrustX509
import TrustTestSupport
import XCTest

/// A certificate keeps which known extensions it holds and which are critical as two bit sets, and
/// builds its list of ``Extension`` values only on first use (issue 17). Validation reads the bit
/// sets; these tests hold them, and `Extensions` equality, to the list over every test certificate.
final class ExtensionKindSetTests: XCTestCase {
    private func everyTestCertificate() throws -> [Certificate] {
        var all: [Certificate] = []
        for path in try TestCertificates.certificateFiles() { all += try TestCertificates.certificates(path) }
        return all
    }

    func testTheBitSetsAgreeWithTheExtensionList() throws {
        let certificates = try everyTestCertificate()
        XCTAssertGreaterThan(certificates.count, 50)
        var criticalSeen = 0, unknownCriticalSeen = 0
        for certificate in certificates {
            let extensions = certificate.extensions
            let list = extensions.all
            for raw in 0..<32 {
                guard let kind = ExtensionKind(rawValue: raw) else { continue }
                let listed = list.first { $0.kind == kind }
                XCTAssertEqual(extensions.contains(kind), listed != nil, "\(certificate) \(kind)")
                XCTAssertEqual(extensions.isCritical(kind), listed?.isCritical ?? false, "\(certificate) \(kind)")
                if listed?.isCritical == true { criticalSeen += 1 }
            }
            // The key identifiers located at parse time are the views' octets.
            XCTAssertEqual(extensions.authorityKeyID.map(Array.init), extensions.authorityKeyIdentifier?.keyIdentifier.map(Array.init))
            XCTAssertEqual(
                extensions.subjectKeyID.map(Array.init),
                (try? list.first { $0.kind == .subjectKeyIdentifier }
                    .map { try DERIndexReader.parseSingle($0.value).octetString(in: $0.value) }).flatMap { $0.map(Array.init) })
            let unknownCritical = list.contains { $0.kind == nil && $0.isCritical }
            XCTAssertEqual(extensions.hasCriticalUnknownExtension, unknownCritical, "\(certificate)")
            if unknownCritical { unknownCriticalSeen += 1 }
            // The list is read from the certificate's own DER, at the offsets the parse found.
            let der = certificate.derEncoded
            for ext in list {
                XCTAssertEqual(der[ext.offset], 0x30, "\(certificate) \(ext.name)")
                XCTAssertTrue(ByteComparison.equal(ext.value, der[ext.value.indices]), "\(certificate) \(ext.name)")
            }
        }
        // Both kinds of critical extension occur in the test certificates.
        XCTAssertGreaterThan(criticalSeen, 10)
        XCTAssertGreaterThan(unknownCriticalSeen, 0)
    }

    /// Every kind has a slot in the table of value locations (a kind added without growing the
    /// table would make certificates holding it unreadable).
    func testEveryKindHasAValueLocation() {
        var kinds = 0
        for raw in 0..<64 where ExtensionKind(rawValue: raw) != nil {
            XCTAssertLessThan(raw, ExtensionsData.ValueLocations.count)
            kinds += 1
        }
        XCTAssertEqual(kinds, 16)
    }

    /// The table keeps each kind's location in its own slot, at the extremes of both fields, and
    /// ignores an index without a slot.
    func testValueLocationsKeepEachSlot() {
        typealias Locations = ExtensionsData.ValueLocations
        var locations = Locations()
        for index in 0..<Locations.count { XCTAssertNil(locations[index]) }
        for index in 0..<Locations.count {
            locations[index] = ExtensionsData.ValueLocation(start: UInt16(65_535 - index), count: UInt16(index == 3 ? 0 : 65_535 - index * 7))
        }
        locations[Locations.count] = ExtensionsData.ValueLocation(start: 1, count: 1)
        locations[-1] = ExtensionsData.ValueLocation(start: 1, count: 1)
        for index in 0..<Locations.count {
            XCTAssertEqual(locations[index]?.start, UInt16(65_535 - index), "\(index)")
            XCTAssertEqual(locations[index]?.count, UInt16(index == 3 ? 0 : 65_535 - index * 7), "\(index)")
        }
        XCTAssertNil(locations[Locations.count])
        XCTAssertNil(locations[-1])
        locations[5] = nil
        XCTAssertNil(locations[5])
        XCTAssertEqual(locations[4]?.start, 65_531)
        XCTAssertEqual(locations[6]?.start, 65_529)
    }

    func testExtensionsAreEqualExactlyWhenTheirListsAre() throws {
        let certificates = try everyTestCertificate()
        for (index, certificate) in certificates.enumerated() {
            let again = try Certificate(derEncoded: certificate.derEncoded)
            XCTAssertEqual(certificate.extensions, again.extensions)
            XCTAssertEqual(certificate.extensions.hashValue, again.extensions.hashValue)
            XCTAssertEqual(certificate.extensions.all, again.extensions.all)
            let other = certificates[(index + 1) % certificates.count]
            XCTAssertEqual(
                certificate.extensions == other.extensions, certificate.extensions.all == other.extensions.all,
                "\(certificate) vs \(other)")
        }
    }
}
