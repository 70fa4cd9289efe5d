import CFuzzerDriver
import Foundation
import RemodelFuzzTargets

// `remodel-fuzz TARGET …` feeds arbitrary bytes to one of Remodel's readers (see
// FuzzTarget). Two builds:
//
//   swift build -c release --product remodel-fuzz
//       a seeded random-mutation driver: `remodel-fuzz TARGET [--seconds N] [--seed N]
//       [--corpus DIR]… [--crash FILE]`; it mutates the corpus files and keeps the input
//       that crashed in FILE (written by a signal handler before the process dies).
//   swift build -c release --product remodel-fuzz --scratch-path .build/fuzz \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DREMODEL_LIBFUZZER -Xswiftc -use-ld=lld
//       libFuzzer (coverage-guided): `remodel-fuzz TARGET [libFuzzer options] [CORPUS…]`.
//
// Fuzz/run.sh runs each target for a given time with either build.

let usage = """
    usage: remodel-fuzz TARGET [options]

    Targets:
    \(FuzzTarget.allCases.map { "  \($0.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))\($0.abstract)" }.joined(separator: "\n"))

    Options (the mutation driver; a -DREMODEL_LIBFUZZER build takes libFuzzer's options):
      --seconds N     run for N seconds (default 60)
      --seed N        the random seed (default: from the clock; printed)
      --corpus DIR    seed inputs (repeatable; default Fuzz/corpus/TARGET)
      --crash FILE    where the crashing input is written (default ./crash-TARGET)
      --replay FILE   run FILE once, unchanged, and stop (repeatable)
      --dict FILE     tokens to splice in (default Fuzz/remodel.dict, libFuzzer's format)
    """

var arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
    FileHandle.standardError.write(
        Data(((CommandLine.arguments.dropFirst().first.map { ["-h", "--help"].contains($0) } ?? false) ? usage : "remodel-fuzz: name a target\n\n" + usage).utf8 + [10]))
    exit(CommandLine.arguments.dropFirst().first.map { ["-h", "--help"].contains($0) } ?? false ? 0 : 64)
}

#if REMODEL_LIBFUZZER
    nonisolated(unsafe) var selected = target
    arguments.remove(at: 1)
    var argc = Int32(arguments.count)
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let status = cArguments.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var argv = buffer.baseAddress
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            selected.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        }
    }
    exit(status)
#else
    exit(MutationDriver(target: target, arguments: Array(arguments.dropFirst(2))).run())
#endif
