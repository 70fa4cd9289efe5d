import Foundation
import RemodelCore
import RemodelStore
import XCTest

/// Values SQLite would not keep as written (NaN becomes NULL) and dates beyond the supported
/// range are refused by the generated-code bridge and the dynamic API with a `StoreError`
/// naming the property — never a trap, a raw SQLite error, or a silently different value.
final class HardeningValuesTests: XCTestCase {
    func testANaNDoubleIsAStoreErrorNamingTheProperty() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let before = fileBytes(folder.file("store.db"))
        assertStoreError(
            try store.write { tx in try tx.insert(Sample(id: 1, double: .nan)) },
            contains: ["cannot write Sample.double", "NaN cannot be stored: SQLite stores NaN as NULL"])
        assertStoreError(try store.write { tx in try tx.insert(Sample(id: 2, single: .nan)) }, contains: ["cannot write Sample.single", "NaN"])
        XCTAssertEqual(try store.read { try $0.count(Sample.self) }, 0)
        XCTAssertEqual(fileBytes(folder.file("store.db")), before)
    }

    func testADateBeyondTheSupportedRangeIsAStoreErrorNotATrap() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        for date in [
            Date(timeIntervalSince1970: Date.distantFuture.timeIntervalSince1970 * 1000), Date(timeIntervalSince1970: .infinity),
            Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: -1e300),
        ] {
            assertStoreError(
                try store.write { tx in try tx.insert(Sample(id: 1, date: date)) },
                contains: ["cannot write Sample.date", "out of range", "years -9999 through 9999"])
            assertStoreError(try store.write { tx in try tx.insert(Sample(id: 1, maybeDate: date)) }, contains: ["cannot write Sample.maybeDate"])
            _ = date.storeMicroseconds  // clamped, never a trap
            _ = StoreDateFormat.string(from: date)
        }
        XCTAssertEqual(Date(timeIntervalSince1970: .nan).storeMicroseconds, 0)
        XCTAssertEqual(Date(timeIntervalSince1970: 1e300).storeMicroseconds, ISODateText.supportedRange.upperBound)
        try store.write { tx in try tx.insert(Sample(id: 1, date: .distantFuture, maybeDate: .distantPast)) }
    }

    func testTheDynamicAPIRefusesNaN() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        assertStoreError(
            try store.write { tx in try tx.insert(["id": .integer(1), "double": .real(.nan)], ofType: "Sample") },
            contains: ["cannot write Sample.double", "NaN cannot be stored"])
    }
}
