import Foundation
import RemodelCore
import RemodelSchema

/// `test [--versions 50] [--types 20] [--runs N] [--remodel PATH]`: `remodel test` as a whole
/// process (release build, beside this benchmark unless --remodel) on a history of `--types`
/// linked types (keys, text, numbers, dates, an enum, lists, links, an embedded address) over
/// `--versions` versions whose migrations rename properties, add them, convert text to
/// numbers, map values and split text, in turn. Prints the median, and `remodel check` on the
/// same history in the same run for scale. Target: 50 versions of 20 types under 10 s.
func runTestBenchmark(_ arguments: [String]) throws {
    func value(_ name: String) -> String? {
        arguments.firstIndex(of: "--\(name)").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
    let versions = value("versions").flatMap(Int.init) ?? 50
    let types = value("types").flatMap(Int.init) ?? 20
    let runs = value("runs").flatMap(Int.init) ?? 3
    let remodel = value("remodel") ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("remodel").path
    guard FileManager.default.isExecutableFile(atPath: remodel) else { throw CheckBenchmarkError.noRemodel(remodel) }

    // --keep DIR leaves the history in DIR, to run `remodel test` on it by hand.
    let kept = value("keep")
    let project =
        kept.map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("remodel-test-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
    defer { if kept == nil { try? FileManager.default.removeItem(at: project) } }
    try TestBenchmarkHistory.write(versions: versions, types: types, to: project)
    guard runs > 0 else { return print("wrote the history to \(project.path)") }
    print("remodel test on a \(versions)-version history of \(types) types (\(remodel))")
    for (command, label) in [("test", "remodel test"), ("check", "remodel check")] {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let status = try run(remodel, command, in: project)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000)
            guard status == 0 else { throw CheckBenchmarkError.failed(project.path, status) }
            if command == "check" { break }
        }
        times.sort()
        print(String(format: "%@: median %.2f s, min %.2f s, max %.2f s (%d runs)", label, times[times.count / 2], times.first!, times.last!, times.count))
    }
}

