import Foundation
import RemodelCore
import RemodelRealm
import Testing

/// The value rules the generated Realm migration block calls: the same results as a store's
/// migration for the same values (the SQLite side is tested in RemodelMigrateTests, on the
/// same `StepText` rules).
@Suite struct RealmMigrationValueTests {
    @Test func splitTrimsEachPartAndFillsMissingOnes() {
        #expect(RealmMigrationValue.split("  Grace   Brewster Hopper ", separator: " ", into: 2) == ["Grace", "Brewster Hopper"])
        #expect(RealmMigrationValue.split("Ada", separator: " ", into: 2) == ["Ada", ""])
        #expect(RealmMigrationValue.split(nil, separator: " ", into: 3) == ["", "", ""])
        #expect(RealmMigrationValue.split("a, b, c", separator: ", ", into: 2) == ["a", "b, c"])
    }

    @Test func integersAreWholeDecimalNumbersInRange() {
        #expect(RealmMigrationValue.integer(" 12 ", in: Int64.min...Int64.max) == 12)
        #expect(RealmMigrationValue.integer("-7", in: Int64.min...Int64.max) == -7)
        #expect(RealmMigrationValue.integer("12.5", in: Int64.min...Int64.max) == nil)
        #expect(RealmMigrationValue.integer("n/a", in: Int64.min...Int64.max) == nil)
        #expect(RealmMigrationValue.integer("", in: Int64.min...Int64.max) == nil)
        #expect(RealmMigrationValue.integer("300", in: -128...127) == nil)
        #expect(RealmMigrationValue.integer(4.0, in: Int64.min...Int64.max) == 4)
        #expect(RealmMigrationValue.integer(4.5, in: Int64.min...Int64.max) == nil)
        #expect(RealmMigrationValue.integer(true, in: 0...1) == 1)
        #expect(RealmMigrationValue.integer(Optional<String>.none as Any, in: 0...1) == nil)
        #expect(RealmMigrationValue.integer(NSNull(), in: 0...1) == nil)
    }

    @Test func realsAndBooleans() {
        #expect(RealmMigrationValue.real("1.5", limit: .greatestFiniteMagnitude) == 1.5)
        #expect(RealmMigrationValue.real("-2e10", limit: .greatestFiniteMagnitude) == -2e10)
        #expect(RealmMigrationValue.real("0x10", limit: .greatestFiniteMagnitude) == nil)
        #expect(RealmMigrationValue.real("nan", limit: .greatestFiniteMagnitude) == nil)
        #expect(RealmMigrationValue.real("1e39", limit: Double(Float.greatestFiniteMagnitude)) == nil)
        #expect(RealmMigrationValue.bool(" Yes ") == true)
        #expect(RealmMigrationValue.bool("off") == false)
        #expect(RealmMigrationValue.bool("maybe") == nil)
        #expect(RealmMigrationValue.bool(2) == nil)
    }

    /// What Realm's dynamic API gives on Apple platforms: Objective-C numbers.
    @Test func objectiveCNumbersReadAsTheirSwiftValues() {
        #expect(RealmMigrationValue.text(NSNumber(value: 42)) == "42")
        #expect(RealmMigrationValue.text(NSNumber(value: true)) == "true")
        #expect(RealmMigrationValue.text(NSNumber(value: 1.5)) == "1.5")
        #expect(RealmMigrationValue.integer(NSNumber(value: 7), in: 0...10) == 7)
        #expect(RealmMigrationValue.matches(NSNumber(value: 1), .equals(1)))
        #expect(RealmMigrationValue.matches(Decimal(string: "-1.5")!, .lessThan(Decimal(0))))
    }

    @Test func templatesWriteValuesAsText() {
        #expect(RealmMigrationValue.text("Ada") == "Ada")
        #expect(RealmMigrationValue.text(nil) == "")
        #expect(RealmMigrationValue.text(Optional<Int>.none as Any) == "")
        #expect(RealmMigrationValue.text(Optional(Optional(42)) as Any) == "42")
        #expect(RealmMigrationValue.text(true) == "true")
        #expect(RealmMigrationValue.text(1.5) == "1.5")
        #expect(RealmMigrationValue.text(Int8(-3)) == "-3")
    }

