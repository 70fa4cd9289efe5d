/// A key of a step, or of the mapping under `createObjects`' `addTo:`, as migration files
/// spell it. The vocabulary declares step keys with it, the reader records where each is
/// written under it, and the planner blames problems on it: one spelling for all three.
public enum StepKey: String, CaseIterable, Hashable, Sendable {
    case type, property, from, to, value, onError, into, separator, values, otherwise
    case `where`, all, objects, addTo, name, reads, writes, by, keep, orderBy
}

/// A place inside one step: a key, then names under it (a condition's property, an old value
/// of `values:`, a new object's property) or positions (an item of `into:`, `reads:`,
/// `objects:`). Migration problems point at the place, so the reader and the planner must
/// agree on it; as a type, they cannot spell it two ways.
public struct StepField: Hashable, Sendable, CustomStringConvertible {
    /// One level of the path.
    public enum Component: Hashable, Sendable {
        case key(StepKey)
        case name(String)
        case position(Int)
    }

    public private(set) var components: [Component]

    private init(_ components: [Component]) {
        self.components = components
    }

    /// The value of a step's key.
    public static func key(_ key: StepKey) -> StepField { StepField([.key(key)]) }

    /// A key of the mapping under this one (`addTo` → `addTo.where`).
    public func key(_ key: StepKey) -> StepField { StepField(components + [.key(key)]) }

    /// An entry under this one by its name (`where` → `where.owner.name`).
    public func name(_ name: String) -> StepField { StepField(components + [.name(name)]) }

    /// An item of the list under this one, from 0 (`into` → `into.1`).
    public func position(_ index: Int) -> StepField { StepField(components + [.position(index)]) }

    /// The dotted form, as in messages of tests: `addTo.where.name`, `objects.0.weight`.
    public var description: String {
        components.map { component in
            switch component {
            case .key(let key): key.rawValue
            case .name(let name): name
            case .position(let index): String(index)
            }
        }.joined(separator: ".")
    }
}
