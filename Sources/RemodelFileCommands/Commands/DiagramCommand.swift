import Foundation
import RemodelCore
import RemodelDiagram
import RemodelGeneration

/// `remodel diagram`: the object model, or what changes between two versions, as a drawing.
package struct DiagramCommand: Command {
    package let name = "diagram"
    package let abstract = "Draw the object model, or what a migration changes, as a Mermaid or Graphviz diagram."
    package let discussion = """
        Draws every object type with its properties and their types (PK marks the primary key), \
        embedded types with the types that own them, links as arrows with their multiplicity \
        (0..1 to one object; * for a list, set or map), inverse relationships dashed towards \
        the type whose link they follow, enums with their cases (and raw values where they differ \
        from the names), enum uses dotted, and projections. It draws the schema folder \
        (--schemas), or with --version N the snapshot of version N of the history (--migrations, \
        by default the Migrations folder beside --schemas). With --diff \
        it draws what changes from FROM to TO instead: types, properties and enum cases added \
        (+, green), removed (−, red), renamed (old → new) or retyped (old type → new type), with \
        everything else plain around them. FROM and TO are what 'remodel diff' takes (versions, \
        snapshot or schema files, schema folders; FROM defaults to the newest version, TO to the \
        schema folder); between two versions renames made by migration steps are followed. \
        Projections are not part of a --diff drawing. --format mermaid writes a class diagram \
        that GitHub draws in a ```mermaid block; --format dot writes Graphviz for `dot -Tsvg` or \
        `dot -Tpng`. The same schema gives the same text. With --output the file is written \
        only when its contents change, and an existing file only replaced when it is a diagram \
        (or with --force). Exit status: 0 drawn, 1 a schema or the history does not load or the \
        diagram cannot be written (FILE refused, a full disk), 64 usage error.

        Examples:
          remodel diagram --output Docs/model.mmd
          remodel diagram --version 2 --format dot | dot -Tsvg -o model-v2.svg
          remodel diagram --diff 1 3 --format dot | dot -Tpng -o changes.png
        """
    package let arguments = [
        ArgumentSpec("FROM", help: "With --diff: a version number, a schema file or a schema folder. Default: the newest version.", optional: true),
        ArgumentSpec("TO", help: "With --diff: a version number, a schema file or a schema folder. Default: the schema folder (--schemas).", optional: true),
    ]
    package static let version = OptionSpec.option("version", value: "N", help: "Draw version N of the history (its snapshot in --migrations) instead of the schema folder.")
    package static let diff = OptionSpec.flag("diff", help: "Draw what changes from FROM to TO.")
    package static let format = OptionSpec.option(
        "format", value: "FORMAT", allowed: DiagramFormat.allCases.map(\.rawValue),
        help: "A Mermaid class diagram, or Graphviz DOT. Default: as --output's extension says (.dot or .gv; .mmd), else mermaid."
    )

    /// `--format`, else what `--output`'s extension names, else Mermaid.
    package static func format(_ arguments: ParsedArguments) -> DiagramFormat {
        if let written = arguments.value(format) { return DiagramFormat(rawValue: written) ?? .mermaid }
        let output = arguments.value(Self.output).map { FilePaths.name(of: $0) } ?? ""
        guard let dot = output.lastIndex(of: ".") else { return .mermaid }
        return DiagramFormat(fileExtension: String(output[output.index(after: dot)...])) ?? .mermaid
    }
    package static let output = OptionSpec.option("output", short: "o", value: "FILE", help: "Write the diagram to FILE instead of standard output.")
    package static let force = OptionSpec.flag("force", help: "Replace an existing FILE even when it is not a diagram.")
    package let options: [OptionSpec] = [
        CommonOptions.schemas, CommonOptions.migrations, DiagramCommand.version, DiagramCommand.diff,
        DiagramCommand.format, DiagramCommand.output, DiagramCommand.force,
    ]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        let version = try checkedVersion(arguments)
        let format = Self.format(arguments)
        let file = arguments.value(Self.output).map { path in
            OutputFile(
                path: path,
                existing: arguments.flag(Self.force)
                    ? .replace
                    : .replaceOwn(
                        described: "a diagram remodel drew (its first lines say so)",
                        isOwn: { DiagramFormat.isDiagram(String(decoding: $0, as: UTF8.self)) }),
                advice: "choose another path, or pass --force to replace it", exampleName: "model.\(format.fileExtension)"
            )
        }
        // Refused before anything is loaded: no drawing is wasted on a path it cannot write.
        try file?.check()
        let operands = SchemaOperands(arguments)
        let diagram: Diagram
        if arguments.flag(Self.diff) {
            guard let from = try operands.side(arguments.positional(0), default: .newest),
                let to = try operands.side(arguments.positional(1), default: .schemas)
            else {
                return ExitStatus.failure
            }
            let between = try operands.between(from, to)
            if let note = between.note { Console.writeError("Note: \(note)\n") }
            diagram = Diagram(comparing: from.schema, to: to.schema, renames: between.renames, title: "Changes from \(from.label) to \(to.label)")
        } else {
            guard let side = try operands.side(version.map(String.init), default: .schemas) else { return ExitStatus.failure }
            diagram = Diagram(schema: side.schema)
        }
        let text = format.render(diagram)
        if let file {
            let wrote = try file.writeIfChanged(Data(text.utf8))
            Console.writeError(wrote ? "Wrote '\(file.path)'\n" : "'\(file.path)' is up to date\n")
        } else {
            try Console.writeResult(text, intact: "nothing was changed")
        }
        return ExitStatus.success
    }

    /// The `--version` asked for, after checking what goes with what: FROM and TO only with
    /// --diff, --version not with --diff. (With --version, --schemas only says where the
    /// history is: the Migrations folder beside it, as for every command.)
    private func checkedVersion(_ arguments: ParsedArguments) throws -> Int? {
        let diff = arguments.flag(Self.diff)
        if !diff, let extra = arguments.positional(0) {
            throw UsageError(
                "unexpected argument '\(extra)': FROM and TO go with --diff ('remodel diagram --diff \(arguments.positionals.joined(separator: " "))'), or pass --version N to draw one version"
            )
        }
        guard let text = arguments.value(Self.version) else { return nil }
        if diff {
            throw UsageError("--version and --diff cannot be used together: draw one version with --version N, or the changes between two with --diff FROM TO")
        }
        guard let number = Int(text), number > 0 else { throw UsageError("--version needs a version number (1, 2, …), found '\(text)'") }
        return number
    }
}