/// The benchmark's history, written as `remodel migration new` would: snapshots, migration
/// files, the schema folder and remodel.sum.
enum TestBenchmarkHistory {
    static func write(versions: Int, types: Int, to project: URL) throws {
        let migrations = project.appendingPathComponent("Migrations")
        let schemas = project.appendingPathComponent("Schemas")
        try FileManager.default.createDirectory(at: migrations.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        var schema = initial(types: types)
        // Each type's property that versions rename, and the one waiting to be converted.
        var labels = (0..<types).map { _ in "label" }
        for version in 1...versions {
            var steps: [String] = []
            var description = "The first version."
            if version > 1 {
                let index = version % types
                let type = "Item\(index)"
                switch version % 5 {
                case 0:
                    let new = "label\(version)"
                    steps.append("- renameProperty: { type: \(type), from: \(labels[index]), to: \(new) }")
                    rename(&schema, type: type, from: labels[index], to: new)
                    labels[index] = new
                    description = "\(type).\(labels[index]) is renamed."
                case 1:
                    add(&schema, type: type, Property("note\(version)", PropertyType(.scalar(.string), optional: true)))
                    description = "\(type) gets note\(version)."
                case 2:
                    steps.append("- convert: { type: \(type), property: code, to: int?, onError: null }")
                    retype(&schema, type: type, property: "code", to: PropertyType(.scalar(.int), optional: true))
                    description = "\(type).code becomes a number."
                case 3:
                    steps.append("- mapValues: { type: \(type), property: kind, values: { small: little, large: big }, otherwise: other }")
                    description = "\(type).kind is renamed in part."
                default:
                    if let property = property(of: schema, type: type, named: "code"), property.storedType?.scalar == .int {
                        retype(&schema, type: type, property: "code", to: PropertyType(.scalar(.string), optional: true))
                        steps.append("- convert: { type: \(type), property: code, to: string? }")
                        description = "\(type).code becomes text again."
                    } else {
                        add(&schema, type: type, Property("first\(version)", PropertyType(.scalar(.string)), default: .string("")))
                        add(&schema, type: type, Property("rest\(version)", PropertyType(.scalar(.string)), default: .string("")))
                        steps.append("- split: { type: \(type), property: name, into: [first\(version), rest\(version)], separator: \" \" }")
                        description = "\(type).name is split."
                    }
                }
            }
            let snapshot = CanonicalYAML.text(of: schema)
            try snapshot.write(to: migrations.appendingPathComponent("snapshots/v\(version).yaml"), atomically: false, encoding: .utf8)
            let text = "description: \(description)\nsteps:\(steps.isEmpty ? " []" : "")\n" + steps.map { "  \($0)\n" }.joined()
            try text.write(to: migrations.appendingPathComponent(MigrationFolder.migrationFileName(version: version, name: "v\(version)")), atomically: false, encoding: .utf8)
        }
        try CanonicalYAML.text(of: schema).write(to: schemas.appendingPathComponent("Schema.yaml"), atomically: false, encoding: .utf8)
        try MigrationSum.current(of: migrations.path).text.write(to: migrations.appendingPathComponent(MigrationSum.fileName), atomically: false, encoding: .utf8)
    }

    /// Linked items with every kind of property, and an embedded address.
    static func initial(types: Int) -> Schema {
        var objects: [ObjectType] = (0..<types).map { index in
            ObjectType(
                name: "Item\(index)", primaryKey: "id",
                properties: [
                    Property("id", PropertyType(.scalar(.string))),
                    Property("name", PropertyType(.scalar(.string)), default: .string("")),
                    Property("label", PropertyType(.scalar(.string)), default: .string("")),
                    Property("code", PropertyType(.scalar(.string), optional: true)),
                    Property("kind", PropertyType(.scalar(.string)), default: .string("small")),
                    Property("count", PropertyType(.scalar(.int)), default: .int(0)),
                    Property("score", PropertyType(.scalar(.double), optional: true)),
                    Property("created", PropertyType(.scalar(.date), optional: true)),
                    Property("status", PropertyType(.enumeration("Status")), default: .enumCase("active")),
                    Property("tags", PropertyType(.scalar(.string), collection: .list)),
                    Property("next", PropertyType(.object("Item\((index + 1) % types)"), optional: true)),
                    Property("related", PropertyType(.object("Item\((index + 2) % types)"), collection: .list)),
                    Property("address", PropertyType(.object("Address"), optional: true)),
                ])
        }
        objects.append(
            ObjectType(
                name: "Address", isEmbedded: true,
                properties: [Property("street", PropertyType(.scalar(.string)), default: .string("")), Property("city", PropertyType(.scalar(.string), optional: true))]))
        return Schema(enums: [EnumType(name: "Status", caseNames: ["active", "inactive", "archived"])], objects: objects)
    }

    static func property(of schema: Schema, type: String, named name: String) -> Property? {
        schema.objectType(named: type)?.property(named: name)
    }

    static func add(_ schema: inout Schema, type: String, _ property: Property) {
        guard let index = schema.objects.firstIndex(where: { $0.name == type }) else { return }
        schema.objects[index].properties.append(property)
    }

    static func rename(_ schema: inout Schema, type: String, from: String, to: String) {
        guard let index = schema.objects.firstIndex(where: { $0.name == type }), let position = schema.objects[index].properties.firstIndex(where: { $0.name == from })
        else { return }
        schema.objects[index].properties[position].name = to
    }

    static func retype(_ schema: inout Schema, type: String, property: String, to newType: PropertyType) {
        guard let index = schema.objects.firstIndex(where: { $0.name == type }),
            let position = schema.objects[index].properties.firstIndex(where: { $0.name == property })
        else { return }
        schema.objects[index].properties[position].kind = .stored(newType)
    }
}
