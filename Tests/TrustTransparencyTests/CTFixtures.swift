import Foundation
import TrustTransparency
import TrustX509

/// The files `scripts/generate-ct-fixtures` writes, and the dates it uses.
enum CTFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
}
