import RemodelCore

/// A property type as written (`string`, `Dog?`, `list<Dog>`, `map<int?>`), split into its
/// parts before the name is resolved. Offsets count Unicode scalars from the start of the
/// text, so errors can point at the exact character.
struct TypeExpression: Equatable {
    var collection: CollectionKind?
    /// The element's type name: a scalar, enum or object name.
    var name: String
    /// Where `name` starts in the text.
    var nameOffset: Int
    /// Whether the element is optional (`Dog?`, `list<int?>`).
    var isOptional: Bool

    /// A problem in the text of a type, with the offset it refers to.
    struct Problem: Error, Equatable {
        var rule: String
        var message: String
        var hint: String
        var offset: Int
    }

    /// Parses `text`; a problem says what is wrong and how to write it instead.
    static func parse(_ text: String) -> Result<TypeExpression, Problem> {
        if let simple = parseSimple(text) { return .success(simple) }
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, scalars[start] == " " { start += 1 }
        while end > start, scalars[end - 1] == " " { end -= 1 }
        let body = String(String.UnicodeScalarView(scalars[start..<end]))
        guard let open = scalars[start..<end].firstIndex(of: "<") else {
            if let close = scalars[start..<end].firstIndex(of: ">") {
                return .failure(Problem(rule: "invalid-type-syntax", message: "unbalanced '>' in type '\(body)'", hint: "write collections as 'list<Dog>'", offset: close))
            }
            return element(scalars, start, end, whole: body).map { TypeExpression(collection: nil, name: $0.name, nameOffset: $0.offset, isOptional: $0.optional) }
        }
        let keyword = String(String.UnicodeScalarView(scalars[start..<open])).trimmingSpaces
        guard let collection = CollectionKind(rawValue: keyword) else {
            let suggestion =
                Suggestion.closest(to: keyword, in: CollectionKind.allCases.map(\.rawValue))
                ?? (["array", "Array"].contains(keyword) ? "list" : nil)
            let hint = suggestion.map { "did you mean '\($0)<…>'? collections are list, set and map" } ?? "collections are written list<T>, set<T> and map<T>"
            return .failure(Problem(rule: "invalid-type-syntax", message: "unknown collection '\(keyword)' in type '\(body)'", hint: hint, offset: start))
        }
        var close = end - 1
        var trailingOptional = false
        if close > open, scalars[close] == "?" {
            trailingOptional = true
            close -= 1
            while close > open, scalars[close] == " " { close -= 1 }
        }
        guard close > open, scalars[close] == ">" else {
            return .failure(Problem(rule: "invalid-type-syntax", message: "missing '>' at the end of type '\(body)'", hint: "write '\(keyword)<Element>'", offset: end - 1))
        }
        if trailingOptional {
            return .failure(
                Problem(
                    rule: "optional-collection", message: "a collection cannot be optional: '\(body)'",
                    hint: "an empty \(keyword) already means 'no values': write '\(String(body.dropLast()).trimmingSpaces)'", offset: end - 1
                ))
        }
        var elementStart = open + 1
        if collection == .map, let comma = scalars[elementStart..<close].firstIndex(of: ",") {
            let key = String(String.UnicodeScalarView(scalars[elementStart..<comma])).trimmingSpaces
            var keyOffset = elementStart
            while keyOffset < comma, scalars[keyOffset] == " " { keyOffset += 1 }
            if key != "string" {
                let value = String(String.UnicodeScalarView(scalars[(comma + 1)..<close])).trimmingSpaces
                return .failure(
                    Problem(
                        rule: "map-key-type", message: "map keys are always strings, not '\(key)'",
                        hint: "write 'map<\(value)>': the keys are strings", offset: keyOffset
                    ))
            }
            elementStart = comma + 1
        }
        var innerStart = elementStart
        while innerStart < close, scalars[innerStart] == " " { innerStart += 1 }
        if scalars[innerStart..<close].contains("<") {
            return .failure(
                Problem(
                    rule: "nested-collection", message: "collections cannot hold collections: '\(body)'",
                    hint: "hold the inner values in an embedded object, e.g. 'list<Row>' where Row has a 'list<…>' property", offset: innerStart
                ))
        }
        return element(scalars, elementStart, close, whole: body).map {
            TypeExpression(collection: collection, name: $0.name, nameOffset: $0.offset, isOptional: $0.optional)
        }
    }

    /// The common forms (`Name`, `Name?`, `list<Name>`, `map<Name?>`) without spaces, parsed
    /// from UTF-8 bytes; `nil` for anything else, which the full parser handles.
    private static func parseSimple(_ text: String) -> TypeExpression? {
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes -> TypeExpression? in
            var start = 0
            var end = bytes.count
            var collection: CollectionKind?
            if end > 0, bytes[end - 1] == UInt8(ascii: ">") {
                guard let open = bytes.firstIndex(of: UInt8(ascii: "<")) else { return nil }
                collection = CollectionKind(rawValue: String(decoding: bytes[..<open], as: UTF8.self))
                guard collection != nil else { return nil }
                start = open + 1
                end -= 1
            }
            var optional = false
            if end > start, bytes[end - 1] == UInt8(ascii: "?") {
                optional = true
                end -= 1
            }
            guard start < end, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[start]),
                bytes[start..<end].allSatisfy(SwiftNames.isIdentifierByte)
            else { return nil }
            // The whole text is the name (`string`, `Dog`): no new string.
            let name = start == 0 && end == bytes.count ? text : String(decoding: bytes[start..<end], as: UTF8.self)
            return TypeExpression(collection: collection, name: name, nameOffset: start, isOptional: optional)
        }
        return parsed ?? nil
    }

    /// `Name` or `Name?` between `start` and `end`.
    private static func element(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int, whole: String) -> Result<(name: String, offset: Int, optional: Bool), Problem> {
        var start = start
        var end = end
        while start < end, scalars[start] == " " { start += 1 }
        while end > start, scalars[end - 1] == " " { end -= 1 }
        guard start < end else {
            return .failure(
                Problem(rule: "invalid-type-syntax", message: "missing type name in '\(whole)'", hint: "write a type such as 'string' or 'Dog'", offset: max(0, start - 1)))
        }
        var optional = false
        if scalars[end - 1] == "?" {
            optional = true
            end -= 1
        }
        let name = String(String.UnicodeScalarView(scalars[start..<end]))
        if let bad = name.unicodeScalars.firstIndex(where: { !($0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))) }) {
            let offset = start + name.unicodeScalars.distance(from: name.unicodeScalars.startIndex, to: bad)
            let hint = scalars[offset] == "?" ? "write a single '?' after the type name" : "a type is a name such as 'string', 'Dog?' or 'list<Dog>'"
            return .failure(Problem(rule: "invalid-type-syntax", message: "unexpected '\(scalars[offset])' in type '\(whole)'", hint: hint, offset: offset))
        }
        guard !name.isEmpty else {
            return .failure(Problem(rule: "invalid-type-syntax", message: "missing type name in '\(whole)'", hint: "write a type such as 'string?'", offset: start))
        }
        return .success((name, start, optional))
    }
}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars = scalars.dropFirst() }
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
