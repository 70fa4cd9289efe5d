import RemodelCore
import XCTest

/// Uniqueness between versions: added is data-dependent (stored objects may share values),
/// removed and index groups are additive, and a property rename carries its groups along.
final class SchemaDiffUniquenessTests: XCTestCase {
    private func trip(name: String = "name", unique: Bool = false, groups: [[String]] = [], indexes: [[String]] = [], renamedFrom: String? = nil) -> Schema {
        Schema(objects: [
            ObjectType(
                name: "Trip", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property(name, .scalar(.string), unique: unique, renamedFrom: renamedFrom), Property("start", .scalar(.int)),
                ],
                uniqueGroups: groups, indexes: indexes)
        ])
    }

    func testAddingUniquenessIsDataDependentAndRemovingItIsAdditive() {
        let added = SchemaDiff(from: trip(), to: trip(unique: true, groups: [["name", "start"]])).changes
        XCTAssertEqual(added.map(\.description), ["Trip.name made unique", "Trip's (name, start) made unique"])
        XCTAssertEqual(added.map(\.impact), [.dataDependent, .dataDependent])
        let removed = SchemaDiff(from: trip(unique: true, groups: [["name", "start"]]), to: trip()).changes
        XCTAssertEqual(removed.map(\.description), ["Trip.name no longer unique", "Trip's (name, start) no longer unique"])
        XCTAssertEqual(removed.map(\.impact), [.additive, .additive])
        let indexed = SchemaDiff(from: trip(), to: trip(indexes: [["start", "name"]])).changes
        XCTAssertEqual(indexed.map(\.description), ["index on Trip's (start, name) added"])
        XCTAssertEqual(indexed.map(\.impact), [.additive])
    }

    func testARenameCarriesItsGroupsAlong() {
        let changes = SchemaDiff(
            from: trip(unique: true, groups: [["name", "start"]]), to: trip(name: "title", unique: true, groups: [["title", "start"]], renamedFrom: "name")
        ).changes
        XCTAssertEqual(changes.map(\.description), ["property Trip.name renamed to title"])
    }

    /// The same uniqueness said another way changes nothing: a group in another order, a
    /// property's `unique: true` as a group of one.
    func testUniquenessSaidAnotherWayIsNoChange() {
        XCTAssertEqual(SchemaDiff(from: trip(groups: [["name", "start"]]), to: trip(groups: [["start", "name"]])).changes, [])
        XCTAssertEqual(SchemaDiff(from: trip(unique: true), to: trip(groups: [["name"]])).changes, [])
    }
}
