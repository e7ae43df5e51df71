import Foundation
@testable import TrustCore
import TrustTestSupport
import XCTest

/// The append-only record of each rule's bit in a ``ProfileRuleSet`` (its declaration index):
/// `ProfileRuleBitOrder.txt` beside this file lists every rule once in the committed order, so a
/// rule inserted, moved or removed fails here, and a new rule is declared last and appended there.
final class ProfileRuleBitOrderTests: XCTestCase {
    private func committedOrder() throws -> [String] {
        let file = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustCoreTests/Vocabulary/ProfileRuleBitOrder.txt")
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func testEveryRuleIsInTheListExactlyOnce() throws {
        let committed = try committedOrder()
        XCTAssertEqual(committed.count, ProfileRule.allCases.count)
        XCTAssertEqual(Set(committed), Set(ProfileRule.allCases.map(\.rawValue)))
        for rule in ProfileRule.allCases {
            XCTAssertEqual(committed.filter { $0 == rule.rawValue }.count, 1, "\(rule)")
        }
    }

    /// A rule's bit is its declaration index (one byte: Swift stores a payload-free case as it), so
    /// the enum declares its cases in the list's order.
    func testTheEnumDeclaresItsCasesInTheCommittedOrder() throws {
        XCTAssertEqual(
            ProfileRule.allCases.map(\.rawValue), try committedOrder(),
            "bit positions are append-only: declare a new rule last and append it to the list, never insert or reorder")
        XCTAssertEqual(MemoryLayout<ProfileRule>.size, 1)
        for (index, rule) in ProfileRule.allCases.enumerated() {
            XCTAssertEqual(rule.declarationIndex, index, "\(rule)")
        }
    }

    func testFewerThanSixtyFourRulesFitTheSet() {
        XCTAssertLessThan(ProfileRule.allCases.count, 64)
    }

    func testEachRulesBitIsItsPositionInTheList() throws {
        for (position, name) in try committedOrder().enumerated() {
            let rule = try XCTUnwrap(ProfileRule(rawValue: name), name)
            XCTAssertEqual(ProfileRuleSet([rule]).bits, UInt64(1) << UInt64(position), "\(rule)")
            XCTAssertEqual(rule.bit, UInt64(1) << UInt64(position), "\(rule)")
        }
        XCTAssertEqual(ProfileRuleSet(ProfileRule.allCases).bits.nonzeroBitCount, ProfileRule.allCases.count, "no two rules share a bit")
    }
}
