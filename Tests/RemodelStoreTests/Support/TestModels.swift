import Foundation
import RemodelCore
import RemodelStore

// Hand-written exactly as /work/notes/store-protocol.md says the generator emits them, except
// that the Swift types are called TestNote, TestPerson, TestDog (schema names Note, Person,
// Dog) so as not to clash with the example app's generated models used in GeneratedModelsTests.

private struct _GeneratedWithRemodelStoreAPIVersion1: RemodelStoreAPIVersion1 {}

public enum BusinessUnitEnum: String, Codable, CaseIterable, Hashable, Sendable {
    case customerEngineering = "Customer Engineering"
    case engineering = "Engineering"
}

public enum Priority: Int, Codable, CaseIterable, Hashable, Sendable {
    case low = 1
    case high = 2
}

public struct Address: Hashable, Codable, Sendable {
    public var street: String
    public var since: Date?
    public var photo: Data?

    public init(street: String, since: Date? = nil, photo: Data? = nil) {
        self.street = street
        self.since = since
        self.photo = photo
    }
}

public struct TestNote: Hashable, Codable, Sendable, Identifiable {
    public var identifier: String
    public var content: String
    public var lastEdited: Date
    public var id: String { identifier }

    public init(identifier: String = UUID().uuidString, content: String, lastEdited: Date = Date()) {
        self.identifier = identifier
        self.content = content
        self.lastEdited = lastEdited
    }
}

public struct TestPerson: Hashable, Codable, Sendable, Identifiable {
    public var _id: ObjectID
    public var firstName: String
    public var company: String
    public var businessUnit: BusinessUnitEnum
    public var profileImageUrl: URL?
    public var dogs: [TestDog.ID]
    public var id: ObjectID { _id }

    public init(
        _id: ObjectID = ObjectID(), firstName: String = "", company: String = "MongoDB",
        businessUnit: BusinessUnitEnum = .engineering, profileImageUrl: URL? = nil, dogs: [TestDog.ID] = []
    ) {
        self._id = _id
        self.firstName = firstName
        self.company = company
        self.businessUnit = businessUnit
        self.profileImageUrl = profileImageUrl
        self.dogs = dogs
    }
}

public struct TestDog: Hashable, Codable, Sendable, Identifiable {
    public var _id: UUID
    public var weight: Int
    public var id: UUID { _id }

    public init(_id: UUID = UUID(), weight: Int = 0) {
        self._id = _id
        self.weight = weight
    }
}

/// Every scalar type, optionals, enums, an embedded object, collections and a to-one link.
public struct Sample: Hashable, Codable, Sendable, Identifiable {
    public var id: Int
    public var flag: Bool
    public var tiny: Int8
    public var small: Int16
    public var medium: Int32
    public var large: Int64
    public var single: Float
    public var double: Double
    public var text: String
    public var bytes: Data
    public var date: Date
    public var amount: Decimal
    public var objectId: ObjectID
    public var uuid: UUID
    public var link: URL
    public var unit: BusinessUnitEnum
    public var priority: Priority?
    public var maybeInt: Int?
    public var maybeText: String?
    public var maybeDate: Date?
    public var maybeUUID: UUID?
    public var address: Address?
    public var owner: TestPerson.ID?
    public var tags: [String]
    public var scores: Set<Int>
    public var attributes: [String: String]
    public var sparse: [Int?]
    public var addresses: [Address]
    public var priorities: [Priority]
    public var friends: Set<TestPerson.ID>

