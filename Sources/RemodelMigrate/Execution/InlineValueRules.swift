import RemodelCore
import RemodelStore

/// `split` and text → integer `convert` spelt with SQLite's built-in functions only, as
/// PostgreSQL's plan spells them inline (`PostgresPlanRenderer.splitPart`/`parseInteger`).
///
/// SQLite's plan does not use these: there, the registered Swift functions
/// (`remodel_split_part`, `remodel_parse_integer`) cost less per row than these chains of
/// `trim`/`instr`/`substr`/`GLOB`, each of which SQLite evaluates again for every use of the
/// operand (`remodel-benchmarks value-rules` measures both on the same rows). They are kept
/// as the rules' definition in SQL: the tests check the functions against them input for
/// input, and the benchmark checks it on every row it times.
package enum InlineValueRules {
    /// The whitespace `StepText.trim` removes, as a SQLite expression.
    static let whitespace = "' ' || char(9) || char(10) || char(13)"

    /// The `count` parts of `operand` split at the first `count - 1` occurrences of
    /// `separator`, each trimmed; missing parts are empty. Text holding NUL is outside this
    /// form (SQLite's `substr` stops at NUL where `instr` does not).
    package static func split(_ operand: String, separator: String, count: Int) -> [String] {
        let quoted = SQLiteRenderer.text(separator)
        var rest = "trim(coalesce(\(operand), ''), \(whitespace))"
        var parts: [String] = []
        for position in 0..<count {
            if position == count - 1 {
                parts.append(rest)
            } else {
                let found = "instr(\(rest), \(quoted))"
                parts.append("(CASE WHEN \(found) > 0 THEN trim(substr(\(rest), 1, \(found) - 1), \(whitespace)) ELSE \(rest) END)")
                rest = "(CASE WHEN \(found) > 0 THEN trim(substr(\(rest), \(found) + \(separator.count)), \(whitespace)) ELSE '' END)"
            }
        }
        return parts
    }

    /// The whole number `operand` spells (optional sign, at most 18 significant digits,
    /// whitespace around it), within `range`; NULL otherwise.
    package static func integer(_ operand: String, range: ClosedRange<Int64>) -> String {
        let trimmed = "trim(\(operand), \(whitespace))"
        let digits = "(CASE WHEN substr(\(trimmed), 1, 1) IN ('+', '-') THEN substr(\(trimmed), 2) ELSE \(trimmed) END)"
        let test =
            "\(digits) <> '' AND \(digits) NOT GLOB '*[^0-9]*' AND length(ltrim(\(digits), '0')) <= 18 AND CAST(\(trimmed) AS INTEGER) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        return "(CASE WHEN \(test) THEN CAST(\(trimmed) AS INTEGER) ELSE NULL END)"
    }

    /// `integer` with a fast path for text that is already a canonical whole number
    /// (`CAST(CAST(v AS INTEGER) AS TEXT) = v`, at most 18 characters), and
    /// `remodel_parse_integer` for everything else: the cheapest exact inline form.
    package static func integerFastPath(_ operand: String, range: ClosedRange<Int64>) -> String {
        let number = "CAST(\(operand) AS INTEGER)"
        // Only text: a REAL 1000.0 equals the text '1000' in SQLite's comparison.
        var test = "typeof(\(operand)) = 'text' AND CAST(\(number) AS TEXT) = \(operand) AND length(\(operand)) <= 18"
        if range != Int64.min...Int64.max { test += " AND \(number) BETWEEN \(range.lowerBound) AND \(range.upperBound)" }
        let function = SQLiteRenderer.name(of: .parseInteger)
        return "(CASE WHEN \(test) THEN \(number) ELSE \(function)(\(operand), \(range.lowerBound), \(range.upperBound)) END)"
    }
}
