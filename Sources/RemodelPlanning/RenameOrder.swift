/// Orders the renames of tables or columns so that none targets a name still in use: a
/// rename waits until its target is free, and a cycle (two names swapped) goes through a
/// temporary name. SQLite compares these names without regard to case, and so does this.
enum RenameOrder {
    /// One rename to run; `original` is the name the rename it belongs to started from (a
    /// step of a swap starts from the temporary name).
    struct Step {
        var from: String
        var to: String
        var original: String
    }

    /// The renames to run, in order, for `renames` among the `existing` names.
    static func steps(_ renames: [(from: String, to: String)], existing: some Sequence<String>, temporary: (String) -> String) -> [Step] {
        var inUse = Set(existing.map { $0.lowercased() })
        var pending = renames.filter { $0.from != $0.to }.sorted { $0.from < $1.from }.map { Step(from: $0.from, to: $0.to, original: $0.from) }
        var steps: [Step] = []
        func perform(_ step: Step) {
            steps.append(step)
            inUse.remove(step.from.lowercased())
            inUse.insert(step.to.lowercased())
        }
        while !pending.isEmpty {
            if let index = pending.firstIndex(where: { !inUse.contains($0.to.lowercased()) }) {
                perform(pending.remove(at: index))
            } else if let index = pending.firstIndex(where: { rename in pending.contains { $0.from.lowercased() == rename.to.lowercased() } }) {
                // Every target is taken, one by another pending rename: a cycle.
                let aside = temporary(pending[index].from)
                perform(Step(from: pending[index].from, to: aside, original: pending[index].original))
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
