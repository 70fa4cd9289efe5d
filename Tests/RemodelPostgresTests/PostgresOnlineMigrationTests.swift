import Foundation
import RemodelCore
import RemodelExample
import RemodelMigrate
import RemodelPostgres
import RemodelStore
import RemodelTestSupport
import XCTest

/// An online migration of the example (v1 → v3) while apps of both versions run: the v3 app is
/// the example's generated models; the v1 app is the models `remodel generate` writes for
/// snapshot v1 (below, as the generator spells them).
final class PostgresOnlineMigrationTests: XCTestCase {
    private var server: PostgresTestServer!
    private var target: PostgresTarget!
    private let history = RemodelSchemaManifest.history!

    private var database: String!

    override func setUpWithError() throws {
        server = try PostgresTestServer.shared { XCTSkip($0) }
        database = try server.makeDatabase()
        target = try PostgresTarget(server.url(database: database) + "?schema=app")
        try PostgresStore.importDocument(
            .object([
                (
                    "Person",
                    .array([
                        .object([
                            ("_id", .string("650000000000000000000001")), ("name", .string("Ada Lovelace")), ("employeeId", .string("E-1")),
                            ("company", .string("MongoDB")), ("businessUnit", .string("Eng")), ("dogs", .array([.string("00000000-0000-0000-0000-0000000000D1")])),
                        ])
                    ])
                ),
                (
                    "Dog",
                    .array([
                        .object([("_id", .string("00000000-0000-0000-0000-0000000000D1")), ("name", .string("Rex")), ("breed", .string("Collie")), ("weight", .string(" 30"))])
                    ])
                ),
            ]),
            into: target, source: "v1", expectedVersion: nil, recordedSchema: { _ in nil }, create: (history.schema(at: 1)!, 1)
        )
    }

    private var migrator: PostgresMigrator { PostgresMigrator(Migrator(history: history)) }

    private func openV1() throws -> PostgresModelStore {
        try PostgresModelStore(at: target, schema: history.schema(at: 1)!, version: 1)
    }

    func testBothVersionsReadAndWriteTheirOwnModelsDuringTheExpandPhase() throws {
        let expanded = try migrator.expand(at: target)
        XCTAssertEqual(expanded.outcome, .expanded)
        XCTAssertEqual(try PostgresStore.info(at: target) { _ in nil }.version, 1, "the store stays at version 1 until the contract")
        let old = try openV1()
        let new = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)

        // The v3 app reads the objects the v1 app wrote before, migrated as the plan migrates them.
        let ada = try XCTUnwrap(try new.read { try $0.object(Person.self, forKey: ObjectID("650000000000000000000001")!) })
        XCTAssertEqual([ada.firstName, ada.lastName, ada.personId], ["Ada", "Lovelace", "E-1"])
        XCTAssertEqual(ada.businessUnit, .engineering)
        XCTAssertEqual(try new.read { try $0.objects(Dog.self).map(\.weight) }, [30])

        // The v1 app writes; the v3 app reads its writes in its own shape.
        let alan = PersonV1(_id: ObjectID("650000000000000000000002")!, name: "Alan Turing", employeeId: "E-2", company: "NPL", businessUnit: "HR", dogs: [])
        let fido = DogV1(_id: UUID(), name: "Fido", breed: "Mutt", weight: "12")
        try old.write { tx in
            try tx.insert(alan)
            try tx.insert(fido)
        }
        let alanNow = try XCTUnwrap(try new.read { try $0.object(Person.self, forKey: alan._id) })
        XCTAssertEqual([alanNow.firstName, alanNow.lastName, alanNow.personId], ["Alan", "Turing", "E-2"])
        XCTAssertEqual(alanNow.businessUnit, .humanResourcesAndRescruiting)
        XCTAssertEqual(try new.read { try $0.object(Dog.self, forKey: fido._id)?.weight }, 12)
        XCTAssertEqual(try new.read { try $0.objects(Person.self, where: Person.Columns.lastName == "Turing").map(\.id) }, [alan._id])