    public init(
        id: Int, flag: Bool = false, tiny: Int8 = 0, small: Int16 = 0, medium: Int32 = 0, large: Int64 = 0,
        single: Float = 0, double: Double = 0, text: String = "", bytes: Data = Data(), date: Date = Date(timeIntervalSince1970: 0),
        amount: Decimal = 0, objectId: ObjectID = ObjectID(), uuid: UUID = UUID(), link: URL = URL(string: "https://example.com")!,
        unit: BusinessUnitEnum = .engineering, priority: Priority? = nil, maybeInt: Int? = nil, maybeText: String? = nil,
        maybeDate: Date? = nil, maybeUUID: UUID? = nil, address: Address? = nil, owner: TestPerson.ID? = nil, tags: [String] = [],
        scores: Set<Int> = [], attributes: [String: String] = [:], sparse: [Int?] = [], addresses: [Address] = [],
        priorities: [Priority] = [], friends: Set<TestPerson.ID> = []
    ) {
        self.id = id
        self.flag = flag
        self.tiny = tiny
        self.small = small
        self.medium = medium
        self.large = large
        self.single = single
        self.double = double
        self.text = text
        self.bytes = bytes
        self.date = date
        self.amount = amount
        self.objectId = objectId
        self.uuid = uuid
        self.link = link
        self.unit = unit
        self.priority = priority
        self.maybeInt = maybeInt
        self.maybeText = maybeText
        self.maybeDate = maybeDate
        self.maybeUUID = maybeUUID
        self.address = address
        self.owner = owner
        self.tags = tags
        self.scores = scores
        self.attributes = attributes
        self.sparse = sparse
        self.addresses = addresses
        self.priorities = priorities
        self.friends = friends
    }
}

/// A type with no primary key.
public struct LogEntry: Hashable, Codable, Sendable {
    public var message: String
    public var level: Int

    public init(message: String, level: Int) {
        self.message = message
        self.level = level
    }
}

// MARK: - Store bridges

extension BusinessUnitEnum: StorableEnum {}

extension Priority: StorableEnum {}

extension Address: EmbeddedModel {}

extension TestNote: KeyedModel {
    public static let schemaName = "Note"

    public init(row: inout RowDecoder) throws {
        self.init(
            identifier: try row.decode(),
            content: try row.decode(),
            lastEdited: try row.decode()
        )
    }

    public func encode(to row: inout RowEncoder) throws {
        try row.encode(identifier)
        try row.encode(content)
        try row.encode(lastEdited)
    }

    public enum Columns {
        public static let identifier = Column<TestNote, String>("identifier")
        public static let content = Column<TestNote, String>("content")
        public static let lastEdited = Column<TestNote, Date>("lastEdited")
    }
}

extension TestPerson: KeyedModel {
    public static let schemaName = "Person"

    public init(row: inout RowDecoder) throws {
        self.init(
            _id: try row.decode(),
            firstName: try row.decode(),
            company: try row.decode(),
            businessUnit: try row.decode(),
            profileImageUrl: try row.decode(),
            dogs: try row.decodeList()
        )
    }

    public func encode(to row: inout RowEncoder) throws {
        try row.encode(_id)
        try row.encode(firstName)
        try row.encode(company)
        try row.encode(businessUnit)
        try row.encode(profileImageUrl)
        try row.encodeList(dogs)
    }

    public enum Columns {
        public static let _id = Column<TestPerson, ObjectID>("_id")
        public static let firstName = Column<TestPerson, String>("firstName")
        public static let company = Column<TestPerson, String>("company")
        public static let businessUnit = Column<TestPerson, BusinessUnitEnum>("businessUnit")
        public static let profileImageUrl = Column<TestPerson, URL?>("profileImageUrl")
        public static let dogs = CollectionColumn<TestPerson, TestDog.ID>("dogs")
    }
}

extension TestDog: KeyedModel {
    public static let schemaName = "Dog"

    public init(row: inout RowDecoder) throws {
        self.init(
            _id: try row.decode(),
            weight: try row.decode()
        )
    }

    public func encode(to row: inout RowEncoder) throws {
        try row.encode(_id)
        try row.encode(weight)
    }

    public enum Columns {
        public static let _id = Column<TestDog, UUID>("_id")
        public static let weight = Column<TestDog, Int>("weight")
    }

