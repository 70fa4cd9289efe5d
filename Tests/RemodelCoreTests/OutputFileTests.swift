import Foundation
import RemodelCore
import XCTest

/// `OutputFile`: what it refuses, and that a refused or failed write changes nothing and
/// leaves nothing behind.
final class OutputFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-output-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    private func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

    func testTheFolderAndNameOfAPath() {
        let cases: [(path: String, folder: String, name: String)] = [
            ("m", ".", "m"), ("model.mmd", ".", "model.mmd"), ("a/b", "a", "b"), ("a/b/", "a", "b"), ("a//b", "a", "b"),
            ("/m", "/", "m"), ("/", "/", "/"), ("./-", ".", "-"), ("/x/y/z.json", "/x/y", "z.json"),
        ]
        for (path, folder, name) in cases {
            XCTAssertEqual(FilePaths.folder(of: path), folder, path)
            XCTAssertEqual(FilePaths.name(of: path), name, path)
        }
    }

    func testWritesANewFileAndLeavesNoTemporaryFile() throws {
        try OutputFile(path: path("a.txt"), existing: .refuse).write(Data("new".utf8))
        XCTAssertEqual(FileManager.default.contents(atPath: path("a.txt")), Data("new".utf8))
        XCTAssertEqual(try names(), ["a.txt"])
    }

    func testWriteIfChangedLeavesAnEqualFileAlone() throws {
        let file = OutputFile(path: path("a.txt"), existing: .replace)
        XCTAssertTrue(try file.writeIfChanged(Data("one".utf8)))
        let url = URL(fileURLWithPath: path("a.txt"))
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
        XCTAssertFalse(try file.writeIfChanged(Data("one".utf8)))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date, old)
        XCTAssertTrue(try file.writeIfChanged(Data("two".utf8)))
        XCTAssertEqual(FileManager.default.contents(atPath: url.path), Data("two".utf8))
        // The checks come first: an equal file that may not be replaced is still refused.
        XCTAssertThrowsError(try OutputFile(path: path("a.txt"), existing: .refuse).writeIfChanged(Data("two".utf8)))
        XCTAssertEqual(try names(), ["a.txt"])
    }

    func testRefusesAnExistingFileWhenAskedTo() throws {
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path("a.txt")))
        XCTAssertThrowsError(try OutputFile(path: path("a.txt"), existing: .refuse, advice: "pass --force").write(Data("new".utf8))) { error in
            XCTAssertEqual("\(error)", "refusing to replace '\(path("a.txt"))': it already exists; nothing was written: pass --force")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path("a.txt")), Data("mine".utf8))
        XCTAssertEqual(try names(), ["a.txt"])
    }

    func testReplacesOnlyItsOwnFiles() throws {
        let own = OutputFile.Existing.replaceOwn(described: "a test file", isOwn: { $0.starts(with: Data("OWN".utf8)) })
        try Data("OWN old".utf8).write(to: URL(fileURLWithPath: path("own.txt")))
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path("theirs.txt")))
        try OutputFile(path: path("own.txt"), existing: own).write(Data("OWN new".utf8))
        XCTAssertEqual(FileManager.default.contents(atPath: path("own.txt")), Data("OWN new".utf8))
        XCTAssertThrowsError(try OutputFile(path: path("theirs.txt"), existing: own).write(Data("OWN new".utf8))) { error in
            XCTAssertTrue("\(error)".contains("it is not a test file; nothing was written"), "\(error)")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path("theirs.txt")), Data("theirs".utf8))
        XCTAssertEqual(try names(), ["own.txt", "theirs.txt"])
    }

    func testRefusesAProtectedFileByAnyPathOrLink() throws {
        try Data("store".utf8).write(to: URL(fileURLWithPath: path("s.db")))
        try FileManager.default.createSymbolicLink(atPath: path("soft.db"), withDestinationPath: path("s.db"))
        try FileManager.default.linkItem(atPath: path("s.db"), toPath: path("hard.db"))
        let protected = [(identities: FileIdentity.ofDatabase(at: path("s.db")), described: "the store")]
        for name in ["s.db", "soft.db", "hard.db", "./s.db"] {
            let target = folder.path + "/" + name
            XCTAssertThrowsError(try OutputFile(path: target, existing: .replace, protected: protected).write(Data("json".utf8)), name) { error in
                XCTAssertTrue("\(error)".hasPrefix("refusing to write '\(target)': it is the store"), "\(error)")
            }
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path("s.db")), Data("store".utf8))
        XCTAssertEqual(try names(), ["hard.db", "s.db", "soft.db"])
    }

    func testAFolderOrAMissingFolderIsExplained() throws {
        XCTAssertThrowsError(try OutputFile(path: folder.path, existing: .replace).write(Data())) { error in
            XCTAssertTrue("\(error)".contains("it is a folder; name a file"), "\(error)")
        }
        XCTAssertThrowsError(try OutputFile(path: path("missing/a.json"), existing: .replace).write(Data())) { error in
            XCTAssertTrue("\(error)".contains("the folder '\(path("missing"))' does not exist; create it first"), "\(error)")
        }
        XCTAssertEqual(try names(), [])
    }

    func testAStagedFileDiscardedLeavesThePathAsItWas() throws {
        try Data("old".utf8).write(to: URL(fileURLWithPath: path("a.txt")))
        let staged = try OutputFile(path: path("a.txt"), existing: .replace).stage(Data("new".utf8))
        XCTAssertEqual(try names().count, 2, "the staged file is beside its name")
        staged.discard()
        XCTAssertEqual(FileManager.default.contents(atPath: path("a.txt")), Data("old".utf8))
        XCTAssertEqual(try names(), ["a.txt"])
    }

    func testStorageFaultsComeFromErrnoAndFoundationErrors() {
        XCTAssertEqual(StorageFault(errno: ENOSPC), .diskFull)
        XCTAssertEqual(StorageFault(errno: EFBIG), .fileSizeLimit)
        XCTAssertEqual(StorageFault(errno: EDQUOT), .quotaExceeded)
        XCTAssertNil(StorageFault(errno: ENOENT))
        let cocoa = NSError(domain: NSCocoaErrorDomain, code: 640, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        XCTAssertEqual(StorageFault(of: cocoa), .diskFull)
        XCTAssertEqual(StorageFault(of: POSIXError(.EFBIG)), .fileSizeLimit)
        XCTAssertEqual(
            StorageFault.diskFull.message(cannot: "write 'x'", intact: "nothing was written"),
            "cannot write 'x': the disk is full; nothing was written; free some space and run again"
        )
    }
}
