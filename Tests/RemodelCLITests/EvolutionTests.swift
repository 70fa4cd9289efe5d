import Foundation
import RemodelTestSupport
import XCTest

/// The evolutions apps make that a step now writes, through the real CLI: a list of values
/// becoming a list of objects and back, and a value becoming a link by key and back. In each,
/// `migration new` drafts the step, and the result is what the manual (Docs/Guides.docc/MigrationFiles.md) says.
final class EvolutionTests: CLIFolderTestCase {
    static let stringTags = """
        objects:
          Note:
            primaryKey: id
            properties:
              id: int
              tags: list<string>

        """

    static let objectTags = """
        objects:
          Note:
            primaryKey: id
            properties:
              id: int
              tags: list<Tag>
          Tag:
            primaryKey: name
            properties:
              name: string
              color: { type: string, default: gray }
              notes: { inverse: Note.tags }

        """

    static let tagsData = #"{"Note": [{"id": 1, "tags": ["work", "home", "work"]}, {"id": 2, "tags": ["home", "urgent"]}, {"id": 3, "tags": []}]}"#

    func testAListOfValuesBecomesAListOfObjectsKeyedByTheValuesInOrderAndBack() throws {
        let store = try history(v1: Self.stringTags, data: Self.tagsData, v2: Self.objectTags, steps: nil)
        let draft = try String(contentsOfFile: path("Migrations/0002-change.yaml"), encoding: .utf8)
        XCTAssertTrue(draft.contains(#"  - convert: { type: Note, property: tags, to: "list<Tag>", onError: create }"#), draft)
        let plan = try remodel(["migrate", "--store", store, "--dry-run"])
        XCTAssertTrue(
            plan.stdout.contains("convert the elements of Note.tags from string to links to Tag, creating a Tag for each distinct value no Tag has as its key"), plan.stdout)
        try remodel(["migrate", "--store", store, "--quiet"])
        let expected: [String: Any] = [
            "Note": [["id": 1, "tags": ["work", "home", "work"]], ["id": 2, "tags": ["home", "urgent"]], ["id": 3, "tags": [String]()]],
            "Tag": [["name": "home", "color": "gray"], ["name": "urgent", "color": "gray"], ["name": "work", "color": "gray"]],
        ]
        XCTAssertEqual(try export(store), try Self.canonicalJSON(expected))
        // The links are real: the side table refers to Tag, and a link check passes.
        let schema = try SQLiteSchema.run(".schema", on: store)
        XCTAssertTrue(schema.contains(#"FOREIGN KEY ("value") REFERENCES "Tag" ("name")"#), schema)

        // And back: each link becomes its Tag's key, the Tags stay.
        try write(Self.stringTags + "  Tag:\n    primaryKey: name\n    properties:\n      name: string\n      color: { type: string, default: gray }\n", to: "Schemas/S.yaml")
        try remodel(["migration", "new", "tags-as-text"])
        let back = try String(contentsOfFile: path("Migrations/0003-tags-as-text.yaml"), encoding: .utf8)
        XCTAssertTrue(back.contains(#"  - convert: { type: Note, property: tags, to: "list<string>", onError: fail }"#), back)
        try remodel(["migrate", "--store", store, "--quiet"])
        var original = expected
        original["Note"] = [["id": 1, "tags": ["work", "home", "work"]], ["id": 2, "tags": ["home", "urgent"]], ["id": 3, "tags": [String]()]]
        XCTAssertEqual(try export(store), try Self.canonicalJSON(original))
    }

    func testElementsThatNameNoObjectStopTheMigrationWithOnErrorFail() throws {
        let v2 = Self.objectTags
        let data = #"{"Note": [{"id": 1, "tags": ["work", "home"]}], "Tag": []}"#
        let v1 = Self.stringTags + "  Tag:\n    primaryKey: name\n    properties:\n      name: string\n      color: { type: string, default: gray }\n"
        let store = try history(v1: v1, data: data, v2: v2, steps: "  - convert: { type: Note, property: tags, to: \"list<Tag>\", onError: fail }\n")
        try expectRefused(
            store,
            contains: [
                "1 Note object with elements that are no Tag's primary key, so they cannot become links to one in Note.tags: 1 (\"work\"), 1 (\"home\")",
                "hint: use onError: create to make the missing Tag objects, or fix the values",
            ])
    }

    static let owners = """
        objects:
          Owner:
            primaryKey: id
            properties:
              id: int
              name: { type: string, default: "" }
          Pet:
            primaryKey: id
            properties:
              id: int
              owner: OWNER

        """

    static let petsData =
        #"{"Owner": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bo"}], "Pet": [{"id": 10, "owner": 1}, {"id": 11, "owner": null}, {"id": 12, "owner": 7}, {"id": 13, "owner": 2}]}"#

    func testAValueBecomesALinkByKeyAndADanglingKeyIsADataError() throws {
        let store = try history(
            v1: Self.owners.replacingOccurrences(of: "OWNER", with: "int32?"), data: Self.petsData, v2: Self.owners.replacingOccurrences(of: "OWNER", with: "Owner?"), steps: nil)
        let file = path("Migrations/0002-change.yaml")
        let draft = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(draft.contains(#"  - convert: { type: Pet, property: owner, to: "Owner?", onError: fail }   # int32? → Owner?: fail, null or create"#), draft)
        try expectRefused(
            store,
            contains: [
                "step 1 (convert) at Migrations/0002-change.yaml:",
                "1 Pet object with values that are no Owner's primary key, so they cannot become links to one in Pet.owner: 12 (7)",
                "hint: use onError: create to make the missing Owner objects, onError: null to leave them unlinked, or fix the values",
            ])
        // With onError: null the dangling value is left unlinked; the others link.
        try draft.replacingOccurrences(of: "onError: fail }", with: "onError: null }").write(toFile: file, atomically: true, encoding: .utf8)
        try remodel(["migrate", "--store", store, "--quiet"])
        let owners: [[String: Any]] = [["id": 1, "name": "Ada"], ["id": 2, "name": "Bo"]]
        XCTAssertEqual(
            try export(store),
            try Self.canonicalJSON(["Owner": owners, "Pet": [["id": 10, "owner": 1], ["id": 11, "owner": NSNull()], ["id": 12, "owner": NSNull()], ["id": 13, "owner": 2]]]))
        XCTAssertTrue(try SQLiteSchema.run(".schema", on: store).contains(#"FOREIGN KEY ("owner") REFERENCES "Owner" ("id")"#))
    }

    func testAValueBecomesALinkCreatingTheObjectsNoOneHasWithOnErrorCreate() throws {
        let store = try history(
            v1: Self.owners.replacingOccurrences(of: "OWNER", with: "int32?"), data: Self.petsData, v2: Self.owners.replacingOccurrences(of: "OWNER", with: "Owner?"),
            steps: "  - convert: { type: Pet, property: owner, to: Owner?, onError: create }\n")
        try remodel(["migrate", "--store", store, "--quiet"])
        XCTAssertEqual(
            try export(store),
            try Self.canonicalJSON([
                "Owner": [["id": 1, "name": "Ada"], ["id": 2, "name": "Bo"], ["id": 7, "name": ""]],
                "Pet": [["id": 10, "owner": 1], ["id": 11, "owner": NSNull()], ["id": 12, "owner": 7], ["id": 13, "owner": 2]],
            ]))
    }

    func testALinkBecomesTheKeyOfItsObject() throws {
        let data = #"{"Owner": [{"id": 1, "name": "Ada"}], "Pet": [{"id": 10, "owner": 1}, {"id": 11, "owner": null}]}"#
        let store = try history(
            v1: Self.owners.replacingOccurrences(of: "OWNER", with: "Owner?"), data: data, v2: Self.owners.replacingOccurrences(of: "OWNER", with: "int?"), steps: nil)
        let draft = try String(contentsOfFile: path("Migrations/0002-change.yaml"), encoding: .utf8)
        XCTAssertTrue(draft.contains(#"  - convert: { type: Pet, property: owner, to: "int?", onError: fail }"#), draft)
        try remodel(["migrate", "--store", store, "--quiet"])
        XCTAssertEqual(
            try export(store), try Self.canonicalJSON(["Owner": [["id": 1, "name": "Ada"]], "Pet": [["id": 10, "owner": 1], ["id": 11, "owner": NSNull()]]]))
    }
}
