import Foundation
import RemodelCore
import Testing

/// Input too large to store or read is refused where it starts, not read whole first.
@Suite struct BoundedInputTests {
    @Test func aStringLongerThanAStoreCanHoldIsRefusedWhereItStarts() throws {
        var fits = JSONParser(#"{"a": "0123456789", "b": "\u00e9\n"}"#, maximumStringBytes: 10)
        #expect(try fits.parse() == .object([("a", .string("0123456789")), ("b", .string("é\n"))]))
        for text in [#"{"a": "0123456789x"}"#, #"{"a": "01234\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"}"#, #"{"a": "012345678\n\n"}"#] {
            var parser = JSONParser(text, maximumStringBytes: 10)
            let error = #expect(throws: JSONSyntaxError.self) { try parser.parse() }
            #expect(error?.line == 1 && error?.column == 7, "\(text): \(String(describing: error))")
            #expect(error?.message.hasPrefix("a string of more than 10 bytes: no store can hold one value that long") == true)
        }
        #expect(JSONParser.maximumStringBytes == 1_000_000_000)
    }

    @Test func aFileIsReadUpToItsLimitAndNoFurther() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-bounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small").path
        try Data(repeating: 65, count: 100).write(to: URL(fileURLWithPath: small))
        #expect(try BoundedFile.read(small, limit: 100).get().count == 100)
        guard case .failure(.tooLarge(let size)) = BoundedFile.read(small, limit: 99) else {
            Issue.record("a file over the limit was read")
            return
        }
        #expect(size == 100)
        // A device that never ends is refused after the limit, its size unknown.
        guard case .failure(.tooLarge(let endless)) = BoundedFile.read("/dev/zero", limit: 1_000) else {
            Issue.record("/dev/zero was read")
            return
        }
        #expect(endless == nil)
        #expect(BoundedFile.describe(size: nil, limit: 5_000_000) == "more than 5 MB")
    }
}
