import Foundation
import RemodelCore
import RemodelMigrate
import RemodelSchema
import RemodelStore
import Testing

/// Literals in migration files, read from YAML as `remodel migrate` reads them: numbers follow
/// the YAML core schema like schema defaults (`.inf`, `0x1F`), dates are the store's ISO 8601
/// forms (a date alone is midnight UTC), and a number that does not fit says so, at its place
/// in the file.
@Suite struct StepLiteralsTests {
    static let v1 = Schema(objects: [
        ObjectType(
            name: "Person", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)),
                Property("born", .scalar(.date)),
                Property("score", .scalar(.double)),
                Property("age", .scalar(.int)),
                Property("ratio", .scalar(.float)),
            ])
    ])

    static var v2: Schema {
        var schema = v1
        schema.objects[0].properties.append(Property("since", .scalar(.date, optional: true)))
        return schema
    }

    /// 2024-05-01T00:00:00Z in stored microseconds.
    static let mayFirst: Int64 = 1_714_521_600_000_000

    /// A folder with a two-version history whose second migration's steps are `steps`.
    struct HistoryFolder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-step-literals-\(UUID().uuidString)")
        static let migrationFile = "0002-literals.yaml"

        init(steps: String) throws {
            try write("description: baseline\nsteps: []\n", to: "0001-initial.yaml")
            try write(CanonicalYAML.text(of: StepLiteralsTests.v1), to: "snapshots/v1.yaml")
            try write(CanonicalYAML.text(of: StepLiteralsTests.v2), to: "snapshots/v2.yaml")
            try write("description: literals\nsteps:\n" + steps, to: Self.migrationFile)
        }

        func write(_ text: String, to name: String) throws {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }

        func migrator() throws -> Migrator {
            let loaded = MigrationHistoryLoader.load(migrations: url.path)
            #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
            var migrator = Migrator(history: try #require(loaded.history))
            migrator.sources = loaded.sources
            return migrator
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// The planning error of `steps`, as the tool prints it.
    func planningError(_ steps: String) throws -> String {
        let folder = try HistoryFolder(steps: steps)
        defer { folder.remove() }
        let error = #expect(throws: MigrationPlanningError.self) { try folder.migrator().plan(from: 1) }
        return error.map { "\($0)" } ?? ""
    }

    @Test func dateOnlyValuesAndInfinityWorkInWhereAndSet() throws {
        let folder = try HistoryFolder(
            steps: """
                  - deleteObjects: { type: Person, where: { born: { lt: 2024-05-01 } } }
                  - deleteObjects: { type: Person, where: { score: .inf } }
                  - deleteObjects: { type: Person, where: { score: { lte: -.inf } } }
                  - deleteObjects: { type: Person, where: { age: 0x1F } }
                  - set: { type: Person, property: since, value: 2024-05-01 }
                """)
        defer { folder.remove() }
        let store = try StoreFixture(schema: Self.v1, version: 1)
        defer { store.remove() }
        let day: Int64 = 86_400_000_000
        for (id, born, score, age) in [
            (1, Self.mayFirst - 1, 0.0, 40), (2, Self.mayFirst, 1.0, 40), (3, Self.mayFirst + day, .infinity, 40),
            (4, Self.mayFirst, -.infinity, 40), (5, Self.mayFirst, 2.0, 31),
        ] as [(Int64, Int64, Double, Int64)] {
            try store.execute(
                "INSERT INTO \"Person\" (\"id\", \"born\", \"score\", \"age\", \"ratio\") VALUES (?, ?, ?, ?, 0.5)",
                [.integer(id), .integer(born), .real(score), .integer(age)])
        }
        _ = try folder.migrator().migrate(storeAt: store.path)
        #expect(
            try store.query("SELECT \"id\", \"since\" FROM \"Person\" ORDER BY 1") == [[.integer(2), .integer(Self.mayFirst)]],
            "1 was born before 2024-05-01T00:00:00Z, 3 and 4 score ±.inf, 5 is 0x1F years old; since is midnight UTC")
    }

    @Test func anIntegerTooLargeFor64BitsIsOutOfRangeAtItsPlace() throws {
        let text = try planningError("  - set: { type: Person, property: age, value: 100000000000000000000000 }\n")
        #expect(text.contains("\(HistoryFolder.migrationFile):3:"), "\(text)")
        #expect(text.contains("1e+23 is out of range for int (-9223372036854775808...9223372036854775807)"), "\(text)")
        #expect(text.contains("hint: write a value in range"), "\(text)")
        let inWhere = try planningError("  - deleteObjects: { type: Person, where: { age: { gt: -100000000000000000000000 } } }\n")
        #expect(inWhere.contains("\(HistoryFolder.migrationFile):3:"), "\(inWhere)")
        #expect(inWhere.contains("where age: -1e+23 is out of range for int"), "\(inWhere)")
    }

    @Test func numbersThatDoNotFitTheirPropertySayWhy() throws {
        #expect(try planningError("  - set: { type: Person, property: age, value: 1.5 }\n").contains("1.5 is not a whole number (int)"))
        #expect(try planningError("  - set: { type: Person, property: age, value: .inf }\n").contains(".inf is not a whole number (int)"))
        #expect(try planningError("  - set: { type: Person, property: age, value: 12.0 }\n").contains("hint: write 12, without a decimal point or exponent"))
        let float = try planningError("  - set: { type: Person, property: ratio, value: 1e39 }\n")
        #expect(float.contains("1e+39 is out of range for float (±3.4028235e+38)"), "\(float)")
        #expect(float.contains("hint: write a smaller value, or make the property a double"), "\(float)")
    }
}