    public enum Inverses {
        public static let person = Inverse<TestDog, TestPerson>(origin: "dogs")
    }
}

extension Sample: KeyedModel {
    public static let schemaName = "Sample"

    public init(row: inout RowDecoder) throws {
        self.init(
            id: try row.decode(), flag: try row.decode(), tiny: try row.decode(), small: try row.decode(),
            medium: try row.decode(), large: try row.decode(), single: try row.decode(), double: try row.decode(),
            text: try row.decode(), bytes: try row.decode(), date: try row.decode(), amount: try row.decode(),
            objectId: try row.decode(), uuid: try row.decode(), link: try row.decode(), unit: try row.decode(),
            priority: try row.decode(), maybeInt: try row.decode(), maybeText: try row.decode(), maybeDate: try row.decode(),
            maybeUUID: try row.decode(), address: try row.decode(), owner: try row.decode(), tags: try row.decodeList(),
            scores: try row.decodeSet(), attributes: try row.decodeMap(), sparse: try row.decodeList(),
            addresses: try row.decodeList(), priorities: try row.decodeList(), friends: try row.decodeSet()
        )
    }

    public func encode(to row: inout RowEncoder) throws {
        try row.encode(id)
        try row.encode(flag)
        try row.encode(tiny)
        try row.encode(small)
        try row.encode(medium)
        try row.encode(large)
        try row.encode(single)
        try row.encode(double)
        try row.encode(text)
        try row.encode(bytes)
        try row.encode(date)
        try row.encode(amount)
        try row.encode(objectId)
        try row.encode(uuid)
        try row.encode(link)
        try row.encode(unit)
        try row.encode(priority)
        try row.encode(maybeInt)
        try row.encode(maybeText)
        try row.encode(maybeDate)
        try row.encode(maybeUUID)
        try row.encode(address)
        try row.encode(owner)
        try row.encodeList(tags)
        try row.encodeSet(scores)
        try row.encodeMap(attributes)
        try row.encodeList(sparse)
        try row.encodeList(addresses)
        try row.encodeList(priorities)
        try row.encodeSet(friends)
    }

    public enum Columns {
        public static let id = Column<Sample, Int>("id")
        public static let flag = Column<Sample, Bool>("flag")
        public static let large = Column<Sample, Int64>("large")
        public static let double = Column<Sample, Double>("double")
        public static let text = Column<Sample, String>("text")
        public static let date = Column<Sample, Date>("date")
        public static let uuid = Column<Sample, UUID>("uuid")
        public static let unit = Column<Sample, BusinessUnitEnum>("unit")
        public static let priority = Column<Sample, Priority?>("priority")
        public static let maybeInt = Column<Sample, Int?>("maybeInt")
        public static let maybeText = Column<Sample, String?>("maybeText")
        public static let owner = Column<Sample, TestPerson.ID?>("owner")
        public static let tags = CollectionColumn<Sample, String>("tags")
        public static let scores = CollectionColumn<Sample, Int>("scores")
        public static let attributes = CollectionColumn<Sample, String>("attributes")
    }

    public enum Inverses {}
}

extension LogEntry: PersistentModel {
    public static let schemaName = "LogEntry"

    public init(row: inout RowDecoder) throws {
        self.init(message: try row.decode(), level: try row.decode())
    }

    public func encode(to row: inout RowEncoder) throws {
        try row.encode(message)
        try row.encode(level)
    }

    public enum Columns {
        public static let message = Column<LogEntry, String>("message")
        public static let level = Column<LogEntry, Int>("level")
    }
}