    @Test func mappedValuesKeepRawValuesAndFallBack() {
        let mapping: [String: Any] = ["Eng": "Engineering", "HR": "Human Resources"]
        let kept: [String: Any] = ["Engineering": "Engineering", "Sales": "Sales", "Human Resources": "Human Resources"]
        #expect(RealmMigrationValue.mapped("Eng", mapping, kept: kept, otherwise: "Engineering") as? String == "Engineering")
        #expect(RealmMigrationValue.mapped("Sales", mapping, kept: kept, otherwise: "Engineering") as? String == "Sales")
        #expect(RealmMigrationValue.mapped("Legal", mapping, kept: kept, otherwise: "Engineering") as? String == "Engineering")
        #expect(RealmMigrationValue.mapped(nil, mapping, kept: kept, otherwise: "Engineering") == nil)
        #expect(RealmMigrationValue.mapped(nil, mapping, kept: kept, otherwise: "Engineering", keepsNull: false) as? String == "Engineering")
        #expect(RealmMigrationValue.mapped("2", [:], kept: ["1": 1, "2": 2], otherwise: 1) as? Int == 2, "an int enum's raw value from text")
    }

    @Test func conditionsCompareNumbersTextAndNull() {
        #expect(RealmMigrationValue.matches("", .equals("")))
        #expect(!RealmMigrationValue.matches("x", .equals("")))
        #expect(RealmMigrationValue.matches(nil, .equals(nil)))
        #expect(RealmMigrationValue.matches(Int8(3), .equals(3)))
        #expect(RealmMigrationValue.matches(3, .lessThan(3.5)))
        #expect(!RealmMigrationValue.matches(nil, .lessThan(1)))
        #expect(RealmMigrationValue.matches("b", .greaterThanOrEqual("a")))
        #expect(RealmMigrationValue.matches("Rex", .isIn(["Rex", "Fido"])))
        #expect(RealmMigrationValue.matches(nil, .isNotIn(["Rex"])))
        #expect(RealmMigrationValue.matches("Hello", .startsWith("He")))
        #expect(!RealmMigrationValue.matches(5, .contains("5")))
        #expect(RealmMigrationValue.matches(Date(timeIntervalSince1970: 1), .lessThan(Date(timeIntervalSince1970: 2))))
    }

    @Test func copyReportRefusesCountsThatDiffer() throws {
        var report = RealmCopyReport()
        try report.record("Dog", realm: 2, store: 2)
        #expect(throws: RealmCopyError.countMismatch(type: "Person", realm: 3, store: 2)) { try report.record("Person", realm: 3, store: 2) }
        #expect(report.copied("Dog") == 2)
        #expect(report.total == 2)
        #expect(RealmCopyError.storeNotEmpty(type: "Dog", count: 1).description.contains("new, empty store"))
    }

    @Test func counterReportsEachTypeAndEveryStep() {
        final class Seen: @unchecked Sendable { var events: [RealmCopyProgress] = [] }
        let seen = Seen()
        var counter = RealmCopyCounter(totalOverall: 5, step: 2) { seen.events.append($0) }
        counter.begin("Dog", total: 3)
        for _ in 0..<3 { counter.advance() }
        counter.begin("Person", total: 2)
        for _ in 0..<2 { counter.advance() }
        #expect(
            seen.events.map { "\($0.type) \($0.copied)/\($0.total) \($0.copiedOverall)/\($0.totalOverall)" } == [
                "Dog 0/3 0/5", "Dog 2/3 2/5", "Dog 3/3 3/5", "Person 0/2 3/5", "Person 2/2 5/5",
            ])
        #expect(seen.events.last?.fraction == 1)
    }
}
