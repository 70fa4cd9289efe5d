import Foundation
import RemodelSchema

/// `schema [objects] [runs]`: writes a schema of 1,000 objects × 20 properties (scalars with
/// defaults, optionals, enums, links, lists, inverses) to a temporary folder, then loads and
/// validates it repeatedly and prints the median time. Target: under 50 ms in release.
func runSchemaBenchmark(_ arguments: [String]) throws {
    let objectCount = arguments.first.flatMap(Int.init) ?? 1_000
    let runs = arguments.dropFirst().first.flatMap(Int.init) ?? 15
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-schema-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let files = SchemaBenchmarkFixture.files(objects: objectCount)
    var bytes = 0
    for (name, text) in files {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        bytes += text.utf8.count
    }
    let check = SchemaLoader.load(path: folder.path)
    guard let schema = check.schema else {
        print(DiagnosticFormatter().string(for: Array(check.diagnostics.prefix(10))))
        throw SchemaBenchmarkError.invalidFixture
    }
    let properties = schema.objects.reduce(0) { $0 + $1.properties.count }
    print("schema: \(schema.objects.count) objects, \(properties) properties, \(schema.enums.count) enums in \(files.count) files (\(bytes / 1024) KiB)")
    measure("load + validate", iterations: runs) {
        let result = SchemaLoader.load(path: folder.path)
        precondition(result.schema != nil)
    }
}

enum SchemaBenchmarkError: Error, CustomStringConvertible {
    case invalidFixture

    var description: String { "the generated benchmark schema does not validate" }
}

/// The generated schema: `objects` types spread over files of 100, each with 20 properties.
enum SchemaBenchmarkFixture {
    static func files(objects: Int) -> [(name: String, text: String)] {
        var files: [(String, String)] = []
        var enums = "enums:\n"
        for index in 0..<10 {
            enums += "  Status\(index):\n    doc: Status values, set \(index).\n    cases:\n"
            for value in 0..<8 { enums += "      case\(value): Case \(value) of \(index)\n" }
        }
        files.append(("Enums.yaml", enums))
        let perFile = 100
        for start in stride(from: 0, to: objects, by: perFile) {
            var text = "objects:\n"
            for index in start..<min(start + perFile, objects) {
                text += object(index, count: objects)
            }
            files.append(("Objects\(String(format: "%04d", start / perFile)).yaml", text))
        }
        return files
    }

    private static func object(_ index: Int, count: Int) -> String {
        let next = (index + 1) % count
        let previous = (index + count - 1) % count
        return """
              Type\(index):
                doc: Generated object number \(index).
                primaryKey: _id
                properties:
                  _id: { type: uuid, default: $uuid }
                  name: { type: string, default: "", indexed: true }
                  title: string?
                  count: { type: int, default: 0 }
                  small: { type: int16, default: 12 }
                  ratio: { type: double, default: 1.5 }
                  flag: { type: bool, default: false }
                  created: { type: date, default: $now }
                  updated: date?
                  blob: data?
                  link: url?
                  code: { type: objectId, default: $objectId }
                  status: { type: Status\(index % 10), default: case\(index % 8) }
                  tags: list<string>
                  scores: map<double>
                  next: Type\(next)?
                  children: list<Type\(next)>
                  favorites: set<Type\(previous)>
                  parents: { inverse: Type\(previous).children }
                  note: { type: string, default: "generated", doc: A documented property. }

            """
    }
}
