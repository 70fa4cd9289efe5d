/// Orders the renames of tables or columns so that none targets a name still in use: a
/// rename waits until its target is free, and a cycle (two names swapped) goes through a
/// temporary name. SQLite compares these names without regard to case, and so does this.
enum RenameOrder {
    /// The renames to run, in order, for `renames` among the `existing` names.
    static func steps(_ renames: [(from: String, to: String)], existing: some Sequence<String>, temporary: (String) -> String) -> [(from: String, to: String)] {
        var inUse = Set(existing.map { $0.lowercased() })
        var pending = renames.filter { $0.from != $0.to }.sorted { $0.from < $1.from }
        var steps: [(from: String, to: String)] = []
        func perform(_ from: String, _ to: String) {
            steps.append((from, to))
            inUse.remove(from.lowercased())
            inUse.insert(to.lowercased())
        }
        while !pending.isEmpty {
            if let index = pending.firstIndex(where: { !inUse.contains($0.to.lowercased()) }) {
                let next = pending.remove(at: index)
                perform(next.from, next.to)
            } else if let index = pending.firstIndex(where: { rename in pending.contains { $0.from.lowercased() == rename.to.lowercased() } }) {
                // Every target is taken, one by another pending rename: a cycle.
                let aside = temporary(pending[index].from)
                perform(pending[index].from, aside)
                pending[index].from = aside
            } else {
                // A target is taken by a name that stays: SQLite will say so.
                steps += pending
                break
            }
        }
        return steps
    }
}
