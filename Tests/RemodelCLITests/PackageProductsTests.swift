import Foundation
import XCTest

/// What an app links, from the package's own description (`swift package describe`): the
/// products an app depends on reach the SDK's (or the system's) SQLite, and not libyaml, as
/// the manual's "Apple platforms" (Docs/Guides.docc/ApplePlatforms.md) promises; no target links libpq (`LibPQLoadingTests`).
final class PackageProductsTests: XCTestCase {
    /// The products an app on iOS depends on.
    static let appProducts: Set = ["RemodelStore", "RemodelMigrate", "RemodelCore"]

    func testAnAppLinksSQLiteButNeitherLibyamlNorLibpq() throws {
        let memberships = try Self.productMemberships()
        XCTAssertEqual(Self.appProducts.subtracting(memberships["RemodelCore"] ?? []), [], "the description lists no app product")
        XCTAssertTrue(Set(["RemodelStore", "RemodelMigrate"]).isSubset(of: memberships["CSQLite"] ?? []), "RemodelStore and RemodelMigrate store with SQLite")
        let yamlLinkedBy = try XCTUnwrap(memberships["CYAML"], "no target CYAML in the package")
        XCTAssertEqual(yamlLinkedBy.intersection(Self.appProducts), [], "an app linking \(yamlLinkedBy.intersection(Self.appProducts).sorted()) would link libyaml")
        XCTAssertNil(memberships["CLibPQ"], "libpq is loaded when RemodelPostgres first connects, not linked")
        XCTAssertTrue((memberships["CYAML"] ?? []).contains("RemodelPlugin"), "the build plugin's tool reads YAML")
    }

    /// Each target's name and the products that contain it.
    static func productMemberships() throws -> [String: Set<String>] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Its own scratch path: the build running these tests holds the lock of the usual one.
        let output = try CLIRunner.runProgram(
            "/usr/bin/env", ["swift", "package", "--package-path", CLIRunner.packageRoot.path, "--scratch-path", scratch.path, "describe", "--type", "json"],
            in: CLIRunner.packageRoot
        )
        XCTAssertEqual(output.status, 0, output.stderr)
        let description = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let targets = try XCTUnwrap(description["targets"] as? [[String: Any]])
        var memberships: [String: Set<String>] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            memberships[name] = Set(target["product_memberships"] as? [String] ?? [])
        }
        return memberships
    }
}
