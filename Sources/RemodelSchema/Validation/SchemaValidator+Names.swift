import RemodelCore

/// Names: Swift identifiers, keywords, names reserved by Remodel or generated code, and
/// duplicates across files.
extension SchemaValidator {
    enum NameKind: String {
        case type
        case enumCase = "case"
        case property
    }

    /// Checks one name; returns whether it is usable at all (a valid identifier). Type names
    /// and the properties of object types (`stored`) also name tables and columns, and follow
    /// `StoreNames`.
    @discardableResult
    func checkName(_ name: Located<String>, kind: NameKind, noun: String, isPrimaryKey: Bool = false, stored: Bool = true, embedded: Bool = false) -> Bool {
        let text = name.value
        guard SwiftNames.isIdentifier(text) else {
            log.error(
                "invalid-name", "\(noun) name '\(text)' is not a valid identifier", at: name.location,
                hint: "use ASCII letters, digits and '_', not starting with a digit\(Self.identifierSuggestion(for: text).map { ", e.g. '\($0)'" } ?? "")"
            )
            return false
        }
        let rule: ReservationRule =
            switch kind {
            case .type: .table
            case .property where stored: .column
            default: .other
            }
        if let reservation = reservation(of: text, under: rule) {
            log.error(
                "reserved-name", "\(noun) name '\(text)' \(reservation)", at: name.location,
                hint: reservation.fix
            )
            return true
        }
        switch kind {
        case .type:
            if GeneratedNames.typeNames.contains(text) || SwiftNames.needsEscaping(text) || ScalarType(rawValue: text) != nil {
                let what = GeneratedNames.modules.contains(text) ? "a module" : ScalarType(rawValue: text) != nil ? "a type of the schema language" : "a type"
                log.error(
                    "reserved-type-name", "\(noun) name '\(text)' is already \(what) that generated Swift uses", at: name.location,
                    hint: "rename it, e.g. 'App\(text.prefix(1).uppercased() + text.dropFirst())'"
                )
                return true
            }
        case .property where GeneratedNames.modelMembers.contains(text) && !(text == "id" && isPrimaryKey):
            log.error(
                "generated-name-collision", "\(noun) name '\(text)' collides with a member of the generated Swift type", at: name.location,
                hint: text == "id" ? "make 'id' the primary key, or rename it (e.g. 'identifier')" : "rename it; generated models already have '\(text)'"
            )
            return true
        case .property where embedded && GeneratedNames.embeddedMembers.contains(text):
            log.error(
                "generated-name-collision", "\(noun) name '\(text)' of an embedded type would stand in for the store's '\(text)' of every value",
                at: name.location, hint: "rename it; the store asks each embedded value for '\(text)' before saving it"
            )
            return true
        case .enumCase where GeneratedNames.enumMembers.contains(text):
            log.error(
                "generated-name-collision", "\(noun) name '\(text)' collides with a member of the generated Swift enum", at: name.location,
                hint: "rename the case; generated enums already have '\(text)'"
            )
            return true
        default:
            break
        }
        if SwiftNames.needsEscaping(text) {
            log.warning(
                "swift-keyword", "\(noun) name '\(text)' is a Swift keyword", at: name.location,
                hint: "generated Swift will write it as `\(text)`; rename it to avoid the backticks"
            )
        }
        return true
    }

    /// Which of `StoreNames`' rules a name follows.
    enum ReservationRule: Hashable {
        case table, column, other
    }

    /// `StoreNames`' verdict on `name` under `rule` (decided without folding the name for
    /// most names, so it needs no cache).
    private func reservation(of name: String, under rule: ReservationRule) -> StoreNames.Reservation? {
        switch rule {
        case .table: StoreNames.tableNameReservation(name)
        case .column: StoreNames.columnNameReservation(name)
        case .other: StoreNames.otherNameReservation(name)
        }
    }