        // The v3 app writes; the v1 app reads its writes in its own shape.
        let grace = Person(firstName: "Grace", lastName: "Hopper", personId: "P-9", company: "Navy", businessUnit: .product)
        try new.write { try $0.insert(grace) }
        let graceThen = try XCTUnwrap(try old.read { try $0.object(PersonV1.self, forKey: grace._id) })
        XCTAssertEqual([graceThen.name, graceThen.employeeId, graceThen.businessUnit], ["Grace Hopper", "P-9", "Product"])
        var adaKing = ada
        adaKing.lastName = "King"
        adaKing.dogs = [fido._id]
        try new.write { try $0.upsert(adaKing) }
        let adaThen = try XCTUnwrap(try old.read { try $0.object(PersonV1.self, forKey: ada._id) })
        XCTAssertEqual(adaThen.name, "Ada King")
        XCTAssertEqual(adaThen.dogs, [fido._id], "the shared list of dogs")
        var rex = try XCTUnwrap(try new.read { try $0.objects(Dog.self, where: Dog.Columns.name == "Rex").first })
        rex.weight = 32
        rex.favoriteToy = "ball"
        try new.write { try $0.upsert(rex) }
        XCTAssertEqual(try old.read { try $0.object(DogV1.self, forKey: rex._id)?.weight }, "32")
        // A write of the v1 app keeps what the v3 app wrote into what v1 does not have, and
        // computes again only what it changed the source of.
        var rexV1 = try XCTUnwrap(try old.read { try $0.object(DogV1.self, forKey: rex._id) })
        rexV1.breed = "Border Collie"
        try old.write { try $0.upsert(rexV1) }
        let rexNow = try XCTUnwrap(try new.read { try $0.object(Dog.self, forKey: rex._id) })
        XCTAssertEqual([rexNow.favoriteToy, rexNow.breed], ["ball", "Border Collie"])
        XCTAssertEqual(rexNow.weight, 32)
        var adaV1 = try XCTUnwrap(try old.read { try $0.object(PersonV1.self, forKey: ada._id) })
        adaV1.company = "Analytical Engines"
        try old.write { try $0.upsert(adaV1) }
        XCTAssertEqual(try new.read { try $0.object(Person.self, forKey: ada._id).map { [$0.firstName, $0.lastName, $0.company] } }, ["Ada", "King", "Analytical Engines"])

        // Each app's change of the other's object, and a delete.
        // A mapped value goes back to what it was mapped from; a parsed one back to text.
        var alanV3 = try XCTUnwrap(try new.read { try $0.object(Person.self, forKey: alan._id) })
        alanV3.businessUnit = .educationCommunityAndDocs
        try new.write { try $0.upsert(alanV3) }
        XCTAssertEqual(try old.read { try $0.object(PersonV1.self, forKey: alan._id)?.businessUnit }, "Docs")
        var alanV1 = try XCTUnwrap(try old.read { try $0.object(PersonV1.self, forKey: alan._id) })
        alanV1.name = "Alan M. Turing"
        try old.write { try $0.upsert(alanV1) }
        XCTAssertEqual(try new.read { try $0.object(Person.self, forKey: alan._id).map { [$0.firstName, $0.lastName] } }, ["Alan", "M. Turing"])
        _ = try new.write { try $0.delete(Dog.self, key: fido._id) }
        XCTAssertNil(try old.read { try $0.object(DogV1.self, forKey: fido._id) })
        XCTAssertEqual(try old.read { try $0.object(PersonV1.self, forKey: ada._id)?.dogs }, [])

