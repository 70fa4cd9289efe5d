import Foundation
import RemodelTestSupport
import XCTest

/// The progress of `import`, `export` and `migrate` through the real binary: under a
/// pseudo-terminal (util-linux `script`) a bar rewritten in place on stderr; with stderr in a
/// file, plain lines; with `--quiet`, nothing. Standard output carries the results only, and
/// on one terminal the plan, the bar and the report never interleave.
final class ProgressTests: CLIFolderTestCase {
    override var commandDirectory: URL { CLIRunner.packageRoot }

    /// Persons (and as many Dogs) in the generated store: enough for the bar to move.
    private static let people = 20_000
    /// The objects of the generated document: the Persons, their Dogs and one Note.
    private static let objects = "40,001"

    /// What a command run under a pseudo-terminal wrote.
    private struct TerminalRun {
        /// What reached the terminal, `\r\n` (the terminal's end of line) read as `\n`, without
        /// the lines `script` adds.
        var transcript: String
        /// Standard output, when it went to a file.
        var stdout: String
    }

    /// Runs `remodel arguments…` with standard error on a pseudo-terminal 100 columns wide,
    /// standard output in a file (or on the terminal too, with `stdoutToFile: false`), and
    /// checks its exit status.
    private func remodelOnATerminal(
        _ arguments: [String], stdoutToFile: Bool = true, stdoutPath: String? = nil, expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line
    ) throws -> TerminalRun {
        let script = "/usr/bin/script"
        guard FileManager.default.isExecutableFile(atPath: script) else { throw XCTSkip("needs script(1) (util-linux) for a pseudo-terminal") }
        let stdoutFile = stdoutPath ?? path("stdout-\(UUID().uuidString).txt")
        let transcriptFile = path("transcript-\(UUID().uuidString).txt")
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command =
            (["env", "-u", "NO_COLOR", "TERM=xterm", "COLUMNS=100", try CLIRunner.executable().path] + arguments).map(quoted).joined(separator: " ")
            + (stdoutToFile ? " >" + quoted(stdoutFile) : "")
        // -e: script exits with the command's status; -f: the transcript is written as it goes.
        let run = try CLIRunner.runProgram(script, ["-qfec", command, transcriptFile], in: CLIRunner.packageRoot, file: file, line: line)
        let raw = try String(contentsOfFile: transcriptFile, encoding: .utf8)
        let transcript = raw.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Script started on ") && !$0.hasPrefix("Script done on ") }.joined(separator: "\n")
        let stdout = stdoutToFile && stdoutPath == nil ? try String(contentsOfFile: stdoutFile, encoding: .utf8) : ""
        XCTAssertEqual(run.status, status, "remodel \(arguments.joined(separator: " "))\nterminal: \(transcript)\nstdout: \(stdout)\nscript: \(run.stderr)", file: file, line: line)
        return TerminalRun(transcript: transcript, stdout: stdout)
    }

    /// The states a terminal line was drawn in: what follows each carriage return, up to the
    /// erase-to-end-of-line that ends each drawing.
    private func drawings(_ transcript: String) -> [String] {
        transcript.split(separator: "\r").compactMap { part in
            part.range(of: "\u{1B}[K").map { String(part[..<$0.lowerBound]) }
        }
    }

    /// Checks that `text` holds nothing of a progress display.
    private func assertNoProgress(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for mark in ["\r", "\u{1B}", "█", "░", "statements ·", "objects ·", "left"] {
            XCTAssertFalse(text.contains(mark), "\(what) holds \(mark.debugDescription):\n\(text)", file: file, line: line)
        }
    }

