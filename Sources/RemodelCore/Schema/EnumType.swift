/// An enumeration persisted as its raw value (a string, or an integer with `type: int`).
public struct EnumType: Hashable, Sendable {
    /// How the enum's cases are persisted.
    public enum RawType: String, Hashable, Sendable, CaseIterable {
        case string
        case int
    }

    /// One case: its Swift name and the raw value stored for it.
    public struct Case: Hashable, Sendable {
        public var name: String
        public var rawValue: RawValue

        public init(name: String, rawValue: RawValue) {
            self.name = name
            self.rawValue = rawValue
        }
    }

    /// A persisted raw value.
    public enum RawValue: Hashable, Sendable, CustomStringConvertible {
        case string(String)
        case int(Int64)

        public var description: String {
            switch self {
            case .string(let value): value
            case .int(let value): String(value)
            }
        }
    }

    public var name: String
    public var rawType: RawType
    public var cases: [Case]
    public var renamedFrom: String?
    public var doc: String?

    public init(name: String, rawType: RawType = .string, cases: [Case], renamedFrom: String? = nil, doc: String? = nil) {
        self.name = name
        self.rawType = rawType
        self.cases = cases
        self.renamedFrom = renamedFrom
        self.doc = doc
    }

    /// A string enum from its case names and their raw values (`nil`: each case's own name):
    /// the form generated code writes, whose arrays of literals compile in time and memory
    /// linear in the number of cases.
    public init(name: String, caseNames: [String], rawValues: [String]? = nil, renamedFrom: String? = nil, doc: String? = nil) {
        let values = rawValues ?? caseNames
        precondition(values.count == caseNames.count, "one raw value per case")
        self.init(name: name, cases: zip(caseNames, values).map { Case(name: $0, rawValue: .string($1)) }, renamedFrom: renamedFrom, doc: doc)
    }

    /// An int enum from its case names and their raw values, in the same order.
    public init(name: String, caseNames: [String], intRawValues: [Int64], renamedFrom: String? = nil, doc: String? = nil) {
        precondition(intRawValues.count == caseNames.count, "one raw value per case")
        self.init(name: name, rawType: .int, cases: zip(caseNames, intRawValues).map { Case(name: $0, rawValue: .int($1)) }, renamedFrom: renamedFrom, doc: doc)
    }

    /// The case named `name`, if any.
    public func enumCase(named name: String) -> Case? {
        cases.first { $0.name == name }
    }

    /// The cases of this (older) enum whose stored values `newer` cannot read as they meant:
    /// gone by name, unless a case `newer` adds has their raw value (a case renamed with its
    /// raw value kept reads as the new case). A raw value that a continuing case holds now
    /// (`{ low: 0, normal: 1 }` → `{ normal: 0 }`) would silently read as that case, so such a
    /// case counts as removed. The one rule the planner's checks and the migration draft's
    /// questions share.
    public func casesRemoved(in newer: EnumType) -> [Case] {
        cases.filter { old in
            guard newer.enumCase(named: old.name) == nil else { return false }
            guard let holder = newer.cases.first(where: { $0.rawValue == old.rawValue }) else { return true }
            return enumCase(named: holder.name) != nil
        }
    }
}
