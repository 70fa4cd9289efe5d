import Foundation
import XCTest

/// Runs the real `remodel` executable built next to the test bundle and captures what it
/// prints.
struct CLIRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `remodel` executable: in the products folder that holds the test bundle.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles { candidates.append(bundle.bundleURL.deletingLastPathComponent()) }
        for folder in candidates {
            let url = folder.appendingPathComponent("remodel")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue { return url }
        }
        throw MissingExecutable(searched: candidates.map(\.path))
    }

    /// The tests fail (rather than skip) without the binary, so CI cannot pass by accident.
    struct MissingExecutable: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the remodel executable is not built next to the tests (looked in \(searched.joined(separator: ", "))); run 'swift build' first"
        }
    }

    /// Runs `remodel arguments…` in `directory` and returns its exit status and output.
    /// With `fileSizeLimit` (in 512-byte blocks), no file the process writes may grow past
    /// that size: writes beyond it fail as on a full disk.
    static func run(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:], fileSizeLimit: Int? = nil) throws -> Output {
        try start(arguments, in: directory, environment: environment, fileSizeLimit: fileSizeLimit).wait()
    }

    /// Runs `executable arguments…` (a wrapper around `remodel`: a shell setting a limit,
    /// `setpriv`) in `directory`, its output read from files (no pipe to fill); standard
    /// output goes to the file `stdout` when given. Fails the test when a signal ended it.
    static func runProgram(
        _ executable: String, _ arguments: [String], in directory: URL, stdout: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Output {
        let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-program-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outputs) }
        let outURL = outputs.appendingPathComponent("stdout")
        let errURL = outputs.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = try stdout.map { try XCTUnwrap(FileHandle(forWritingAtPath: $0)) } ?? FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "\(executable) was killed by signal \(process.terminationStatus)", file: file, line: line)
        return Output(status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8), stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    /// A `remodel` process running while the test goes on; its output is read from files,
    /// so that a test can watch it before the process ends.
    final class Running {
        let process = Process()
        private let folder: URL
        private let outURL: URL
        private let errURL: URL

        fileprivate init(_ arguments: [String], in directory: URL, environment: [String: String], fileSizeLimit: Int?) throws {
            if let fileSizeLimit {
                // SIGXFSZ is ignored, so an oversized write returns an error instead of killing.
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit) && exec \"$0\" \"$@\"", try CLIRunner.executable().path] + arguments
            } else {
                process.executableURL = try CLIRunner.executable()
                process.arguments = arguments
            }
            process.currentDirectoryURL = directory
            var processEnvironment = ProcessInfo.processInfo.environment
            processEnvironment.merge(environment) { $1 }
            process.environment = processEnvironment
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            outURL = folder.appendingPathComponent("stdout")
            errURL = folder.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: outURL)
            process.standardError = try FileHandle(forWritingTo: errURL)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// What the process has written to stdout so far.
        var stdoutSoFar: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }

        /// What the process has written to stderr so far (its progress lines, in a file).
        var stderrSoFar: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

        func wait() throws -> Output {
            process.waitUntilExit()
            return Output(
                status: process.terminationStatus,
                stdout: try String(contentsOf: outURL, encoding: .utf8),
                stderr: try String(contentsOf: errURL, encoding: .utf8)
            )
        }
    }

    /// Starts `remodel` with `arguments`; `wait()` for its output.
    static func start(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:], fileSizeLimit: Int? = nil) throws -> Running {
        try Running(arguments, in: directory, environment: environment, fileSizeLimit: fileSizeLimit)
    }

    /// Waits until `condition` holds, checking every 20 ms; fails after `seconds`.
    static func waitUntil(_ what: String, seconds: Double = 60, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw WaitTimeout(description: "gave up after \(seconds) s waiting until \(what)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    struct WaitTimeout: Error, CustomStringConvertible {
        var description: String
    }
}