        // A second expand has nothing to do; the contract sets version 3.
        XCTAssertEqual(try migrator.expand(at: target).outcome, .alreadyExpanded)
        XCTAssertEqual(try migrator.complete(at: target).outcome, .completed)
        XCTAssertEqual(try PostgresStore.info(at: target) { _ in nil }.version, 3)
        // The v3 app's open store keeps working; a v3 app opened now uses the tables.
        XCTAssertEqual(try new.read { try $0.count(Person.self) }, 3)
        let reopened = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        XCTAssertEqual(try reopened.read { try $0.object(Person.self, forKey: grace._id) }, grace)
        XCTAssertEqual(try reopened.read { try $0.object(Person.self, forKey: alan._id)?.lastName }, "M. Turing")
        XCTAssertThrowsError(try openV1()) { error in
            XCTAssertTrue("\(error)".contains("version 3"), "\(error)")
        }
        // The old shape is gone: the tables are a fresh v3 store's.
        let columns = try server.psql(
            "SELECT string_agg(column_name, ',' ORDER BY column_name) FROM information_schema.columns WHERE table_schema = 'app' AND table_name = 'Person'",
            database: database)
        XCTAssertEqual(columns, "__remodel_rowid,_id,businessUnit,company,firstName,lastName,personId,profileImageUrl\n")
        XCTAssertEqual(
            try server.psql("SELECT is_nullable FROM information_schema.columns WHERE table_schema = 'app' AND table_name = 'Dog' AND column_name = 'weight'", database: database),
            "NO\n")
    }

    /// A row the backfill has not reached yet, written by the v1 app: its new columns are
    /// computed then (a NOT VALID constraint still holds every row written).
    func testAWriteOfTheOldAppToARowNotYetBackfilledComputesItsNewColumns() throws {
        _ = try migrator.expand(at: target)
        // As the row was before the backfill reached it.
        try server.psql(
            "BEGIN; SET LOCAL remodel.backfill = 'on'; ALTER TABLE app.\"Dog\" DROP CONSTRAINT \"__remodel_required_v3\"; "
                + "UPDATE app.\"Dog\" SET \"__remodel_ready_v3\" = NULL, \"__remodel_new_weight\" = NULL; COMMIT", database: database)
        let old = try openV1()
        var rex = try XCTUnwrap(try old.read { try $0.objects(DogV1.self).first })
        rex.name = "Rex II"
        try old.write { try $0.upsert(rex) }
        let new = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        XCTAssertEqual(try new.read { try $0.object(Dog.self, forKey: rex._id).map { "\($0.name) \($0.weight)" } }, "Rex II 30")
    }

    /// The views give no role more than the tables do.
    func testARoleWithoutRightsOnTheTablesHasNoneThroughTheViews() throws {
        _ = try migrator.expand(at: target)
        try server.psql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'stranger') THEN CREATE ROLE stranger LOGIN; END IF; END $$", database: database)
        let stranger = try PostgresConnection(PostgresTarget(server.url(database: database, user: "stranger") + "?schema=app"))
        XCTAssertThrowsError(try stranger.query("SELECT * FROM app__remodel_v3.\"Person\"")) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "42501", "\(error)")
        }
        XCTAssertThrowsError(try stranger.query("DELETE FROM app__remodel_v3.\"Dog\"")) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "42501", "\(error)")
        }
    }

    func testTheNewAppWaitsForTheExpandPhaseAndAnOnlineMigrationBlocksTheDefaultMode() throws {
        XCTAssertThrowsError(try migrator.complete(at: target)) { error in
            XCTAssertTrue("\(error)".contains("has no online migration in progress"), "\(error)")
        }
        // An expand phase that stopped before it finished, as a killed run leaves it.
        _ = try migrator.expand(at: target)
        try server.psql("UPDATE app._remodel_online SET value = 'expanding' WHERE key = 'phase'", database: database)
        XCTAssertThrowsError(try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)) { error in
            XCTAssertTrue("\(error)".contains("has not finished"), "\(error)")
            XCTAssertTrue("\(error)".contains("run 'remodel migrate --store URL --online' again"), "\(error)")
        }
        XCTAssertThrowsError(try migrator.complete(at: target)) { error in
            XCTAssertTrue("\(error)".contains("has not finished"), "\(error)")
        }
        XCTAssertThrowsError(try migrator.migrate(at: target)) { error in
            XCTAssertTrue("\(error)".contains("is being migrated online from version 1 to 3 (expanding); a migration in one transaction cannot run meanwhile"), "\(error)")
        }
        XCTAssertEqual(try migrator.expand(at: target).outcome, .expanded, "a second run goes on")
        _ = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
    }

    /// The schema's dump without the identity sequences' positions, which objects added and
    /// deleted again move.
    private func dump() throws -> String {
        try server.dump(database: database, schema: "app").split(separator: "\n").filter { !$0.contains("setval(") }.joined(separator: "\n")
    }

    func testAbortReturnsToTheOldVersionWithWhatBothAppsWrote() throws {
        let before = try dump()
        _ = try migrator.expand(at: target)
        let old = try openV1()
        let new = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        try old.write {
            try $0.insert(PersonV1(_id: ObjectID("650000000000000000000003")!, name: "Edsger Dijkstra", employeeId: "E-3", company: "TU/e", businessUnit: "Sales", dogs: []))
        }
        let grace = Person(firstName: "Grace", lastName: "Hopper", personId: "P-9", company: "Navy", businessUnit: .product)
        try new.write { try $0.insert(grace) }
        XCTAssertEqual(try migrator.abort(at: target).outcome, .aborted)
        XCTAssertNil(try PostgresOnlineState.read(at: target))
        let v1 = try openV1()
        XCTAssertEqual(try v1.read { try $0.objects(PersonV1.self).map(\.name) }, ["Ada Lovelace", "Edsger Dijkstra", "Grace Hopper"])
        XCTAssertThrowsError(try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self))
        // The schema is as before, but for the rows: no column, trigger, view or function is left.
        try v1.write { tx in
            try tx.delete(PersonV1.self, key: ObjectID("650000000000000000000003")!)
            try tx.delete(PersonV1.self, key: grace._id)
        }
        XCTAssertEqual(try dump(), before)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'app__remodel%'", database: database), "0\n")
        XCTAssertThrowsError(try migrator.abort(at: target)) { error in
            XCTAssertTrue("\(error)".contains("has no online migration in progress, so there is nothing to abort"), "\(error)")
        }
        // And the default mode migrates it afterwards.
        _ = try migrator.migrate(at: target)
        XCTAssertEqual(try PostgresStore.info(at: target) { _ in nil }.version, 3)
    }
}

