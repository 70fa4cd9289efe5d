import Foundation
import RemodelGeneration

// The tool the build plugins run (RemodelPlugin and the generate-models command): what
// `remodel generate` does, and nothing else, so that an app's first build compiles only the
// modules generating needs (no store commands, no CI gate, no argument parser of `remodel`).
// The work is `ModelGeneration`'s, shared with `remodel generate`: the same refusals, files
// and messages.
//
//   remodel-generate --schemas DIR --migrations DIR (--bundle DIR | --output DIR [--check])
//                    [--plugin-options FILE]
//
// Exit status: 0 success (or up to date), 1 the input is wrong or (--check) out of date,
// 64 usage error.

let usage = "remodel-generate --schemas DIR --migrations DIR (--bundle DIR | --output DIR [--check]) [--plugin-options FILE]"

/// Prints a usage error as `remodel` does and exits 64 (`EX_USAGE`).
func usageError(_ message: String) -> Never {
    Console.writeError("Error: \(message)\nUsage: \(usage)\n")
    exit(64)
}

var values: [String: String] = [:]
var check = false
var words = CommandLine.arguments.dropFirst()[...]
while let word = words.popFirst() {
    switch word {
    case "-h", "--help":
        Console.write("OVERVIEW: Generate a target's Swift models for the Remodel build plugin (what `remodel generate` does).\n\nUSAGE: \(usage)\n")
        exit(EXIT_SUCCESS)
    case "--check":
        check = true
    case "--schemas", "--migrations", "--bundle", "--output", "--plugin-options":
        guard let value = words.popFirst() else { usageError("missing value for \(word)") }
        values[String(word.dropFirst(2))] = value
    default:
        usageError("unexpected argument '\(word)'")
    }
}
guard let schemas = values["schemas"], let migrations = values["migrations"] else { usageError("missing --schemas DIR or --migrations DIR") }
let destination: ModelGeneration.Destination
switch (values["output"], values["bundle"]) {
case (let output?, nil): destination = .files(output)
case (nil, let bundle?): destination = .bundle(bundle)
default: usageError("give one of --output DIR and --bundle DIR")
}

// A write past the file size limit (`ulimit -f`) then fails with EFBIG, which is reported,
// instead of killing the process without a word (as in `remodel`).
signal(SIGXFSZ, SIG_IGN)
// Cancelled (SIGINT, SIGTERM): the staged files go, the output folder stays as it was.
Interruption.install()
var generation = ModelGeneration(schemasPath: schemas, migrationsPath: migrations, destination: destination)
generation.checkOnly = check
generation.pluginOptions = values["plugin-options"]
do {
    exit(try generation.run() ? EXIT_SUCCESS : EXIT_FAILURE)
} catch {
    Console.writeError("Error: \(Console.message(for: error))\n")
    exit(EXIT_FAILURE)
}
