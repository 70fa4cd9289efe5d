import RemodelCore

/// Generates a schema enum: `String` or `Int` raw values, every raw value written out.
struct EnumGenerator: Sendable {
    func declaration(for enumType: EnumType) -> SwiftDeclaration {
        let rawType: SwiftType = enumType.rawType == .int ? .name("Int") : .name("String")
        let cases: [SwiftDeclaration] = enumType.cases.map { enumCase in
            let raw: SwiftExpression =
                switch enumCase.rawValue {
                case .string(let text): .string(text)
                case .int(let number): .int(number)
                }
            return .enumCase(doc: nil, name: enumCase.name, rawValue: raw)
        }
        return .enumeration(
            SwiftEnum(
                doc: enumType.doc,
                name: enumType.name,
                inherits: [rawType, .name("Codable"), .name("CaseIterable"), .name("Hashable"), .name("Sendable")],
                members: cases
            ))
    }
}
