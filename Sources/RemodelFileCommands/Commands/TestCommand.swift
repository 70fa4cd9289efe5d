import Foundation
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema
import RemodelTesting

/// `remodel test`: every version's data migrated to the newest, before users' devices do it.
package struct TestCommand: Command {
    package let name = "test"
    package let abstract = "Migrate generated data and the app's fixtures of every version to the newest; fail on any data the history cannot migrate."
    package let discussion = """
        For every version of the history, makes objects that exercise its schema, the same for \
        the same --seed: every type and property, boundary values (empty, long, Unicode and \
        combining text, whitespace, zero, negative and extreme numbers, far dates, null where \
        allowed), every enum case, empty and large collections, links with cycles and shared \
        targets, embedded objects, and values aimed at the steps that read them (text that is no \
        number for a convert, no separator for a split, unmapped values for a mapValues, keys \
        that name no object for a value becoming a link). The app's own data, exports kept in \
        MIGRATIONS/fixtures/<version>/NAME.json (`remodel fixture record` writes them), is \
        tested the same way. Each data set is imported into a new store at its version and \
        migrated to the newest version, directly and version by version (generated $uuid and \
        $objectId values seeded, $now fixed); the two results must be equal, and the result \
        must conform to the newest schema and come back unchanged through export and import. \
        A failure names the step (file:line:column), the data set, the type, the property and \
        the value, and for generated data the smallest objects that fail so. Stores are made in \
        a temporary folder and removed. Progress goes to stderr (nothing with --quiet). Exit \
        status: 0 every data set passed, 1 a data set failed (or the history does not load), \
        64 usage error.
        """
    package static let seed = OptionSpec.option("seed", value: "N", default: "1", help: "Makes the generated data; the same seed makes the same data.")
    package static let objects = OptionSpec.option(
        "objects", value: "N", default: "20", help: "The fewest objects generated of each type per version (more when a property has more boundary values).")
    package static let noGenerated = OptionSpec.flag("fixtures-only", help: "Test the fixtures alone, without generated data.")

    package var options: [OptionSpec] {
        [CommonOptions.schemas, CommonOptions.migrations, Self.seed, Self.objects, Self.noGenerated, ProgressReporter.quietOption, CommonOptions.format]
    }

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        let seed = try Self.number(arguments, Self.seed, range: 0...UInt64.max)
        let objects = try Self.number(arguments, Self.objects, range: 1...10_000)
        let format = arguments.diagnosticFormat
        guard let checked = HistoryInput.load(arguments, need: "remodel test migrates data through it") else { return ExitStatus.failure }
        guard let (report, fixtures) = try Self.test(checked.history, sources: checked.sources, seed: seed, objects: Int(objects), arguments) else {
            return ExitStatus.failure
        }
        let diagnostics = report.failures.map(\.diagnostic)
        DiagnosticsOutput.print(diagnostics, format: format)
        if format == .text {
            let objectCount = report.dataSets.reduce(0) { $0 + $1.objects }
            let fixtureCount = fixtures.isEmpty ? "" : "\(ValidateCommand.plural(fixtures.count, "fixture")); "
            let sets =
                "\(ValidateCommand.plural(report.dataSets.count, "data set")) (\(fixtureCount)\(ValidateCommand.plural(objectCount, "object"))) from \(ValidateCommand.plural(report.newestVersion, "version"))"
            if report.passed {
                Console.write("remodel test passed: \(sets), each migrated to version \(report.newestVersion) directly and version by version (seed \(seed))\n")
            } else {
                Console.write("remodel test failed: \(report.failures.count) of \(sets) did not migrate to version \(report.newestVersion) as they should (seed \(seed))\n")
            }
        }
        return report.passed ? ExitStatus.success : ExitStatus.failure
    }

    /// Runs the test on the history with the fixtures of the migrations folder; `nil` when a
    /// fixture cannot be read (its problems printed).
    package static func test(
        _ history: MigrationHistory, sources: HistorySources, seed: UInt64, objects: Int, _ arguments: ParsedArguments
    ) throws -> (report: HistoryTestReport, fixtures: [Fixture])? {
        let format = arguments.diagnosticFormat
        guard MigrationFolder.isDirectory(arguments.migrationsPath) else {
            // Without a history there is nothing to migrate: a mistyped --migrations must not pass.
            Console.writeError(
                "Error: there is no migrations folder at '\(arguments.migrationsPath)', so there is no history to test; pass the folder with --migrations DIR, or create the history with `\(arguments.command("migration new initial"))`\n"
            )
            return nil
        }
        var (fixtures, problems) = Fixture.load(migrations: arguments.migrationsPath)
        for fixture in fixtures where fixture.version > history.currentVersion {
            problems.append(
                Diagnostic(
                    .error, rule: "fixture-version",
                    "'\(fixture.path)' is in the fixtures of version \(fixture.version), which the history does not have (its versions are 1 to \(history.currentVersion))",
                    at: SourceLocation(file: fixture.path, line: 1, column: 1),
                    hint: "move it to the folder of the version the store was at, or record it again with `remodel fixture record --store FILE`"))
        }
        if !problems.isEmpty {
            DiagnosticsOutput.print(problems, format: format)
            return nil
        }
        if arguments.flag(Self.noGenerated) && fixtures.isEmpty {
            Console.writeError(
                "Error: --fixtures-only, but there are no fixtures in '\(Fixture.folder(in: arguments.migrationsPath, version: 1))' or the other versions' folders: nothing to test; record one with `remodel fixture record --store FILE`\n"
            )
            return nil
        }
        var migrator = arguments.tool.migrator(for: history)
        migrator.sources = sources
        var test = HistoryTest(migrator: migrator)
        test.seed = seed
        test.objects = objects
        test.fixtures = fixtures
        test.generates = !arguments.flag(Self.noGenerated)
        let quiet = arguments.flag(ProgressReporter.quietOption) || format != .text
        do {
            let report = try ProgressReporter.run(finished: "tested", quiet: quiet) { progress in
                try test.run { done, total, name in
                    progress.update(verb: "testing", unit: "data sets", done: done, total: total, detail: name)
                }
            }
            return (report, fixtures)
        } catch let error as MigrationPlanningError {
            // A history that loads but cannot be run by this program: a custom step's closure.
            DiagnosticsOutput.print(error.diagnostics, format: format)
            Console.writeError(
                "Error: remodel test runs the history as `remodel migrate` does, and cannot plan it (above); a custom step runs in a tool of your app's own (RemodelCommandLine, with the step registered), or in your tests with RemodelTesting's HistoryTest\n"
            )
            return nil
        }
    }

    /// A whole-number option in `range`, or a usage error naming the option.
    package static func number(_ arguments: ParsedArguments, _ option: OptionSpec, range: ClosedRange<UInt64>) throws -> UInt64 {
        let text = arguments.value(option) ?? option.defaultValue ?? ""
        guard let number = UInt64(text), range.contains(number) else {
            throw UsageError("--\(option.name) needs a whole number from \(range.lowerBound) to \(range.upperBound), found '\(text)'")
        }
        return number
    }
}
