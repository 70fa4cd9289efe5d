import CSQLite
import Foundation
import RemodelCore
import XCTest

@testable import RemodelStore

/// A fresh temporary folder, removed at the end of the test.
final class TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "remodel-store-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }
}

extension XCTestCase {
    /// A new file-backed store of the test schema.
    func makeStore(_ folder: TemporaryFolder, name: String = "store.db", options: OpenOptions = OpenOptions()) throws -> RemodelStore {
        try RemodelStore(path: folder.file(name), manifest: TestSchemaManifest.self, options: options)
    }

    /// The bytes of a file (and of its -wal file), to prove an error left them unchanged.
    func fileBytes(_ path: String) -> [Data?] {
        [FileManager.default.contents(atPath: path), FileManager.default.contents(atPath: path + "-wal")]
    }

    /// Asserts `body` throws a `StoreError` whose message contains every fragment.
    func assertStoreError<T>(
        _ body: @autoclosure () throws -> T, contains fragments: [String], file: StaticString = #filePath, line: UInt = #line, _ check: (StoreError) -> Bool = { _ in true }
    ) {
        do {
            _ = try body()
            XCTFail("expected an error", file: file, line: line)
        } catch let error as StoreError {
            let message = error.description
            for fragment in fragments {
                XCTAssertTrue(message.contains(fragment), "'\(message)' does not contain '\(fragment)'", file: file, line: line)
            }
            XCTAssertTrue(check(error), "unexpected error case: \(error)", file: file, line: line)
        } catch {
            XCTFail("expected a StoreError, got \(type(of: error)): \(error)", file: file, line: line)
        }
    }

    /// Makes `path` unwritable, even for root (which ignores permissions: then the file is
    /// made immutable with chattr); returns the undo, or skips the test when impossible.
    func makeUnwritable(_ path: String) throws -> () -> Void {
        if getuid() != 0 {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: path)
            return { try? FileManager.default.setAttributes([.posixPermissions: attributes[.posixPermissions] ?? 0o755], ofItemAtPath: path) }
        }
        func chattr(_ flag: String) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            process.arguments = [flag, path]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        guard chattr("+i") else { throw XCTSkip("cannot make \(path) unwritable as root (no chattr)") }
        return { _ = chattr("-i") }
    }

    /// Runs SQL on a separate raw connection.
    func rawSQL(_ path: String, _ sql: String) throws -> [[StoreValue]] {
        let connection = try Connection(path: path, create: true)
        var rows: [[StoreValue]] = []
        for statement in sql.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where !statement.isEmpty {
            rows = try connection.statement(statement).rows()
        }
        return rows
    }
}
