import RemodelCore
import RemodelMigrate
import RemodelSchema

/// The engine whose locking `remodel check --engine` judges a version by.
public enum CheckEngine: String, Sendable, CaseIterable {
    case sqlite
    case postgresql
}

/// What a version does to a PostgreSQL store that a `remodel migrate` in the default mode (one
/// transaction) makes the app wait for, or breaks for the instances still running the
/// previous version: rewriting a table, scanning it for NOT NULL, building an index, checking a
/// foreign key, renaming what old code reads, computing a value for every object. Each is what
/// `remodel migrate --online` does without blocking; a version that runs in a maintenance
/// window, or on a small table, accepts it (`accept: { locking: { Type.property: why } }`).
enum PostgresRules {
    static func changes(of planned: [PlannedChange], from old: Schema, to new: Schema, renames: SchemaDiff.Renames) -> [(ChangeRules.Change, CheckRule, String)] {
        var found: [(ChangeRules.Change, CheckRule, String)] = []
        func add(_ rule: CheckRule, _ subject: String, _ summary: String, _ declaration: SourceLocation?, _ instead: String) {
            found.append((ChangeRules.Change(kind: .locking, subject: subject, summary: summary, declaration: declaration), rule, instead))
        }
        // The types whose table holds rows already: by their new names, a renamed one too.
        let existed = Set(old.objects.map { renames.types.new(for: $0.name) ?? $0.name })
        for change in planned {
            switch change.subject {
            case .step(_, let step):
                // A step that computes a value of every object from the object: one ALTER
                // TABLE … USING rewrites the table under an ACCESS EXCLUSIVE lock.
                guard change.assignments.contains(where: { !$0.value.isConstant }), let type = step.typeName else { continue }
                let property = step.writtenProperties?.first
                add(
                    CheckRules.postgresTableRewrite, property.map { "\(type).\($0)" } ?? type, change.summary, change.location,
                    "the default mode rewrites every \(type) row in one statement while the app's queries on \(type) wait; `remodel migrate --online` fills the new values in small batches beside the old ones"
                )
            case .schema(let schemaChange):
                if case .propertyRetyped(let type, let property, _, _) = schemaChange.kind, change.assignments.contains(where: { !$0.value.isConstant }) {
                    add(
                        CheckRules.postgresTableRewrite, "\(type).\(property)", change.summary, change.location,
                        "changing the column's type rewrites the table under an ACCESS EXCLUSIVE lock; `remodel migrate --online` writes a new column in batches and swaps it in at --complete"
                    )
                }
            case .plan:
                break
            }
        }
        // What the schemas' difference alone says (the plan carries these out as its own work).
        for schemaChange in SchemaDiff(from: old, to: new, renames: renames).changes {
            let summary = schemaChange.description
            switch schemaChange.kind {
            case .propertyMadeRequired(let type, let property):
                add(
                    CheckRules.postgresNotNullScan, "\(type).\(property)", summary, nil,
                    "SET NOT NULL reads every row while writes wait; `remodel migrate --online` adds a CHECK … NOT VALID, validates it without blocking writes, and sets NOT NULL from it at --complete"
                )
            case .indexAdded(let type, let property) where existed.contains(type):
                add(
                    CheckRules.postgresBlockingIndex, "\(type).\(property)", summary, nil,
                    "CREATE INDEX blocks writes to \(type) until it is built; `remodel migrate --online` builds it CONCURRENTLY")
            case .uniqueAdded(let type, let properties) where existed.contains(type),
                .indexGroupAdded(let type, let properties) where existed.contains(type):
                add(
                    CheckRules.postgresBlockingIndex, "\(type).\(properties.joined(separator: "+"))", summary, nil,
                    "CREATE INDEX blocks writes to \(type) until it is built; `remodel migrate --online` builds it CONCURRENTLY")
            case .propertyAdded(let type, let name) where existed.contains(type):
                guard let property = new.objectType(named: type)?.property(named: name), let stored = property.storedType else { continue }
                if stored.collection == nil, case .object = stored.base {
                    add(
                        CheckRules.postgresValidatingForeignKey, "\(type).\(name)", summary, nil,
                        "adding the foreign key reads every \(type) row while writes to \(type) and its target wait; `remodel migrate --online` adds it NOT VALID and validates it without blocking writes"
                    )
                }
                if case .generated(let generated)? = property.defaultValue, generated != .now {
                    add(
                        CheckRules.postgresVolatileDefault, "\(type).\(name)", summary, nil,
                        "a default made fresh for each object (\(generated.rawValue)) is computed for every existing row in the migration's one transaction; `remodel migrate --online` fills it in batches"
                    )
                }
            case .propertyRenamed(let type, let from, _):
                add(
                    CheckRules.postgresRename, "\(type).\(from)", summary, nil,
                    "instances of the previous version still read '\(from)' until they are replaced, and fail once it is renamed; `remodel migrate --online` gives each version its own name until --complete"
                )
            case .objectRenamed(let from, _):
                add(
                    CheckRules.postgresRename, from, summary, nil,
                    "instances of the previous version still read the table '\(from)' until they are replaced, and fail once it is renamed; `remodel migrate --online` gives each version its own name until --complete"
                )
            default:
                break
            }
        }
        return found
    }
}
