import Foundation
import RemodelCore
import RemodelStore
import XCTest

/// The focused reference cases, compiled: values build, keep their schema defaults, survive
/// JSON and a store, and every manifest embeds exactly its YAML's schema.
final class FocusedCaseTests: XCTestCase {
    func testManifestsEmbedTheirSchemas() throws {
        try Reference.assertManifest(ScalarsManifest.self, matches: "Scalars")
        try Reference.assertManifest(CollectionsManifest.self, matches: "Collections")
        try Reference.assertManifest(OptionalsManifest.self, matches: "Optionals")
        try Reference.assertManifest(KeywordsManifest.self, matches: "Keywords")
        try Reference.assertManifest(HostileStringsManifest.self, matches: "HostileStrings")
        try Reference.assertManifest(IntEnumsManifest.self, matches: "IntEnums")
        try Reference.assertManifest(EmbeddedManifest.self, matches: "Embedded")
        try Reference.assertManifest(ProjectionsManifest.self, matches: "Projections")
        try Reference.assertManifest(LinksManifest.self, matches: "Links")
        try Reference.assertManifest(DocumentedManifest.self, matches: "Documented")
        try Reference.assertManifest(KeylessManifest.self, matches: "Keyless")
        XCTAssertEqual(MemberKeywordsManifest.schema, MemberKeywordsSchema.schema)
    }

    // MARK: Hostile strings

    /// Every hostile default, compiled from its escaped literal, equals the YAML's text.
    func testHostileStringsMeanExactlyTheInput() throws {
        let schema = try Reference.loadedSchema("HostileStrings")
        let value = HostileHolder()
        let pairs: [(String, String)] = [
            ("id", value.id), ("quotes", value.quotes), ("backslashes", value.backslashes), ("interpolation", value.interpolation),
            ("tripleQuotes", value.tripleQuotes), ("rawDelimiters", value.rawDelimiters), ("commentTerminators", value.commentTerminators),
            ("newlines", value.newlines), ("controls", value.controls), ("unicode", value.unicode), ("invisible", value.invisible),
            ("nonCharacters", value.nonCharacters),
        ]
        for (name, actual) in pairs {
            XCTAssertEqual(Array(actual.unicodeScalars), Array(try Reference.stringDefault(schema, "HostileHolder", name).unicodeScalars), name)
        }
        XCTAssertEqual(value.hostileURL, URL(string: try Reference.stringDefault(schema, "HostileHolder", "hostileURL")))
        XCTAssertTrue(value.controls.unicodeScalars.contains("\0"))
        let raw = try XCTUnwrap(schema.enumType(named: "HostileRaw"))
        XCTAssertEqual(HostileRaw.allCases.map(\.rawValue), raw.cases.map(\.rawValue.description))
        XCTAssertEqual(HostileRaw.allCases.map { "\($0)" }, raw.cases.map(\.name))
        XCTAssertEqual(try Reference.jsonRoundTrip(value), value)
    }

    func testHostileStringsSurviveTheStore() throws {
        let store = try Reference.store(HostileStringsManifest.self, test: self)
        let value = HostileHolder()
        try store.write { try $0.upsert(value) }
        XCTAssertEqual(try store.read { try $0.object(HostileHolder.self, forKey: value.id) }, value)
    }

    // MARK: Scalars

