import Foundation
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelStore

/// Runs `remodel`: picks the subcommand, answers `help`, `-h/--help` and `--version`, parses
/// the arguments and turns errors into messages and exit statuses.
package enum CommandLineTool {
    /// Runs a tool of `commands` on `arguments` (without the program name) as a process's
    /// main work: a write past the file size limit (`ulimit -f`) then fails with EFBIG, which the
    /// commands report, instead of killing the process without a word; Ctrl-C is reported.
    package static func main(_ arguments: [String], settings: ToolSettings, commands: [any Command]) -> Int32 {
        Console.guardStandardDescriptors()
        signal(SIGXFSZ, SIG_IGN)
        Interruption.install()
        SQLiteLibrary.disableMemoryStatistics()
        ProcessMemory.tuneForBatchWork()
        return run(arguments, tool: settings, commands: commands)
    }

    /// Runs a tool of `commands` on `arguments` (without the program name) and returns the exit status.
    package static func run(_ arguments: [String], tool: ToolSettings = ToolSettings(), commands: [any Command]) -> Int32 {
        var path: [any Command] = [RootCommand(subcommands: commands)]
        var words = arguments[...]
        do {
            if words.first == "help" {
                path = try resolve(Array(words.dropFirst()), from: path, strict: true).path
                Console.write(HelpRenderer(path: path).help)
                return ExitStatus.success
            }
            let resolved = try resolve(Array(words), from: path, strict: false)
            path = resolved.path
            words = resolved.rest[...]
            let beforeSeparator = words.prefix { $0 != "--" }
            if ArgumentParser(command: path.last!).asksForHelp(Array(words)) {
                Console.write(HelpRenderer(path: path).help)
                return ExitStatus.success
            }
            if path.count == 1 {
                if beforeSeparator.contains("--version") {
                    Console.write(RemodelVersion.current + "\n")
                    return ExitStatus.success
                }
                if words.isEmpty {
                    Console.write(HelpRenderer(path: path).help)
                    return ExitStatus.success
                }
            }
            var parsed = try ArgumentParser(command: path.last!).parse(Array(words))
            parsed.tool = tool
            let status = try path.last!.run(parsed)
            return reportingOutputFailure(status)
        } catch let error as UsageError {
            let renderer = HelpRenderer(path: path)
            Console.writeError(
                """
                Error: \(error.message)
                Usage: \(renderer.usage)
                  See '\(renderer.commandName) --help' for more information.

                """)
            return ExitStatus.usage
        } catch let error as ExitError {
            return reportingOutputFailure(error.status)
        } catch {
            Console.writeError("Error: \(Console.message(for: error))\n")
            return ExitStatus.failure
        }
    }

    /// `status`, or failure when standard output could not be written (`> /dev/full`): a
    /// script must not take a report that never arrived for success. What the command did
    /// stays done.
    private static func reportingOutputFailure(_ status: Int32) -> Int32 {
        guard var failure = Console.outputFailure else { return status }
        failure.intact = "what the command did is kept (a migration stays committed, written files stay written)"
        Console.writeError("Error: \(failure)\n")
        return status == ExitStatus.success ? ExitStatus.failure : status
    }

    /// Follows subcommand names from the start of `words`. With `strict`, every word must
    /// name a subcommand (as after `help`); otherwise the first word that is not one stops
    /// the walk, unless the command has subcommands and nothing else to do.
    private static func resolve(_ words: [String], from start: [any Command], strict: Bool) throws -> (path: [any Command], rest: [String]) {
        var path = start
        var index = 0
        while index < words.count {
            let word = words[index]
            let current = path.last!
            if let next = current.subcommands.first(where: { $0.name == word }) {
                path.append(next)
                index += 1
                continue
            }
            if strict || (!current.subcommands.isEmpty && !word.hasPrefix("-")) {
                var message = "unknown command '\(word)'"
                if let suggestion = Suggestion.closest(to: word, in: current.subcommands.map(\.name)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message)
            }
            break
        }
        return (path, Array(words[index...]))
    }
}
