import Foundation
import RemodelCore
import XCTest

@testable import RemodelStore

final class QueryTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var store: RemodelStore!

    override func setUpWithError() throws {
        folder = TemporaryFolder()
        store = try makeStore(folder)
        try store.write { tx in
            try tx.insert(
                Sample(
                    id: 1, flag: true, large: 10, double: 1.5, text: "apple pie", date: Date(timeIntervalSince1970: 100), unit: .engineering, priority: .low, maybeInt: 1,
                    maybeText: "x", tags: ["a"], scores: [1, 2]))
            try tx.insert(
                Sample(
                    id: 2, flag: false, large: 20, double: 2.5, text: "banana", date: Date(timeIntervalSince1970: 200), unit: .customerEngineering, priority: nil, maybeInt: nil,
                    tags: [], scores: [2]))
            try tx.insert(
                Sample(
                    id: 3, flag: true, large: 30, double: -1, text: "apricot", date: Date(timeIntervalSince1970: 300), unit: .engineering, priority: .high, maybeInt: 3,
                    maybeText: "pie", tags: ["b", "c"]))
        }
    }

    private func ids(_ filter: Filter<Sample>) throws -> [Int] {
        try store.read { try $0.objects(Sample.self).filter(filter).sorted(by: Sample.Columns.id).fetchAll().map(\.id) }
    }

    func testComparisons() throws {
        XCTAssertEqual(try ids(Sample.Columns.large == 20), [2])
        XCTAssertEqual(try ids(Sample.Columns.large != 20), [1, 3])
        XCTAssertEqual(try ids(Sample.Columns.large < 20), [1])
        XCTAssertEqual(try ids(Sample.Columns.large <= 20), [1, 2])
        XCTAssertEqual(try ids(Sample.Columns.large > 20), [3])
        XCTAssertEqual(try ids(Sample.Columns.large >= 20), [2, 3])
        XCTAssertEqual(try ids(Sample.Columns.double < 0), [3])
        XCTAssertEqual(try ids(Sample.Columns.flag == true), [1, 3])
        XCTAssertEqual(try ids(Sample.Columns.date > Date(timeIntervalSince1970: 150)), [2, 3])
        XCTAssertEqual(try ids(Sample.Columns.unit == .customerEngineering), [2])
        XCTAssertEqual(try ids(Sample.Columns.priority == .high), [3])
    }

    func testInStringsAndNulls() throws {
        XCTAssertEqual(try ids(Sample.Columns.id.in([1, 3, 99])), [1, 3])
        XCTAssertEqual(try ids(Sample.Columns.id.in([])), [])
        XCTAssertEqual(try ids(Sample.Columns.text.contains("an")), [2])
        XCTAssertEqual(try ids(Sample.Columns.text.hasPrefix("ap")), [1, 3])
        XCTAssertEqual(try ids(Sample.Columns.text.hasPrefix("pie")), [])
        XCTAssertEqual(try ids(Sample.Columns.maybeText.contains("pie")), [3])
        XCTAssertEqual(try ids(Sample.Columns.maybeInt.isNil), [2])
        XCTAssertEqual(try ids(Sample.Columns.maybeInt == nil), [2])
        XCTAssertEqual(try ids(Sample.Columns.maybeInt != nil), [1, 3])
        XCTAssertEqual(try ids(Sample.Columns.priority.isNil), [2])
    }

    func testBooleanCombinationsAndCollections() throws {
        XCTAssertEqual(try ids(Sample.Columns.flag == true && Sample.Columns.large > 10), [3])
        XCTAssertEqual(try ids(Sample.Columns.large == 10 || Sample.Columns.large == 30), [1, 3])
        XCTAssertEqual(try ids(!(Sample.Columns.large == 10)), [2, 3])
        XCTAssertEqual(try ids(Sample.Columns.tags.isEmpty), [2])
        XCTAssertEqual(try ids(Sample.Columns.tags.isEmpty == false), [1, 3])
        XCTAssertEqual(try ids(Sample.Columns.scores.contains(2)), [1, 2])
        XCTAssertEqual(try ids(Sample.Columns.tags.contains("c")), [3])
        XCTAssertEqual(try ids(.all), [1, 2, 3])
        // The closure form reads like the models.
        let closure = try store.read { try $0.objects(Sample.self).filter { $0.text.hasPrefix("ap") && $0.tags.isEmpty == false }.count() }
        XCTAssertEqual(closure, 2)
    }

    func testSortLimitOffsetCount() throws {
        let sorted = try store.read { try $0.objects(Sample.self).sorted(by: Sample.Columns.double.descending).fetchAll().map(\.id) }
        XCTAssertEqual(sorted, [2, 1, 3])
        let multi = try store.read { try $0.objects(Sample.self).sorted(by: Sample.Columns.unit.ascending, Sample.Columns.id.descending).fetchAll().map(\.id) }
        XCTAssertEqual(multi, [2, 3, 1])
        let window = try store.read { try $0.objects(Sample.self).sorted(by: Sample.Columns.id).limit(1, offset: 1).fetchAll().map(\.id) }
        XCTAssertEqual(window, [2])
        XCTAssertEqual(try store.read { try $0.objects(Sample.self).limit(2).count() }, 2)
        XCTAssertEqual(try store.read { try $0.objects(Sample.self).filter(Sample.Columns.flag == true).count() }, 2)
        XCTAssertEqual(try store.read { try $0.objects(Sample.self).sorted(by: Sample.Columns.large.descending).fetchOne()?.id }, 3)
    }

    func testCursorReadsLazily() throws {
        let seen = try store.read { db -> [Int] in
            let cursor = try db.objects(Sample.self).sorted(by: Sample.Columns.id).cursor()
            var ids: [Int] = []
            while let sample = try cursor.next() { ids.append(sample.id) }
            XCTAssertNil(try cursor.next())
            return ids
        }
        XCTAssertEqual(seen, [1, 2, 3])
    }

    func testNestedCursorsOnTheSameQuery() throws {
        let pairs = try store.read { db -> Int in
            var count = 0
            try db.objects(Sample.self).forEach { _ in
                try db.objects(Sample.self).forEach { _ in count += 1 }
            }
            return count
        }
        XCTAssertEqual(pairs, 9)
    }

    func testDeleteMatching() throws {
        XCTAssertEqual(try store.write { try $0.objects(Sample.self).filter(Sample.Columns.flag == true).deleteAll() }, 2)
        XCTAssertEqual(try ids(.all), [2])
    }

    func testUnknownColumnInFilterIsReported() throws {
        assertStoreError(try ids(Filter(.compare(column: "nope", .equal, .integer(1)))), contains: ["'Sample' has no property 'nope'"])
    }
}
