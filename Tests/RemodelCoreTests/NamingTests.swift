import RemodelCore
import Testing

@Suite struct NamingTests {
    @Test func escapesKeywordsOnly() {
        #expect(SwiftNames.escaped("default") == "`default`")
        #expect(SwiftNames.escaped("Type") == "`Type`")
        #expect(SwiftNames.escaped("self") == "`self`")
        #expect(SwiftNames.escaped("firstName") == "firstName")
    }

    @Test func identifiers() {
        #expect(SwiftNames.isIdentifier("_id"))
        #expect(SwiftNames.isIdentifier("dogs2"))
        #expect(!SwiftNames.isIdentifier("2dogs"))
        #expect(!SwiftNames.isIdentifier("first-name"))
        #expect(!SwiftNames.isIdentifier(""))
        #expect(!SwiftNames.isIdentifier("_"))
        #expect(!SwiftNames.isIdentifier("café"))
    }

    @Test func suggestsCloseNamesOnly() {
        #expect(Suggestion.closest(to: "Dgo", in: ["Dog", "Person", "Note"]) == "Dog")
        #expect(Suggestion.closest(to: "strng", in: ["string", "int"]) == "string")
        #expect(Suggestion.closest(to: "primarykey", in: ["primaryKey", "properties"]) == "primaryKey")
        #expect(Suggestion.closest(to: "Zebra", in: ["Dog", "Person", "Note"]) == nil)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    }
}

@Suite struct EditDistanceTests {
    @Test(arguments: [("", "abc", 3), ("abc", "abc", 0), ("Dgo", "Dog", 1), ("ca", "abc", 3), ("flaw", "lawn", 2)])
    func distances(a: String, b: String, expected: Int) {
        #expect(Suggestion.editDistance(a, b) == expected)
        #expect(Suggestion.editDistance(b, a) == expected)
    }
}
