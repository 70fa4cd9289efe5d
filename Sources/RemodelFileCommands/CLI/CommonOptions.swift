import Foundation
import RemodelSchema

/// Options several commands share, declared once so that their names, defaults and help
/// read the same everywhere.
package enum CommonOptions {
    /// `--schemas DIR`: the schema folder (or one file), default `Schemas`.
    package static let schemas = OptionSpec.option(
        "schemas", value: "DIR", default: "Schemas",
        help: "The schema folder (every *.yaml below it) or a single schema file."
    )

    /// `--migrations DIR`: the migration history folder, default the `Migrations` folder
    /// beside the schemas folder (`MigrationFolder.path(besideSchemas:)`).
    package static let migrations = OptionSpec.option(
        "migrations", value: "DIR",
        help:
            "The migrations folder (NNNN-name.yaml steps and snapshots/). Default: the Migrations folder beside the schemas folder (Migrations for Schemas, other/Migrations for other/Schemas)."
    )

    /// `--format text|json|github`: how diagnostics are printed.
    package static let format = OptionSpec.option(
        "format", value: "FORMAT", default: DiagnosticFormat.text.rawValue,
        allowed: DiagnosticFormat.allCases.map(\.rawValue),
        help: "How to print diagnostics: compiler-style text, a JSON array, or GitHub annotations."
    )
}

extension ParsedArguments {
    /// The `--schemas` path as the user wrote it (relative paths stay relative, so that
    /// diagnostics name files the way the user does).
    package var schemasPath: String { value(CommonOptions.schemas) ?? "Schemas" }

    /// The `--migrations` path as the user wrote it, else the `Migrations` folder beside the
    /// schemas folder.
    package var migrationsPath: String { value(CommonOptions.migrations) ?? MigrationFolder.path(besideSchemas: schemasPath) }

    /// `remodel WORDS` as a message suggests running it, with the `--schemas` and
    /// `--migrations` given on this command line, so that it reads the same folders.
    package func command(_ words: String) -> String {
        var command = "remodel " + words
        for option in [CommonOptions.schemas, CommonOptions.migrations] {
            guard let value = values[option.name]?.last else { continue }
            command += " --\(option.name) " + (value.contains(where: \.isWhitespace) || value.isEmpty ? "\"\(value)\"" : value)
        }
        return command
    }

    /// The `--format` value.
    package var diagnosticFormat: DiagnosticFormat {
        value(CommonOptions.format).flatMap(DiagnosticFormat.init(rawValue:)) ?? .text
    }
}

/// Turns paths given on the command line into file URLs, relative to the current directory.
package enum Paths {
    /// The file URL of `path`, resolved against the current directory when relative.
    package static func url(_ path: String) -> URL {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
    }

    /// Whether `path` exists and is a directory.
    package static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url(path).path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
