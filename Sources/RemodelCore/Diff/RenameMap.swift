/// Names that continue from one schema version to the next, both ways: each old name maps to
/// at most one new name and each new name to at most one old one. Unchanged names map to
/// themselves.
///
/// One type serves every rename question: the renames a migration declares, the types and
/// properties `SchemaDiff` finds continuing, and the planner's lookups by old or new name.
public struct RenameMap: Hashable, Sendable {
    private var newByOld: [String: String] = [:]
    private var oldByNew: [String: String] = [:]

    public init() {}

    public init(_ pairs: [(old: String, new: String)]) {
        for pair in pairs { insert(old: pair.old, new: pair.new) }
    }

    /// Maps `old` to `new`; returns false, changing nothing, when either is mapped already.
    @discardableResult
    public mutating func insert(old: String, new: String) -> Bool {
        guard newByOld[old] == nil, oldByNew[new] == nil else { return false }
        newByOld[old] = new
        oldByNew[new] = old
        return true
    }

    /// The new name of `old`, if it continues.
    public func new(for old: String) -> String? { newByOld[old] }

    /// The old name of `new`, if it continues one.
    public func old(for new: String) -> String? { oldByNew[new] }

    /// Every pair, sorted by old name.
    public var pairs: [(old: String, new: String)] {
        newByOld.sorted { $0.key < $1.key }.map { (old: $0.key, new: $0.value) }
    }

    /// The pairs whose names differ.
    public var renamed: [(old: String, new: String)] {
        pairs.filter { $0.old != $0.new }
    }

    public var oldNames: Set<String> { Set(newByOld.keys) }
    public var newNames: Set<String> { Set(oldByNew.keys) }

    public var isEmpty: Bool { newByOld.isEmpty }

    /// The same names seen from the new schema back to the old.
    public var reversed: RenameMap {
        var map = RenameMap()
        map.newByOld = oldByNew
        map.oldByNew = newByOld
        return map
    }
}