    func testScalarDefaults() throws {
        let value = ScalarDefaults()
        XCTAssertEqual(value.key, Int64.max)
        XCTAssertEqual(value.flag, true)
        XCTAssertEqual(value.count, -5)
        XCTAssertEqual(value.tiny, Int8.min)
        XCTAssertEqual(value.small, Int16.max)
        XCTAssertEqual(value.medium, Int32.min)
        XCTAssertEqual(value.large, Int64.min)
        XCTAssertEqual(value.ratio, 1.5)
        XCTAssertEqual(value.precise, 0.1)
        XCTAssertEqual(value.text, "hello")
        XCTAssertEqual(value.blob, Data([0, 1, 2, 255]))
        XCTAssertEqual(value.moment, ISO8601DateFormatter().date(from: "2024-02-29T12:34:56Z"))
        XCTAssertEqual(value.amount, Decimal(string: "12345.6789"))
        XCTAssertEqual(value.oid, ObjectID("65f0c0ffee0123456789abcd"))
        XCTAssertEqual(value.uid, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(value.link.absoluteString, "https://example.com/a?b=c&d=%20e")
        XCTAssertEqual(try Reference.jsonRoundTrip(value), value)

        let edges = ScalarEdges(name: "e")
        XCTAssertEqual(edges.infinite, .infinity)
        XCTAssertEqual(edges.negativeInfinite, -.infinity)
        XCTAssertEqual(edges.negativeZero.sign, .minus)
        XCTAssertEqual(edges.tinyDouble, .leastNonzeroMagnitude)
        XCTAssertEqual(edges.hugeDouble, .greatestFiniteMagnitude)
        XCTAssertEqual(edges.wholeDouble, 3)
        XCTAssertEqual(edges.epoch, Date(timeIntervalSince1970: 0))
        XCTAssertEqual(edges.fractional, Date(timeIntervalSinceReferenceDate: 0.25))
        XCTAssertEqual(edges.emptyBlob, Data())

        let generated = ScalarRequired(
            flag: false, count: 1, tiny: 2, small: 3, medium: 4, large: 5, ratio: 6, precise: 7, text: "t", blob: Data([9]), moment: Date(timeIntervalSince1970: 8), amount: 10,
            link: URL(string: "file:///x")!)
        XCTAssertNotNil(UUID(uuidString: generated.textID))
        XCTAssertEqual(generated.id, generated.uid)
    }

    func testScalarsSurviveTheStore() throws {
        let store = try Reference.store(ScalarsManifest.self, test: self)
        let value = ScalarDefaults()
        let required = ScalarRequired(
            flag: true, count: -1, tiny: -2, small: -3, medium: -4, large: -5, ratio: 0.5, precise: -0.25, text: "x", blob: Data([1, 2]),
            moment: Date(timeIntervalSince1970: 1_700_000_000), amount: Decimal(string: "-1.5")!, link: URL(string: "https://example.com")!)
        try store.write { tx in
            try tx.upsert(value)
            try tx.upsert(required)
        }
        XCTAssertEqual(try store.read { try $0.object(ScalarDefaults.self, forKey: value.id) }, value)
        let readRequired = try XCTUnwrap(try store.read { try $0.object(ScalarRequired.self, forKey: required.id) })
        XCTAssertEqual(readRequired.oid, required.oid)
        XCTAssertEqual(readRequired.amount, required.amount)
        XCTAssertEqual(readRequired.precise, required.precise)
    }

    // MARK: Collections, optionals, enums, embedded, links, keywords, keyless

    func testCollections() throws {
        let item = CollectionItem(code: "a")
        let holder = CollectionHolder(
            numbers: [3, 1, 3], maybeNames: ["x", nil], uniqueNames: ["u"], maybeCounts: [nil, 1], scores: ["a": 1.5], maybeNotes: ["n": nil],
            dates: [Date(timeIntervalSince1970: 5)], blobs: [Data([1])], tags: [.red, .red], tagSet: [.blue], tagMap: ["k": .green],
            items: [item.id], itemSet: [item.id], parts: [CollectionPart(label: "p")], partMap: ["q": CollectionPart(label: "q", weight: 2)]
        )
        XCTAssertEqual(try Reference.jsonRoundTrip(holder), holder)
        let store = try Reference.store(CollectionsManifest.self, test: self)
        try store.write { tx in
            try tx.upsert(item)
            try tx.upsert(holder)
        }
        XCTAssertEqual(try store.read { try $0.object(CollectionHolder.self, forKey: holder.id) }, holder)
    }

    func testOptionals() throws {
        let empty = OptionalEverything(id: 1)
        XCTAssertNil(empty.flag)
        XCTAssertNil(empty.explicitNull)
        XCTAssertEqual(empty.withDefault, 3)
        XCTAssertEqual(empty.moodDefault, .sad)
        XCTAssertNotNil(empty.uuidDefault)
        let full = OptionalEverything(
            id: 2, flag: true, count: 1, tiny: 1, small: 1, medium: 1, large: 1, ratio: 1, precise: 1, text: "t", blob: Data(), moment: Date(timeIntervalSince1970: 1),
            amount: 1, oid: ObjectID(), uid: UUID(), link: URL(string: "https://example.com"), mood: .happy, target: 7, nested: OptionalNested(note: nil)
        )
        XCTAssertEqual(try Reference.jsonRoundTrip(full), full)
        let store = try Reference.store(OptionalsManifest.self, test: self)
        try store.write { tx in
            try tx.upsert(OptionalTarget(id: 7))
            try tx.upsert(empty)
            try tx.upsert(full)
        }
        XCTAssertEqual(try store.read { try $0.object(OptionalEverything.self, forKey: 1) }, empty)
        XCTAssertEqual(try store.read { try $0.object(OptionalEverything.self, forKey: 2) }, full)
    }

    func testIntEnums() throws {
        XCTAssertEqual(IntPriority.lowest.rawValue, -3)
        XCTAssertEqual(IntPriority.huge.rawValue, Int.max)
        XCTAssertEqual(IntPriority(rawValue: 10), .high)
        let task = IntEnumTask(number: 1, backup: .low, history: [.high, .low], seen: [.huge], byOwner: ["me": .lowest])
        XCTAssertEqual(task.priority, .normal)
        XCTAssertEqual(task.status, .open)
        XCTAssertEqual(try Reference.jsonRoundTrip(task), task)
        let store = try Reference.store(IntEnumsManifest.self, test: self)
        try store.write { try $0.upsert(task) }
        XCTAssertEqual(try store.read { try $0.object(IntEnumTask.self, forKey: 1) }, task)
    }

    func testEmbedded() throws {
        let home = EmbeddedAddress(city: "Paris", geo: EmbeddedGeo(latitude: 48.85, longitude: 2.35))
        let customer = EmbeddedCustomer(name: "C", home: home, addresses: [home, EmbeddedAddress(street: "Main", city: "X")], byLabel: ["work": home])
        XCTAssertEqual(home.street, "")
        XCTAssertEqual(try Reference.jsonRoundTrip(customer), customer)
        let store = try Reference.store(EmbeddedManifest.self, test: self)
        try store.write { try $0.upsert(customer) }
        XCTAssertEqual(try store.read { try $0.object(EmbeddedCustomer.self, forKey: customer.id) }, customer)
    }

    func testProjections() {
        let friend = ProjectedAuthor(name: "Bo", tags: [], born: Date(timeIntervalSince1970: 0), friends: [])
        let author = ProjectedAuthor(name: "émile", nickname: "em", tags: ["b", "a"], born: Date(timeIntervalSince1970: 1), friends: [friend.id])
        let card = AuthorCard(author)
        XCTAssertEqual(card.name, "émile")
        XCTAssertEqual(card.displayName, "émile")
        XCTAssertEqual(card.initial, "é")
        XCTAssertEqual(card.nameLength, 5)
        XCTAssertEqual(card.tagCount, 2)
        XCTAssertEqual(card.nickname, "em")
        XCTAssertEqual(card.friends, [friend.id])
        let badge = AuthorBadge(author)
        XCTAssertEqual(badge.authorID, author.id)
        XCTAssertEqual(badge.tagList, ["b", "a"])
        XCTAssertEqual(badge.friendIDs, [friend.id])
    }

    func testLinksAndInverses() throws {
        let clinic = LinkClinic()
        let vet = LinkVet(number: 1, clinic: clinic.id)
        let pet = LinkPet(name: "Rex")
        let owner = LinkOwner(pets: [pet.id], favorites: [pet.id], vet: vet.number, pastVets: [vet.number])
        XCTAssertEqual(try Reference.jsonRoundTrip(owner), owner)
        let store = try Reference.store(LinksManifest.self, test: self)
        try store.write { tx in
            try tx.upsert(clinic)
            try tx.upsert(vet)
            try tx.upsert(pet)
            try tx.upsert(owner)
        }
        XCTAssertEqual(try store.read { try $0.object(LinkOwner.self, forKey: owner.id) }, owner)
        XCTAssertEqual(try store.read { try $0.objects(linkingTo: pet, via: LinkPet.Inverses.owners).fetchAll() }.map(\.id), [owner.id])
        XCTAssertEqual(try store.read { try $0.objects(linkingTo: pet, via: LinkPet.Inverses.fans).fetchAll() }.map(\.id), [owner.id])
        XCTAssertEqual(try store.read { try $0.objects(linkingTo: vet, via: LinkVet.Inverses.patients).fetchAll() }.map(\.id), [owner.id])
    }

    func testKeywords() throws {
        let target = KeywordTarget(struct: 5)
        var holder = KeywordHolder(where: [.default, .class], var: "v", in: [1], switch: ["k": "v"], extension: target.id)
        XCTAssertEqual(holder.protocol, .protocol)
        XCTAssertEqual(holder.func, KeywordCase.nil)
        holder.class = 2
        XCTAssertEqual(KeywordCase.true.rawValue, "true")
        XCTAssertEqual(try Reference.jsonRoundTrip(holder), holder)
        let view = KeywordView(holder)
        XCTAssertEqual(view.case, holder.default)
        XCTAssertEqual(view.let, 2)
        XCTAssertEqual(view.import, .protocol)
        XCTAssertEqual(view.repeat, 1)
        let store = try Reference.store(KeywordsManifest.self, test: self)
        try store.write { tx in
            try tx.upsert(target)
            try tx.upsert(holder)
        }
        XCTAssertEqual(try store.read { try $0.object(KeywordHolder.self, forKey: holder.id) }, holder)
        XCTAssertEqual(try store.read { db in try db.objects(KeywordHolder.self).filter { $0.class == 2 }.fetchAll() }.count, 1)
    }

    func testMemberKeywords() throws {
        let holder = MemberKeywordHolder(Self: [.self, .Type])
        XCTAssertEqual(holder.Type, "type")
        XCTAssertEqual(holder.`init`, 1)
        XCTAssertEqual(holder.Protocol, .`self`)
        XCTAssertEqual(try Reference.jsonRoundTrip(holder), holder)
        let view = MemberKeywordView(holder)
        XCTAssertEqual(view.Type, 1)
        XCTAssertEqual(view.`init`, "type")
        XCTAssertEqual(view.kind, "self")
        let store = try Reference.store(MemberKeywordsManifest.self, test: self)
        try store.write { try $0.upsert(holder) }
        XCTAssertEqual(try store.read { try $0.object(MemberKeywordHolder.self, forKey: "type") }, holder)
    }

    func testKeylessModels() throws {
        XCTAssertEqual(KeylessLogEntry(message: "started").level, 0)
        let entry = KeylessLogEntry(message: "started", at: Date(timeIntervalSince1970: 1_700_000_000.5))
        let store = try Reference.store(KeylessManifest.self, test: self)
        try store.write { tx in
            try tx.insert(entry)
            try tx.upsert(KeyOnly())
        }
        XCTAssertEqual(try store.read { try $0.objects(KeylessLogEntry.self).fetchAll() }, [entry])
        XCTAssertEqual(try store.read { try $0.object(KeyOnly.self, forKey: 0) }, KeyOnly())
    }

    func testDocumentedModelsCompile() {
        let entry = DocumentedEntry(slug: "a-b")
        XCTAssertEqual(entry.title, "Untitled")
        XCTAssertEqual(entry.kind, .article)
        XCTAssertEqual(DocumentedKind.video.rawValue, "Video")
    }
}
