import TrustCore
import XCTest

/// `ComparableError`, the one wrapper the failure reasons carry an underlying error in: compared by
/// value when the error's type is `Equatable`, by type otherwise, never by text; described as the
/// error is.
final class ComparableErrorTests: XCTestCase {
    private struct Coded: Error, Hashable { let code: Int }
    private struct OnlyEquatable: Error, Equatable { let code: Int }
    private struct Opaque: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    func testHashableErrorsCompareByValue() {
        XCTAssertEqual(ComparableError(Coded(code: 1)), ComparableError(Coded(code: 1)))
        XCTAssertEqual(ComparableError(Coded(code: 1)).hashValue, ComparableError(Coded(code: 1)).hashValue)
        XCTAssertNotEqual(ComparableError(Coded(code: 1)), ComparableError(Coded(code: 2)))
        XCTAssertEqual(Set([ComparableError(Coded(code: 1)), ComparableError(Coded(code: 1)), ComparableError(Coded(code: 2))]).count, 2)
    }

    func testEquatableErrorsCompareByValue() {
        XCTAssertEqual(ComparableError(OnlyEquatable(code: 1)), ComparableError(OnlyEquatable(code: 1)))
        XCTAssertEqual(
            ComparableError(OnlyEquatable(code: 1)).hashValue, ComparableError(OnlyEquatable(code: 2)).hashValue,
            "an error that is not Hashable hashes its type")
        XCTAssertNotEqual(ComparableError(OnlyEquatable(code: 1)), ComparableError(OnlyEquatable(code: 2)))
    }

    func testOtherErrorsCompareByTypeNeverByText() {
        XCTAssertEqual(ComparableError(Opaque(text: "a")), ComparableError(Opaque(text: "b")))
        XCTAssertNotEqual(ComparableError(Opaque(text: "a")), ComparableError(Coded(code: 1)))
        XCTAssertNotEqual(ComparableError(OnlyEquatable(code: 1)), ComparableError(Coded(code: 1)))
    }

    func testDescribesItselfAsTheErrorDoes() {
        let errors: [any Error] = [Opaque(text: "line one"), Coded(code: 7), OnlyEquatable(code: 3)]
        for error in errors {
            XCTAssertEqual("\(ComparableError(error))", "\(error)")
            XCTAssertEqual(ComparableError(error).description, String(describing: error))
        }
    }
}
