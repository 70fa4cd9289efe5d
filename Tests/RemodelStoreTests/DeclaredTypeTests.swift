import Foundation
import RemodelStore
import XCTest

/// A retype in place changes one column's declared type in `sqlite_schema` and nothing else
/// (`DeclaredTypeEditor`, `TableDefinitionNormalizer.retypeColumn`).
final class DeclaredTypeTests: XCTestCase {
    func testOnlyTheColumnsTypeTokensChange() {
        let sql = #"""
            CREATE TABLE "Dog" (
              "_id" BLOB PRIMARY KEY NOT NULL,
              "name, or ""nick""" TEXT NOT NULL DEFAULT 'a, (b)',
              weight VARCHAR(10) NOT NULL DEFAULT '0', -- a comment, with (parens)
              [owner] BLOB REFERENCES "Person" ("_id") ON DELETE SET NULL,
              "bare",
              /* a "weight" TEXT */ "note" TEXT
            , "added" TEXT NOT NULL DEFAULT '')
            """#
        XCTAssertEqual(DeclaredTypeEditor.replacingType(of: "weight", in: sql, with: "INTEGER"), sql.replacingOccurrences(of: "weight VARCHAR(10)", with: "weight INTEGER"))
        XCTAssertEqual(
            DeclaredTypeEditor.replacingType(of: "name, or \"nick\"", in: sql, with: "BLOB"),
            sql.replacingOccurrences(of: "\"name, or \"\"nick\"\"\" TEXT", with: "\"name, or \"\"nick\"\"\" BLOB"))
        XCTAssertEqual(DeclaredTypeEditor.replacingType(of: "owner", in: sql, with: "TEXT"), sql.replacingOccurrences(of: "[owner] BLOB", with: "[owner] TEXT"))
        XCTAssertEqual(DeclaredTypeEditor.replacingType(of: "bare", in: sql, with: "REAL"), sql.replacingOccurrences(of: "\"bare\",", with: "\"bare\" REAL,"))
        XCTAssertEqual(DeclaredTypeEditor.replacingType(of: "NOTE", in: sql, with: "INTEGER"), sql.replacingOccurrences(of: "\"note\" TEXT", with: "\"note\" INTEGER"))
        XCTAssertEqual(DeclaredTypeEditor.replacingType(of: "added", in: sql, with: "INTEGER"), sql.replacingOccurrences(of: "\"added\" TEXT", with: "\"added\" INTEGER"))
        XCTAssertNil(DeclaredTypeEditor.replacingType(of: "missing", in: sql, with: "INTEGER"))
        XCTAssertNil(DeclaredTypeEditor.replacingType(of: "weight", in: "CREATE TABLE \"Dog\" (\"weight\" TEXT", with: "INTEGER"), "no closing parenthesis")
        XCTAssertNil(DeclaredTypeEditor.replacingType(of: "weight", in: "CREATE TABLE \"Dog\" (\"weight\" TEXT DEFAULT 'open)", with: "INTEGER"), "an open string")
        // A table constraint is not a column, even when its first word matches.
        XCTAssertNil(DeclaredTypeEditor.replacingType(of: "unique", in: "CREATE TABLE t (a TEXT, UNIQUE (a))", with: "INTEGER"))
    }

    func testRetypeColumnChangesTheDeclaredTypeAndKeepsTheValuesAndEverythingElse() throws {
        let folder = TemporaryFolder()
        let connection = try Connection(path: folder.file("retype.db"), create: true)
        try connection.execute(
            """
            CREATE TABLE "Person" ("_id" BLOB PRIMARY KEY NOT NULL);
            CREATE TABLE "Dog" ("_id" BLOB PRIMARY KEY NOT NULL, "weight" TEXT NOT NULL DEFAULT '', "owner" BLOB REFERENCES "Person" ("_id") ON DELETE SET NULL, UNIQUE ("weight", "owner"));
            CREATE INDEX "Dog.owner.index" ON "Dog" ("owner");
            INSERT INTO "Dog" VALUES (x'01', '12', NULL), (x'02', 'heavy', NULL);
            """)
        let before = try connection.query("SELECT \"name\", \"type\", \"notnull\", \"dflt_value\", \"pk\" FROM pragma_table_info('Dog') ORDER BY \"cid\"")
        let indexesBefore = try connection.query("SELECT \"name\", \"origin\" FROM pragma_index_list('Dog') ORDER BY \"name\"")
        try connection.execute("BEGIN")
        try TableDefinitionNormalizer.retypeColumn(connection, table: "Dog", column: "weight", to: .integer)
        try connection.execute("UPDATE \"Dog\" SET \"weight\" = CASE WHEN CAST(\"weight\" AS TEXT) = '12' THEN 12 ELSE 0 END")
        try connection.execute("COMMIT")

        var expected = before
        expected[1][1] = .text("INTEGER")
        XCTAssertEqual(try connection.query("SELECT \"name\", \"type\", \"notnull\", \"dflt_value\", \"pk\" FROM pragma_table_info('Dog') ORDER BY \"cid\""), expected)
        XCTAssertEqual(try connection.query("SELECT \"name\", \"origin\" FROM pragma_index_list('Dog') ORDER BY \"name\""), indexesBefore)
        XCTAssertEqual(
            try connection.query("SELECT \"weight\", typeof(\"weight\") FROM \"Dog\" ORDER BY \"_id\""), [[.integer(12), .text("integer")], [.integer(0), .text("integer")]])
        XCTAssertEqual(try connection.scalar("PRAGMA integrity_check"), .text("ok"))
        // Values written from now on take the new type's affinity.
        try connection.execute("INSERT INTO \"Dog\" VALUES (x'03', '7', NULL)")
        XCTAssertEqual(try connection.scalar("SELECT typeof(\"weight\") FROM \"Dog\" WHERE \"_id\" = x'03'"), .text("integer"))
        // Declaring the type it has changes nothing; a column that is not there is a mismatch.
        let sql = try connection.scalar("SELECT \"sql\" FROM sqlite_schema WHERE \"name\" = 'Dog'")
        try TableDefinitionNormalizer.retypeColumn(connection, table: "Dog", column: "weight", to: .integer)
        XCTAssertEqual(try connection.scalar("SELECT \"sql\" FROM sqlite_schema WHERE \"name\" = 'Dog'"), sql)
        XCTAssertThrowsError(try TableDefinitionNormalizer.retypeColumn(connection, table: "Dog", column: "size", to: .integer)) { error in
            XCTAssertEqual("\(error)", "the table \"Dog\" does not have the layout of the new schema (it has no column \"size\" to declare as INTEGER); nothing was changed")
        }
        XCTAssertThrowsError(try TableDefinitionNormalizer.retypeColumn(connection, table: "Cat", column: "weight", to: .integer)) { error in
            XCTAssertTrue("\(error)".contains("the table \"Cat\" does not have the layout of the new schema (it is no table;"), "\(error)")
        }
    }
}