// MARK: - The v1 app's models

/// `Person` as `remodel generate` writes it for snapshot v1.
struct PersonV1: KeyedModel, Hashable {
    var _id: ObjectID
    var name: String
    var employeeId: String
    var company: String
    var businessUnit: String
    var dogs: [UUID]
    var id: ObjectID { _id }
    static let schemaName = "Person"
    enum Columns {}

    init(_id: ObjectID, name: String, employeeId: String, company: String, businessUnit: String, dogs: [UUID]) {
        self._id = _id
        self.name = name
        self.employeeId = employeeId
        self.company = company
        self.businessUnit = businessUnit
        self.dogs = dogs
    }

    init(row: inout RowDecoder) throws {
        self.init(
            _id: try row.decode(), name: try row.decode(), employeeId: try row.decode(), company: try row.decode(), businessUnit: try row.decode(), dogs: try row.decodeList())
    }

    func encode(to row: inout RowEncoder) throws {
        try row.encode(_id)
        try row.encode(name)
        try row.encode(employeeId)
        try row.encode(company)
        try row.encode(businessUnit)
        try row.encodeList(dogs)
    }
}

/// `Dog` as `remodel generate` writes it for snapshot v1.
struct DogV1: KeyedModel, Hashable {
    var _id: UUID
    var name: String
    var breed: String
    var weight: String
    var id: UUID { _id }
    static let schemaName = "Dog"
    enum Columns {}

    init(_id: UUID, name: String, breed: String, weight: String) {
        self._id = _id
        self.name = name
        self.breed = breed
        self.weight = weight
    }

    init(row: inout RowDecoder) throws {
        self.init(_id: try row.decode(), name: try row.decode(), breed: try row.decode(), weight: try row.decode())
    }

    func encode(to row: inout RowEncoder) throws {
        try row.encode(_id)
        try row.encode(name)
        try row.encode(breed)
        try row.encode(weight)
    }
}
