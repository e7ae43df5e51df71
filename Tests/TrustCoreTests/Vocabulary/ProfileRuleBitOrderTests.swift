import Foundation
@testable import TrustCore
import TrustTestSupport
import XCTest

/// ``ProfileRule/bitOrder``, the append-only record of each rule's bit in a ``ProfileRuleSet``: every
/// rule once, in the committed order of `ProfileRuleBitOrder.txt` (beside this file), so that a rule
/// inserted, moved or removed fails here, and a rule appended must be appended there too.
final class ProfileRuleBitOrderTests: XCTestCase {
    func testEveryRuleIsInTheListExactlyOnce() {
        XCTAssertEqual(ProfileRule.bitOrder.count, ProfileRule.allCases.count)
        XCTAssertEqual(Set(ProfileRule.bitOrder), Set(ProfileRule.allCases))
        for rule in ProfileRule.allCases {
            XCTAssertEqual(ProfileRule.bitOrder.filter { $0 == rule }.count, 1, "\(rule)")
        }
    }

    func testTheListIsTheCommittedOrder() throws {
        let file = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustCoreTests/Vocabulary/ProfileRuleBitOrder.txt")
        let committed = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(ProfileRule.bitOrder.map(\.rawValue), committed,
                       "bit positions are append-only: append a new rule to the end of both lists, never insert or reorder")
    }

    func testFewerThanSixtyFourRulesFitTheSet() {
        XCTAssertLessThan(ProfileRule.bitOrder.count, 64)
    }

    func testEachRulesBitIsItsIndexInTheList() {
        for (position, rule) in ProfileRule.bitOrder.enumerated() {
            XCTAssertEqual(ProfileRuleSet([rule]).bits, UInt64(1) << UInt64(position), "\(rule)")
            XCTAssertEqual(rule.bit, UInt64(1) << UInt64(position), "\(rule)")
        }
        XCTAssertEqual(ProfileRuleSet(ProfileRule.allCases).bits.nonzeroBitCount, ProfileRule.allCases.count, "no two rules share a bit")
    }

    /// A rule's bit is its declaration index (one byte: Swift stores a payload-free case as it), so
    /// the enum declares its cases in the list's order.
    func testTheEnumDeclaresItsCasesInTheListsOrder() {
        XCTAssertEqual(ProfileRule.allCases, ProfileRule.bitOrder, "declare a new rule's case last in ProfileRule, as it is last in the list")
        XCTAssertEqual(MemoryLayout<ProfileRule>.size, 1)
        for (index, rule) in ProfileRule.allCases.enumerated() {
            XCTAssertEqual(rule.declarationIndex, index, "\(rule)")
        }
    }
}
