import Foundation
import RemodelCore
import RemodelFileCommands
import RemodelMigrate

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
    /// The custom steps `migrate` (and `status`, `test`) can run.
    var settings = ToolSettings()

    public init() {}

    /// Makes the closure available to migrations whose files name it in a `custom` step, as
    /// `Migrator.register` does in an app.
    public mutating func register(_ name: String, _ step: @escaping CustomStep) {
        settings.customSteps[name] = step
    }

    /// Runs the tool on `arguments` (without the program name; default: this process's) and
    /// returns its exit status: 0 success, 1 the input is wrong, 64 usage error.
    public func run(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Int32 {
        CommandLineTool.main(arguments, settings: settings, commands: Commands.all)
    }

    /// Runs the tool on this process's arguments and exits with its status.
    public func main() -> Never {
        exit(run())
    }
}
