import RemodelCore

/// Enums: raw type, cases, raw values.
extension SchemaValidator {
    func resolveEnums() {
        let currentNames = Set(declaredNames.keys)
        for declaration in syntax.enums {
            let name = declaration.name.value
            guard enumDeclarations[name]?.name.location == declaration.name.location else { continue }
            var rawType = EnumType.RawType.string
            if let written = declaration.rawType {
                if let type = EnumType.RawType(rawValue: written.value) {
                    rawType = type
                } else {
                    let alias = Self.typeAliases[written.value].flatMap { EnumType.RawType(rawValue: $0)?.rawValue }
                    let suggestion = alias ?? Suggestion.closest(to: written.value, in: EnumType.RawType.allCases.map(\.rawValue))
                    log.error(
                        "enum-raw-type", "enum '\(name)' has raw type '\(written.value)'; enums are persisted as string or int", at: written.location,
                        hint: suggestion.map { "did you mean '\($0)'?" } ?? "write 'type: string' or 'type: int'"
                    )
                }
            }
            var cases: [EnumType.Case] = []
            var caseNames: [String: SourceLocation] = [:]
            var rawValues: [EnumType.RawValue: (name: String, location: SourceLocation)] = [:]
            for enumCase in declaration.cases {
                guard checkName(enumCase.name, kind: .enumCase, noun: "case") else { continue }
                if let first = caseNames[enumCase.name.value] {
                    log.error(
                        "duplicate-case", "enum '\(name)' has case '\(enumCase.name.value)' more than once", at: enumCase.name.location,
                        hint: "remove or rename one of them", notes: [.init("'\(enumCase.name.value)' first declared here", at: first)]
                    )
                    continue
                }
                caseNames[enumCase.name.value] = enumCase.name.location
                guard let raw = rawValue(of: enumCase, rawType: rawType, enumName: name) else { continue }
                let rawLocation = enumCase.raw?.location ?? enumCase.name.location
                if let first = rawValues[raw] {
                    log.error(
                        "duplicate-raw-value", "cases '\(first.name)' and '\(enumCase.name.value)' of enum '\(name)' have the same raw value '\(raw)'", at: rawLocation,
                        hint: "give each case its own raw value; stored values must map back to one case",
                        notes: [.init("'\(first.name)' has raw value '\(raw)' here", at: first.location)]
                    )
                }
                rawValues[raw] = rawValues[raw] ?? (enumCase.name.value, rawLocation)
                cases.append(EnumType.Case(name: enumCase.name.value, rawValue: raw))
            }
            if declaration.cases.isEmpty {
                log.error("empty-declaration", "enum '\(name)' has no cases", at: declaration.casesLocation, hint: "list at least one case under 'cases:'")
            }
            checkRenamedFrom(declaration.renamedFrom, noun: "enum", owner: name, currentNames: currentNames)
            let enumType = EnumType(name: name, rawType: rawType, cases: cases, renamedFrom: declaration.renamedFrom?.value, doc: declaration.doc)
            enums.append(enumType)
            enumsByName[name] = enumType
        }
    }

    private func rawValue(of enumCase: EnumDeclaration.Case, rawType: EnumType.RawType, enumName: String) -> EnumType.RawValue? {
        guard let node = enumCase.raw else {
            if rawType == .int {
                log.error(
                    "enum-raw-value", "case '\(enumCase.name.value)' of int enum '\(enumName)' has no raw value", at: enumCase.name.location,
                    hint: "map each case to an integer: '\(enumCase.name.value): 1'"
                )
                return nil
            }
            return .string(enumCase.name.value)
        }
        guard let scalar = node.scalar else {
            log.error(
                "enum-raw-value", "the raw value of case '\(enumCase.name.value)' must be a single value, found \(node.kindDescription)", at: node.location,
                hint: "write 'name: raw value' on one line"
            )
            return nil
        }
        switch rawType {
        case .string:
            if scalar.isNull { return .string(enumCase.name.value) }
            return .string(scalar.text)
        case .int:
            if scalar.isPlain, let value = IntegerLiteral.parse(scalar.text) {
                return .int(value)
            }
            log.error(
                "enum-raw-value", "the raw value of case '\(enumCase.name.value)' of int enum '\(enumName)' must be an integer, found \(node.kindDescription)", at: node.location,
                hint: scalar.isPlain ? "write a whole number such as 1" : "remove the quotes: raw values of an int enum are numbers"
            )
            return nil
        }
    }
}
