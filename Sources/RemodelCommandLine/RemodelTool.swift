import Foundation
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelStore

/// The `remodel` command-line tool as a library: an app whose migrations have custom steps
/// builds a `remodel` of its own that registers them, and runs it exactly like `remodel`
/// (every command, option and message is the same):
///
/// ```swift
/// // Sources/app-remodel/main.swift, an executable target depending on RemodelCommandLine
/// import RemodelCommandLine
///
/// var tool = RemodelTool()
/// tool.register("normalisePhones") { object in
///     if case .text(let phone) = object.new["phone"] { object.new["phone"] = .text(phone.filter(\.isNumber)) }
/// }
/// tool.main()
/// ```
///
/// `swift run app-remodel migrate --store app.db` then runs the migrations the plain tool
/// refuses with `migration-custom-step-unavailable`.
public struct RemodelTool: Sendable {
    /// The custom steps `migrate` (and `status`) can run, by name.
    var customSteps: [String: CustomStep] = [:]

    public init() {}

    /// Makes the closure available to migrations whose files name it in a `custom` step, as
    /// `Migrator.register` does in an app.
    public mutating func register(_ name: String, _ step: @escaping CustomStep) {
        customSteps[name] = step
    }

    /// Runs the tool on `arguments` (without the program name; default: this process's) and
    /// returns its exit status: 0 success, 1 the input is wrong, 64 usage error.
    public func run(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Int32 {
        // A write past the file size limit (`ulimit -f`) then fails with EFBIG, which the
        // commands report, instead of killing the process without a word.
        Console.guardStandardDescriptors()
        signal(SIGXFSZ, SIG_IGN)
        Interruption.install()
        SQLiteLibrary.disableMemoryStatistics()
        ProcessMemory.tuneForBatchWork()
        return CommandLineTool.run(arguments, tool: self)
    }

    /// Runs the tool on this process's arguments and exits with its status.
    public func main() -> Never {
        exit(run())
    }

    /// The names of the custom steps this tool can run.
    var registeredStepNames: Set<String> { Set(customSteps.keys) }

    /// A migrator for `history` with this tool's custom steps registered.
    func migrator(for history: MigrationHistory) -> Migrator {
        var migrator = Migrator(history: history)
        for (name, step) in customSteps { migrator.register(name, step) }
        return migrator
    }
}
