import Foundation
import RemodelCore
import XCTest

@testable import RemodelSchema

/// The snapshot reader (for snapshots remodel.sum records) gives exactly what the full loader
/// gives, schema and declaration places, and refuses what is not canonical.
final class SnapshotReaderTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func assertSameAsTheLoader(_ text: String, file: String, reader: SnapshotReader = SnapshotReader(), line: UInt = #line) throws {
        let full = loadSchema(yaml: text, file: file)
        let schema = try XCTUnwrap(full.schema, "\(full.diagnostics)", line: line)
        let read = try XCTUnwrap(reader.read(text, file: file), "not read: \(file)", line: line)
        // Its digest is remodel.sum's, as computed from the file's bytes alone.
        XCTAssertEqual(read.digest, FileDigest.hex(of: Data(text.utf8)), file, line: line)
        XCTAssertEqual(read.schema, schema, file, line: line)
        if read.schema != schema {
            for (a, b) in zip(read.schema.objects, schema.objects) where a != b {
                XCTAssertEqual(a.properties.count, b.properties.count, "\(a.name) properties", line: line)
                for (p, q) in zip(a.properties, b.properties) { XCTAssertEqual(p, q, "\(a.name).\(p.name)", line: line) }
                XCTAssertEqual(a.primaryKey, b.primaryKey, line: line)
                XCTAssertEqual(a.doc, b.doc, line: line)
            }
            for (a, b) in zip(read.schema.enums, schema.enums) { XCTAssertEqual(a, b, line: line) }
            XCTAssertEqual(read.schema.projections, schema.projections, line: line)
        }
        XCTAssertEqual(read.source, full.source, file, line: line)
    }

    func testCommittedSnapshotsReadAsTheLoaderReadsThem() throws {
        for folder in ["Migrations/snapshots", "Examples/RealmMigration/Migrations/snapshots", "Tests/RemodelCodegenTests/Histories/StepKinds/Migrations/snapshots"] {
            let url = Self.root.appendingPathComponent(folder)
            let reader = SnapshotReader()
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".yaml") }.sorted()
            XCTAssertFalse(names.isEmpty, folder)
            for name in names {
                try assertSameAsTheLoader(try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8), file: "\(folder)/\(name)", reader: reader)
            }
        }
    }

    func testEveryFeatureAndAwkwardText() throws {
        try assertSameAsTheLoader(CanonicalYAML.text(of: RoundTripTests.everyFeature), file: "every.yaml")
        let awkward = Schema(
            enums: [
                EnumType(name: "Level", rawType: .int, cases: [.init(name: "low", rawValue: .int(-3)), .init(name: "high", rawValue: .int(9))]),
                EnumType(name: "Mood", cases: [.init(name: "yes", rawValue: .string("yes: \"quoted\"\n\\ \u{7}\u{2028}é")), .init(name: "off", rawValue: .string(""))]),
            ],
            objects: [
                ObjectType(
                    name: "Thing", primaryKey: "id",
                    properties: [
                        Property("id", PropertyType(.scalar(.uuid)), default: .generated(.uuid)),
                        Property("null", PropertyType(.scalar(.string), optional: true), default: .null, doc: "a: b # c"),
                        Property("ratio", PropertyType(.scalar(.double)), default: .double(-0.0)),
                        Property("huge", PropertyType(.scalar(.double)), default: .double(1e300)),
                        Property("inf", PropertyType(.scalar(.double)), default: .double(-.infinity)),
                        Property("level", PropertyType(.enumeration("Level")), default: .enumCase("high")),
                        Property("moods", PropertyType(.enumeration("Mood"), collection: .set)),
                        Property("when", PropertyType(.scalar(.date)), default: .string("2024-02-29T12:00:00Z"), indexed: true, renamedFrom: "at"),
                        Property("others", PropertyType(.object("Thing"), collection: .list)),
                        Property("byName", PropertyType(.scalar(.int), optional: true, collection: .map)),
                        Property(name: "owners", kind: .inverse(type: "Thing", property: "others")),
                    ], doc: "Line one\nline two")
            ])
        try assertSameAsTheLoader(CanonicalYAML.text(of: awkward), file: "awkward.yaml")
    }

    func testUnchangedDeclarationsAreSharedAndChangedOnesRead() throws {
        let reader = SnapshotReader()
        let v1 = Schema(objects: [
            ObjectType(name: "A", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("b", PropertyType(.object("B"), optional: true))]),
            ObjectType(name: "B", primaryKey: "id", properties: [Property("id", .scalar(.int))]),
        ])
        try assertSameAsTheLoader(CanonicalYAML.text(of: v1), file: "v1.yaml", reader: reader)
        var v2 = v1
        v2.objects[1].properties.append(Property("note", PropertyType(.scalar(.string), optional: true)))
        v2.objects.insert(ObjectType(name: "C", properties: [Property("x", .scalar(.int))]), at: 0)
        try assertSameAsTheLoader(CanonicalYAML.text(of: v2), file: "v2.yaml", reader: reader)
        // A's text is the same, but B becomes an enum: A's link must resolve anew.
        let v3 = Schema(enums: [EnumType(name: "B", cases: [.init(name: "one", rawValue: .string("one"))])], objects: [v1.objects[0]])
        let read = try XCTUnwrap(reader.read(CanonicalYAML.text(of: v3), file: "v3.yaml"))
        XCTAssertEqual(read.schema.objects[0].properties[1].storedType?.base, .enumeration("B"))
    }

    func testTheDigestChangesWithEveryEditAndSplitsAtDeclarations() throws {
        let text = CanonicalYAML.text(of: RoundTripTests.everyFeature)
        let digest = FileDigest.hex(of: Data(text.utf8))
        XCTAssertEqual(digest.count, 64)
        var bytes = Array(text.utf8)
        for index in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            let original = bytes[index]
            bytes[index] = original == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
            XCTAssertNotEqual(FileDigest.hex(of: Data(bytes)), digest, "byte \(index)")
            bytes[index] = original
        }
        XCTAssertNotEqual(FileDigest.hex(of: Data((text + "\n").utf8)), digest)
        let chunks = Array("# h\nobjects:\n  A:\n    x: 1\n  B:\n objects\n".utf8).withUnsafeBufferPointer { FileDigest.chunks(of: $0) }
        XCTAssertEqual(chunks, [0..<4, 4..<13, 13..<27, 27..<41])
    }

    func testTextThatIsNotCanonicalIsLeftToTheLoader() throws {
        let text = CanonicalYAML.text(of: RoundTripTests.everyFeature)
        let reader = SnapshotReader()
        for edited in [
            text.replacingOccurrences(of: CanonicalYAML.header, with: "# edited"),
            text.replacingOccurrences(of: "\n    properties:\n", with: "\n    properties: \n"),
            text.replacingOccurrences(of: "type: ", with: "type:  "),
            text + "extra: true\n",
            String(text.dropLast()),
            text.replacingOccurrences(of: "objects:\n", with: "objects:\n  # a comment\n"),
        ] where edited != text {
            XCTAssertNil(reader.read(edited, file: "edited.yaml"), edited)
        }
    }
}
