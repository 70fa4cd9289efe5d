import RemodelCheck
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema

/// `remodel check`: the CI gate.
package struct CheckCommand: Command {
    package let name = "check"
    package let abstract = "Run every check a pull request must pass: schema, history, remodel.sum, destructive and breaking changes, generated code."
    package var discussion: String {
        """
        In one pass: validation (as `remodel validate`); the schema equal to the newest snapshot \
        (else: the schema changed without a new version, run `remodel migration new NAME`); the \
        history complete; Migrations/remodel.sum matching every migration file and snapshot (an \
        edited or deleted released file, two branches adding the same version); every version \
        plannable as `remodel migrate` would plan it; then the change rules on the versions that \
        are new (the newest version; with --base REF, every version REF does not have): \
        destructive and data-dependent changes, changes that break the generated Swift API, draft \
        questions left open, and acceptances that accept nothing. A migration file accepts an \
        intended change under 'accept:' with the reason, where reviewers read it, e.g. \
        'accept: { destructive: { Person.name: "the split step moves it into firstName and lastName" } }' \
        (keys destructive, data-dependent, breaking; subjects Type, Type.property or Enum.case, as \
        each finding names them).

        Rules (severity unless Migrations/\(CheckConfiguration.fileName) sets 'rules: { ID: error|warning|off }'):
        \(CheckRules.all.map { "  \($0.id) (\($0.defaultSeverity.rawValue)): \($0.summary)" }.joined(separator: "\n"))

        Each finding gives its location, rule ID, severity, what is wrong and how to fix it. \
        --strict makes every warning an error. With --test, also runs `remodel test` (generated \
        data and the fixtures of every version migrated to the newest); its failures are findings \
        on the step they are about. Exit status: 0 passed (warnings allowed unless \
        --strict), 1 errors found, 64 usage error (including a --base REF git cannot read).
        """
    }
    package static let generated = OptionSpec.option(
        "generated", value: "DIR", help: "Also check that the generated Swift in DIR (remodel generate --output DIR, or --bundle DIR) is up to date.")
    package static let strict = OptionSpec.flag("strict", help: "Treat every warning as an error.")
    package static let engine = OptionSpec.option(
        "engine", value: "ENGINE",
        help:
            "sqlite (default) or postgresql: with postgresql, also flag what locks or rewrites a table in the default mode of 'remodel migrate' (postgres-* rules), with what to do instead; accept one with 'accept: { locking: { Type.property: why } }'."
    )
    package static let test = OptionSpec.flag(
        "test", help: "Also run `remodel test`: generated data and the fixtures of every version migrated to the newest (with its --seed, --objects and --fixtures-only).")
    package static let base = OptionSpec.option(
        "base", value: "GIT-REF",
        help: "Judge the versions added since GIT-REF (e.g. origin/main), and fail if a version GIT-REF has was edited. Default: judge the newest version.")
    package let options: [OptionSpec] = [
        CommonOptions.schemas, CommonOptions.migrations, CheckCommand.generated, CheckCommand.base, CheckCommand.strict, CheckCommand.engine, ValidateCommand.realm,
        GenerateCommand.realmClassNames, GenerateCommand.manifestName, CheckCommand.test, TestCommand.seed, TestCommand.objects, TestCommand.noGenerated,
        ProgressReporter.quietOption, CommonOptions.format,
    ]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        let format = arguments.diagnosticFormat
        let project = HistoryInput.read(arguments, requireSchema: true)
        var diagnostics = project.diagnostics
        if let history = project.history, !project.hasErrors {
            diagnostics += HistoryCheck.unregisteredCustomSteps(in: history, registered: arguments.tool.registeredStepNames, sources: project.sources)
        }
        var input = CheckInput(
            schemasPath: arguments.schemasPath, migrationsPath: arguments.migrationsPath, schema: project.schema, loaded: project.loaded,
            history: project.history, sources: project.sources, diagnostics: diagnostics
        )
        input.base = arguments.value(Self.base)
        input.generated = arguments.value(Self.generated)
        input.strict = arguments.flag(Self.strict)
        if let engine = arguments.value(Self.engine) {
            guard let chosen = CheckEngine(rawValue: engine) else {
                throw UsageError("--engine is sqlite or postgresql, found '\(engine)'")
            }
            input.engine = chosen
        }
        input.manifestName = arguments.value(GenerateCommand.manifestName) ?? input.manifestName
        input.realm = arguments.flag(ValidateCommand.realm)
        input.realmClassNames = try GenerateCommand.realmClassNames(arguments)
        let report: CheckReport
        do {
            report = try RepositoryCheck.run(input)
        } catch let failure as GitBase.Failure {
            throw UsageError("--base: \(failure.description)")
        }
        var findings = report.findings
        var passed = report.passed
        var tested = ""
        if arguments.flag(Self.test) {
            let seed = try TestCommand.number(arguments, TestCommand.seed, range: 0...UInt64.max)
            let objects = try TestCommand.number(arguments, TestCommand.objects, range: 1...10_000)
            if let history = project.history, !project.hasErrors {
                // Printed first: the test's progress line goes before the findings.
                guard let (test, _) = try TestCommand.test(history, sources: project.sources, seed: seed, objects: Int(objects), arguments) else {
                    return ExitStatus.failure
                }
                findings += test.failures.map(\.diagnostic)
                passed = passed && test.passed
                tested = test.passed ? ", \(ValidateCommand.plural(test.dataSets.count, "data set")) migrated" : ", remodel test failed"
            } else {
                tested = ", remodel test not run (the history does not load)"
            }
        }
        DiagnosticsOutput.print(findings, format: format)
        if format == .text {
            let judged =
                report.judged.isEmpty
                ? "no new version to judge"
                : report.judged.count == 1
                    ? "version \(report.judged[0]) judged as new"
                    : "versions \(report.judged.first!)–\(report.judged.last!) judged as new"
            let outcome = passed ? "passed" : "failed"
            let problems = findings.isEmpty ? "" : " (\(DiagnosticsOutput.summary(of: findings)))"
            // A squashed history holds its versions from its baseline on.
            let held =
                (project.history?.baseVersion ?? 1) > 1
                ? "versions \(project.history!.baseVersion)–\(report.currentVersion)" : ValidateCommand.plural(report.currentVersion, "version")
            Console.write("remodel check: \(outcome)\(problems): \(held), \(judged)\(tested)\n")
            // Whether the previous release can keep opening stores of each new version (an app
            // rolled back): `OpenOptions(allowNewerCompatibleStore:)`.
            if let history = project.history {
                for version in report.judged where history.schema(at: version) != nil && version > history.baseVersion {
                    Console.write(
                        history.isBackwardReadable(version)
                            ? "version \(version): backward-readable: apps of version \(version - 1) can keep opening its stores (OpenOptions(allowNewerCompatibleStore: true))\n"
                            : "version \(version): not backward-readable: apps of version \(version - 1) cannot open its stores (it does more than add optional properties, collections and types)\n"
                    )
                }
            }
            if !report.levels.isEmpty {
                let set = report.levels.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.rawValue)" }.joined(separator: ", ")
                Console.write("rules set by \(MigrationFolder.join(arguments.migrationsPath, CheckConfiguration.fileName)): \(set)\n")
            }
        }
        return passed ? ExitStatus.success : ExitStatus.failure
    }
}