    /// Checks drawings: the first of `stage` at 0 done, one with a rate, and the last the
    /// final state: `finished` with every unit done and how long it took.
    private func assertBar(_ drawings: [String], stages: [String], finished: String, total: String, unit: String, file: StaticString = #filePath, line: UInt = #line) {
        let context = drawings.joined(separator: "\n")
        for stage in stages {
            XCTAssertTrue(
                drawings.contains { $0.hasPrefix("\(stage) ░") && $0.contains(" 0/\(total) \(unit) · —/s · — left") }, "no first state of \(stage):\n\(context)", file: file,
                line: line)
        }
        // A rate: a number of units a second, once some are done.
        XCTAssertTrue(
            drawings.contains { $0.range(of: #" [1-9][0-9,]*/\#(total) \#(unit) · [0-9][0-9,.]*/s · "#, options: .regularExpression) != nil },
            "no state with units done and a rate:\n\(context)", file: file, line: line)
        let last = drawings.last ?? ""
        XCTAssertNotNil(
            last.range(of: #"^\#(finished) █+ \#(total)/\#(total) \#(unit) · [0-9][0-9,.]*/s · in [0-9.]+s$"#, options: .regularExpression), "the final state: \(last)", file: file,
            line: line)
        for drawing in drawings {
            XCTAssertLessThanOrEqual(drawing.count, 99, "wider than the terminal: \(drawing)", file: file, line: line)
        }
    }

    /// A v1 store of the generated document, imported under the terminal (which shows its
    /// bar: objects checked, then imported).
    private func makeStore(_ store: String) throws {
        let data = try write(Self.generatedV1(people: Self.people), to: "v1.json")
        let run = try remodelOnATerminal(["import", "--store", store, "--version", "1", data])
        assertBar(drawings(run.transcript), stages: ["checking", "importing"], finished: "imported", total: Self.objects, unit: "objects")
        // Reading DATA.json is the first stage, counted in bytes.
        XCTAssertTrue(drawings(run.transcript).first?.hasPrefix("reading ░") == true, run.transcript)
        XCTAssertTrue(drawings(run.transcript).contains { $0.hasPrefix("reading ") && $0.contains(" bytes · ") && $0.contains("v1.json") }, run.transcript)
        XCTAssertTrue(run.stdout.hasPrefix("Imported \(Self.people) Person, \(Self.people) Dog, 1 Note into "), run.stdout)
        assertNoProgress(run.stdout, "stdout")
    }

    func testOnATerminalImportMigrateAndExportDrawABarOnStderrAndKeepStdoutClean() throws {
        let store = path("big.db")
        try makeStore(store)

        let migrated = try remodelOnATerminal(["migrate", "--store", store])
        let statements = try XCTUnwrap(migrated.transcript.firstMatch(of: #/ 0/([0-9]+) statements/#)?.1, "no first state:\n\(migrated.transcript)")
        assertBar(drawings(migrated.transcript), stages: ["migrating"], finished: "migrated", total: String(statements), unit: "statements")
        XCTAssertTrue(drawings(migrated.transcript).contains { $0.contains(" · version 2: ") }, "no state names what runs:\n\(migrated.transcript)")
        // The plan, the backup's name and the report are on stdout, and nothing of the bar.
        XCTAssertTrue(migrated.stdout.hasPrefix("Plan: migrate '\(store)' from version 1 to 3"), migrated.stdout)
        XCTAssertTrue(migrated.stdout.contains("\nBackup: \(store).v1-backup-"), migrated.stdout)
        XCTAssertTrue(migrated.stdout.contains("Migrated '\(store)' from version 1 to 3"), migrated.stdout)
        XCTAssertTrue(migrated.stdout.contains("  Person  \(Self.people) → \(Self.people)\n"), migrated.stdout)
        assertNoProgress(migrated.stdout, "stdout")
        // Standard error holds the bar and nothing else, and ends with the final state's line.
        XCTAssertFalse(migrated.transcript.contains("Plan:"), migrated.transcript)
        XCTAssertEqual(migrated.transcript.components(separatedBy: "\u{1B}[K").last?.trimmingCharacters(in: .newlines), "", migrated.transcript)

        let exported = try remodelOnATerminal(["export", "--store", store])
        assertBar(drawings(exported.transcript), stages: ["reading", "writing"], finished: "exported", total: Self.objects, unit: "objects")
        assertNoProgress(exported.stdout, "stdout")
        XCTAssertEqual(exported.stdout, try remodel(["export", "--store", store]).stdout, "the export under a terminal differs")
    }

    /// An export whose JSON cannot be written (standard output on a full disk) ends with the
    /// error, never with a final state saying it exported: the line is cleared before the
    /// JSON is written and the final state drawn only after.
    func testAnExportThatCannotWriteItsJSONDoesNotSayItExported() throws {
        let store = path("full.db")
        try makeStore(store)
        let failed = try remodelOnATerminal(["export", "--store", store], stdoutPath: "/dev/full", expect: 1)
        XCTAssertTrue(failed.transcript.contains("Error: cannot write to standard output"), failed.transcript)
        XCTAssertTrue(failed.transcript.contains("the store is unchanged"), failed.transcript)
        XCTAssertFalse(failed.transcript.contains("exported "), "a final state after a failed write:\n\(failed.transcript)")
        XCTAssertTrue(drawings(failed.transcript).contains { $0.hasPrefix("writing ") }, "no bar before the write:\n\(failed.transcript)")
    }

    /// With stdout and stderr on one terminal, the plan is printed whole before the bar, the
    /// bar ends on a line of its own, and the report follows it.
    func testThePlanTheBarAndTheReportNeverInterleave() throws {
        let store = path("big.db")
        try makeStore(store)
        let run = try remodelOnATerminal(["migrate", "--store", store, "--no-backup"], stdoutToFile: false)
        let text = run.transcript
        let barStart = try XCTUnwrap(text.range(of: "\rmigrating "), text)
        let barEnd = try XCTUnwrap(text.range(of: "\rmigrated ", options: .backwards), text)
        let finalLine = try XCTUnwrap(text.range(of: "\n", range: barEnd.upperBound..<text.endIndex), text)
        let before = text[..<barStart.lowerBound]
        let bar = text[barStart.lowerBound..<finalLine.upperBound]
        let after = text[finalLine.upperBound...]
        XCTAssertTrue(before.hasPrefix("Plan: migrate '\(store)' from version 1 to 3"), String(before))
        XCTAssertTrue(before.hasSuffix("\n\n"), "the plan is not complete before the bar: \(before.suffix(200))")
        XCTAssertTrue(after.hasPrefix("Migrated '\(store)' from version 1 to 3"), String(after))
        assertNoProgress(String(after), "the report")
        assertNoProgress(String(before), "the plan")
        // Between the first drawing and the end of the final one, nothing but drawings.
        for part in bar.split(separator: "\r") {
            XCTAssertTrue(part.hasPrefix("migrating ") || part.hasPrefix("migrated "), "not a drawing of the bar: \(part.debugDescription)")
            XCTAssertTrue(part.hasSuffix("\u{1B}[K") || part.hasSuffix("\u{1B}[K\n"), "a drawing that does not end the line: \(part.debugDescription)")
        }
    }

    func testQuietPrintsNoProgressAndNoNotes() throws {
        let store = path("quiet.db")
        let data = try write(Self.generatedV1(people: 2_000), to: "v1.json")
        let imported = try remodelOnATerminal(["import", "--store", store, "--version", "1", "--quiet", data])
        XCTAssertEqual(imported.transcript.trimmingCharacters(in: .whitespacesAndNewlines), "", "the terminal: \(imported.transcript.debugDescription)")
        XCTAssertTrue(imported.stdout.hasPrefix("Imported 2000 Person"), imported.stdout)

        let migrated = try remodelOnATerminal(["migrate", "--store", store, "-q"])
        XCTAssertEqual(migrated.transcript.trimmingCharacters(in: .whitespacesAndNewlines), "", "the terminal: \(migrated.transcript.debugDescription)")
        // The plan and report stay (results); the note naming the backup goes, the report
        // still names it.
        XCTAssertTrue(migrated.stdout.hasPrefix("Plan: migrate '\(store)' from version 1 to 3"), migrated.stdout)
        XCTAssertFalse(migrated.stdout.contains("\nBackup: "), migrated.stdout)
        XCTAssertTrue(migrated.stdout.contains("Backup of version 1: \(store).v1-backup-"), migrated.stdout)

        let exported = try remodelOnATerminal(["export", "--store", store, "--quiet", "--output", path("out.json")])
        XCTAssertEqual(exported.transcript.trimmingCharacters(in: .whitespacesAndNewlines), "", "the terminal: \(exported.transcript.debugDescription)")
        XCTAssertTrue(try String(contentsOfFile: path("out.json"), encoding: .utf8).hasPrefix("{\n  \"Person\": ["))

        // Errors are still printed.
        let failed = try remodelOnATerminal(["import", "--store", store, "--quiet", data], expect: 1)
        XCTAssertTrue(failed.transcript.contains("Error: "), failed.transcript)
        assertNoProgress(failed.transcript, "the terminal")
    }

    /// With stderr in a file: plain lines, no escape codes; work over within a second makes
    /// no line but its summary (the lines while a long stage runs: ProgressReporterTests).
    func testWithoutATerminalProgressIsPlainLines() throws {
        let store = path("plain.db")
        let data = try write(Self.generatedV1(people: 2_000), to: "v1.json")
        let imported = try remodel(["import", "--store", store, "--version", "1", data])
        let migrated = try remodel(["migrate", "--store", store, "--no-backup"])
        let exported = try remodel(["export", "--store", store, "--output", path("out.json")])
        for (output, expected) in [
            (imported, #"^(.*\n)*imported 4,001/4,001 objects in [0-9.]+s \([0-9,.]+/s\)\n$"#),
            (migrated, #"^(.*\n)*migrated ([0-9]+)/\2 statements in [0-9.]+s \([0-9,.]+/s\)\n$"#),
            (exported, #"^(.*\n)*exported 4,001/4,001 objects in [0-9.]+s \([0-9,.]+/s\)\nExported 2000 Person, 2000 Dog, 1 Note to '[^']+'\n$"#),
        ] {
            XCTAssertNotNil(output.stderr.range(of: expected, options: .regularExpression), output.stderr)
            XCTAssertFalse(output.stderr.contains("\u{1B}") || output.stderr.contains("\r") || output.stderr.contains("█"), output.stderr)
            // Any line before the summary is a stage's, from a stage that ran a second or more.
            for line in output.stderr.split(separator: "\n").dropLast(output.stderr.contains("\nExported ") ? 2 : 1) {
                XCTAssertNotNil(line.range(of: #"^(reading|checking|importing|migrating|writing): "#, options: .regularExpression), "not a progress line: \(line)")
            }
            assertNoProgress(output.stdout, "stdout")
        }
    }

    /// The same bar for a migration on PostgreSQL.
    func testOnATerminalAPostgreSQLImportAndMigrateDrawTheBar() throws {
        let server = try PostgresTestServer.shared { XCTSkip($0) }
        let url = server.url(database: try server.makeDatabase()) + "?schema=progress"
        try makeStore(url)
        let migrated = try remodelOnATerminal(["migrate", "--store", url])
        let statements = try XCTUnwrap(migrated.transcript.firstMatch(of: #/ 0/([0-9]+) statements/#)?.1, "no first state:\n\(migrated.transcript)")
        assertBar(drawings(migrated.transcript), stages: ["migrating"], finished: "migrated", total: String(statements), unit: "statements")
        XCTAssertTrue(migrated.stdout.hasPrefix("Plan: migrate 'postgresql://"), migrated.stdout)
        XCTAssertTrue(migrated.stdout.contains("\nNo backup: "), migrated.stdout)
        XCTAssertTrue(migrated.stdout.contains("  Person  \(Self.people) → \(Self.people)\n"), migrated.stdout)
        assertNoProgress(migrated.stdout, "stdout")
        let exported = try remodelOnATerminal(["export", "--store", url])
        assertBar(drawings(exported.transcript), stages: ["reading", "writing"], finished: "exported", total: Self.objects, unit: "objects")
        assertNoProgress(exported.stdout, "stdout")
    }
}