public enum TestSchemaManifest: SchemaManifest {
    public static let version = 1
    public static let schemaHash = schema.storageHash
    public static let history: MigrationHistory? = nil
    public static let models: [any PersistentModel.Type] = [TestNote.self, TestPerson.self, TestDog.self, Sample.self, LogEntry.self]
    public static let schema = Schema(
        enums: [
            EnumType(
                name: "BusinessUnitEnum",
                cases: [
                    .init(name: "customerEngineering", rawValue: .string("Customer Engineering")),
                    .init(name: "engineering", rawValue: .string("Engineering")),
                ]),
            EnumType(name: "Priority", rawType: .int, cases: [.init(name: "low", rawValue: .int(1)), .init(name: "high", rawValue: .int(2))]),
        ],
        objects: [
            ObjectType(
                name: "Note", primaryKey: "identifier",
                properties: [
                    Property("identifier", .scalar(.string), default: .generated(.uuid)),
                    Property("content", .scalar(.string)),
                    Property("lastEdited", .scalar(.date), default: .generated(.now)),
                ]),
            ObjectType(
                name: "Person", primaryKey: "_id",
                properties: [
                    Property("_id", .scalar(.objectId), default: .generated(.objectId)),
                    Property("firstName", .scalar(.string), default: .string("")),
                    Property("company", .scalar(.string), default: .string("MongoDB")),
                    Property("businessUnit", PropertyType(.enumeration("BusinessUnitEnum")), default: .enumCase("engineering")),
                    Property("profileImageUrl", .scalar(.url, optional: true)),
                    Property("dogs", PropertyType(.object("Dog"), collection: .list)),
                ]),
            ObjectType(
                name: "Dog", primaryKey: "_id",
                properties: [
                    Property("_id", .scalar(.uuid), default: .generated(.uuid)),
                    Property("weight", .scalar(.int), default: .int(0), indexed: true),
                    Property(name: "person", kind: .inverse(type: "Person", property: "dogs")),
                ]),
            ObjectType(
                name: "Address", isEmbedded: true,
                properties: [
                    Property("street", .scalar(.string)),
                    Property("since", .scalar(.date, optional: true)),
                    Property("photo", .scalar(.data, optional: true)),
                ]),
            ObjectType(
                name: "Sample", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("flag", .scalar(.bool)),
                    Property("tiny", .scalar(.int8)),
                    Property("small", .scalar(.int16)),
                    Property("medium", .scalar(.int32)),
                    Property("large", .scalar(.int64)),
                    Property("single", .scalar(.float)),
                    Property("double", .scalar(.double)),
                    Property("text", .scalar(.string), indexed: true),
                    Property("bytes", .scalar(.data)),
                    Property("date", .scalar(.date)),
                    Property("amount", .scalar(.decimal128)),
                    Property("objectId", .scalar(.objectId)),
                    Property("uuid", .scalar(.uuid)),
                    Property("link", .scalar(.url)),
                    Property("unit", PropertyType(.enumeration("BusinessUnitEnum"))),
                    Property("priority", PropertyType(.enumeration("Priority"), optional: true)),
                    Property("maybeInt", .scalar(.int, optional: true)),
                    Property("maybeText", .scalar(.string, optional: true)),
                    Property("maybeDate", .scalar(.date, optional: true)),
                    Property("maybeUUID", .scalar(.uuid, optional: true)),
                    Property("address", PropertyType(.object("Address"), optional: true)),
                    Property("owner", PropertyType(.object("Person"), optional: true)),
                    Property("tags", PropertyType(.scalar(.string), collection: .list)),
                    Property("scores", PropertyType(.scalar(.int), collection: .set)),
                    Property("attributes", PropertyType(.scalar(.string), collection: .map)),
                    Property("sparse", PropertyType(.scalar(.int), optional: true, collection: .list)),
                    Property("addresses", PropertyType(.object("Address"), collection: .list)),
                    Property("priorities", PropertyType(.enumeration("Priority"), collection: .list)),
                    Property("friends", PropertyType(.object("Person"), collection: .set)),
                ]),
            ObjectType(
                name: "LogEntry",
                properties: [
                    Property("message", .scalar(.string)),
                    Property("level", .scalar(.int)),
                ]),
        ]
    )
}