    /// `first-name` → `firstName`, `2fa` → `_2fa`: a close identifier, if one is easy to make.
    static func identifierSuggestion(for text: String) -> String? {
        var out = ""
        var upperNext = false
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" {
                out.unicodeScalars.append(contentsOf: upperNext ? String(scalar).uppercased().unicodeScalars : String(scalar).unicodeScalars)
                upperNext = false
            } else if !out.isEmpty {
                upperNext = true
            }
        }
        if let first = out.unicodeScalars.first, ("0"..."9").contains(first) { out = "_" + out }
        return SwiftNames.isIdentifier(out) ? out : nil
    }

    /// Records every enum, object and projection name, reporting names declared twice (in
    /// any files) and names that cannot be used.
    func registerDeclarations() {
        func register(_ name: Located<String>, noun: String) -> Bool {
            checkName(name, kind: .type, noun: noun)
            if let first = declaredNames[name.value] {
                log.error(
                    "duplicate-type", "'\(name.value)' is declared more than once", at: name.location,
                    hint: "rename or remove one of them; enums, objects and projections share one namespace",
                    notes: [.init("'\(name.value)' first declared here", at: first)]
                )
                return false
            }
            declaredNames[name.value] = name.location
            let key = StoreNames.foldedKey(name.value)
            if let other = foldedTypeNames[key] {
                // Enums are registered before objects: report at whichever is written later.
                let (earlier, later) = other.location < name.location ? (other, name) : (name, other)
                log.error(
                    "name-case-collision", "'\(later.value)' differs from '\(earlier.value)' only in letter case", at: later.location,
                    hint: "rename one of them: SQLite's table names and the generated file names (on case-insensitive file systems) ignore letter case",
                    notes: [.init("'\(earlier.value)' declared here", at: earlier.location)]
                )
                return false
            }
            foldedTypeNames[key] = name
            return true
        }
        let count = syntax.enums.count + syntax.objects.count + syntax.projections.count
        declaredNames.reserveCapacity(count)
        foldedTypeNames.reserveCapacity(count)
        enumDeclarations.reserveCapacity(syntax.enums.count)
        objectDeclarations.reserveCapacity(syntax.objects.count)
        for declaration in syntax.enums where register(declaration.name, noun: "enum") {
            enumDeclarations[declaration.name.value] = declaration
        }
        for declaration in syntax.objects where register(declaration.name, noun: "object") {
            objectDeclarations[declaration.name.value] = declaration
        }
        for declaration in syntax.projections {
            _ = register(declaration.name, noun: "projection")
        }
        for declaration in syntax.objects where declaration.name.value.hasPrefix("Realm") {
            let modelName = String(declaration.name.value.dropFirst("Realm".count))
            if objectDeclarations[modelName] != nil {
                log.error(
                    "generated-name-collision", "object name '\(declaration.name.value)' collides with the Realm bridge generated for '\(modelName)'",
                    at: declaration.name.location,
                    hint: "rename '\(declaration.name.value)'; Remodel generates 'Realm\(modelName)' for '\(modelName)'"
                )
            }
        }
    }

    /// Checks a `renamedFrom` value: an identifier that no longer names anything current.
    func checkRenamedFrom(_ renamedFrom: Located<String>?, noun: String, owner: String, currentNames: Set<String>) {
        guard let renamedFrom else { return }
        guard SwiftNames.isIdentifier(renamedFrom.value) else {
            log.error(
                "invalid-name", "'renamedFrom' of \(noun) '\(owner)' is not a valid identifier: '\(renamedFrom.value)'", at: renamedFrom.location,
                hint: "write the old name exactly as it was declared"
            )
            return
        }
        if currentNames.contains(renamedFrom.value) {
            log.error(
                "renamed-from-conflict", "\(noun) '\(owner)' is renamed from '\(renamedFrom.value)', which still exists", at: renamedFrom.location,
                hint: "remove 'renamedFrom', or remove or rename the current '\(renamedFrom.value)'"
            )
        }
    }
}
