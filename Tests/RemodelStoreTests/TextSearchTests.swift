#if canImport(RemodelExample)
    import Foundation
    import RemodelExample
    @testable import RemodelStore
    import XCTest

    /// `localizedStandardContains` in a filter: case- and diacritic-insensitive, in SQL, with
    /// the answers Foundation gives for the same texts.
    final class TextSearchTests: XCTestCase {
        func testLocalizedStandardContainsIgnoresCaseAndDiacriticsAsFoundationDoes() throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            let texts = [
                "Café au lait", "CAFÉ NOIR", "cafe", "Kaffee", "Crème brûlée", "naïve résumé", "ÅNGSTRÖM units", "ｆｕｌｌ ｗｉｄｔｈ", "plain ascii Text", "",
                "ΣΟΦΊΑ", "Ελληνικά", "ПРИВЕТ мир", "İstanbul", "Straße", "Øresund",
            ]
            try store.write { tx in
                for (index, text) in texts.enumerated() { try tx.insert(Note(identifier: "n\(index)", content: text, lastEdited: Date(timeIntervalSince1970: 0))) }
            }
            for query in [
                "CAFE", "café", "creme BRULEE", "RESUME", "ångström", "full", "TEXT", "xyz", "e", "σοφια", "ελληνικα", "привет", "%", "_", "STRASSE", "straße", "oresund",
                "øresund",
            ] {
                let found = try store.read { db in
                    try db.objects(Note.self).filter { $0.content.localizedStandardContains(query) }.fetchAll().map(\.content).sorted()
                }
                let expected = texts.filter { $0.range(of: query, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]) != nil }.sorted()
                XCTAssertEqual(found, expected, query)
            }
            let cafe = try store.read { db in try db.objects(Note.self).filter { $0.content.localizedStandardContains("CAFE") }.count() }
            XCTAssertEqual(cafe, 3)
        }
    }
#endif
