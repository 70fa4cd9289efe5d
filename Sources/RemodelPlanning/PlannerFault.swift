/// Faults the planner once had, brought back on request by the tests that prove a checker
/// (`remodel test`'s comparison and conformance checks) would catch them. Nothing but those
/// tests sets them.
package enum PlannerFault: Hashable, Sendable {
    /// Values of enum cases a version removes were not checked (nor was the migrated data
    /// against the new schema, the phase that fix added): they stayed in the store, where
    /// the newest schema has no case for them.
    case removedEnumCasesUnchecked
}
