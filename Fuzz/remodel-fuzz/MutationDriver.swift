import Foundation
import RemodelFuzzTargets

/// A seeded random-mutation fuzzer for builds without libFuzzer: it picks a corpus input,
/// applies a few byte-level and token-level mutations, and runs the target, for a given time.
/// Not coverage-guided, so it finds less than libFuzzer; reproducible from its seed.
struct MutationDriver {
    let target: FuzzTarget
    var seconds = 60.0
    var seed = UInt64(DispatchTime.now().uptimeNanoseconds)
    var corpora: [String] = []
    var crashPath: String
    /// Files to run once each, unchanged, instead of fuzzing.
    var replays: [String] = []
    var dictionaryPath = "Fuzz/remodel.dict"

    init(target: FuzzTarget, arguments: [String]) {
        self.target = target
        crashPath = "crash-\(target.rawValue)"
        var index = 0
        func value() -> String {
            index += 1
            guard index < arguments.count else { fail("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--seconds": seconds = Double(value()) ?? { fail("--seconds takes a number") }()
            case "--seed": seed = UInt64(value()) ?? { fail("--seed takes a whole number") }()
            case "--corpus": corpora.append(value())
            case "--crash": crashPath = value()
            case "--replay": replays.append(value())
            case "--dict": dictionaryPath = value()
            case let other: fail("unknown option '\(other)'; see remodel-fuzz --help")
            }
            index += 1
        }
        if corpora.isEmpty { corpora = ["Fuzz/corpus/\(target.rawValue)"] }
    }

    func run() -> Int32 {
        if !replays.isEmpty {
            for file in replays {
                guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read '\(file)'") }
                target.run([UInt8](data))
                print("\(file): ran cleanly")
            }
            return 0
        }
        var inputs: [[UInt8]] = []
        for folder in corpora {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { fail("cannot read the corpus folder '\(folder)'") }
            for name in names.sorted() {
                if let data = FileManager.default.contents(atPath: folder + "/" + name) { inputs.append([UInt8](data)) }
            }
        }
        if inputs.isEmpty { inputs = [[]] }
        CrashRecorder.install(path: crashPath)
        print("remodel-fuzz \(target.rawValue): seed \(seed), \(inputs.count) corpus inputs, \(Int(seconds)) s")
        var random = SplitMix64(seed: seed)
        let tokens = MutationDriver.dictionary(at: dictionaryPath)
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1_000_000_000)
        var runs = 0
        var slowest = (nanoseconds: UInt64(0), run: 0)
        var nextReport = start + 10_000_000_000
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline { break }
            if now >= nextReport {
                print("  \(runs) inputs, \(runs * 1_000_000_000 / Int(max(1, now - start))) per second")
                nextReport += 10_000_000_000
            }
            var input = inputs[Int(random.next() % UInt64(inputs.count))]
            for _ in 0...(random.next() % 4) { mutate(&input, &random, tokens: tokens, corpus: inputs) }
            CrashRecorder.current(input)
            let before = DispatchTime.now().uptimeNanoseconds
            target.run(input)
            let took = DispatchTime.now().uptimeNanoseconds - before
            if took > slowest.nanoseconds { slowest = (took, runs) }
            runs += 1
        }
        print("remodel-fuzz \(target.rawValue): \(runs) inputs in \(Int(seconds)) s, no crash; slowest input \(slowest.nanoseconds / 1_000_000) ms")
        return 0
    }

    private func mutate(_ input: inout [UInt8], _ random: inout SplitMix64, tokens: [[UInt8]], corpus: [[UInt8]]) {
        let position = input.isEmpty ? 0 : Int(random.next() % UInt64(input.count + 1))
        switch random.next() % 8 {
        case 0 where !input.isEmpty: input[min(position, input.count - 1)] ^= UInt8(1 << (random.next() % 8))
        case 1: input.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
        case 2 where !input.isEmpty:
            let length = min(input.count - min(position, input.count - 1), Int(random.next() % 16) + 1)
            input.removeSubrange(min(position, input.count - 1)..<(min(position, input.count - 1) + length))
        case 3, 4: input.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))], at: position)
        case 5 where !input.isEmpty:
            // Repeats a chunk (deep nesting, long lists).
            let from = Int(random.next() % UInt64(input.count))
            let chunk = input[from..<min(input.count, from + Int(random.next() % 64) + 1)]
            for _ in 0..<(1 + random.next() % 8) { input.insert(contentsOf: chunk, at: position) }
        case 6:
            // Splices in part of another corpus input.
            let other = corpus[Int(random.next() % UInt64(corpus.count))]
            guard !other.isEmpty else { return }
            let from = Int(random.next() % UInt64(other.count))
            input.insert(contentsOf: other[from..<min(other.count, from + Int(random.next() % 128) + 1)], at: position)
        default:
            if !input.isEmpty { input[min(position, input.count - 1)] = "0123456789-.:eE\" \n{}[]".utf8.randomElement(using: &random)! }
        }
    }
}

extension MutationDriver {
    /// The tokens of a libFuzzer dictionary file: one `"…"` per line (optionally `name=` before
    /// it), with `\\`, `\"` and `\xNN` escapes; `#` starts a comment line.
    static func dictionary(at path: String) -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read the dictionary '\(path)' (--dict FILE)") }
        var tokens: [[UInt8]] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let open = line.firstIndex(of: UInt8(ascii: "\"")), line.first != UInt8(ascii: "#"), line.last == UInt8(ascii: "\""), open < line.count - 1 else { continue }
            var token: [UInt8] = []
            var index = line.index(after: open)
            let end = line.index(before: line.endIndex)
            while index < end {
                var byte = line[index]
                if byte == UInt8(ascii: "\\"), line.index(after: index) < end {
                    index = line.index(after: index)
                    byte = line[index]
                    if byte == UInt8(ascii: "x"), line.distance(from: index, to: end) > 2,
                        let value = UInt8(String(decoding: line[line.index(after: index)...line.index(index, offsetBy: 2)], as: UTF8.self), radix: 16)
                    {
                        byte = value
                        index = line.index(index, offsetBy: 2)
                    }
                }
                token.append(byte)
                index = line.index(after: index)
            }
            tokens.append(token)
        }
        if tokens.isEmpty { fail("the dictionary '\(path)' has no tokens") }
        return tokens
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("remodel-fuzz: \(message)\n".utf8))
    exit(64)
}

/// A small, fast, seedable generator (Vigna's SplitMix64): the same seed gives the same run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
