import Foundation
import RealmSwift

// realm-swift's documented mapping of URL (CustomPersistable.swift's doc comment), as the
// code `remodel generate --realm` writes it.
// swift-format-ignore: AvoidRetroactiveConformances
extension URL: @retroactive FailableCustomPersistable {
    public typealias PersistedType = String

    public init?(persistedValue: String) {
        self.init(string: persistedValue)
    }

    public var persistableValue: String {
        absoluteString
    }
}

enum Mood: String, PersistableEnum {
    case happy
    case grumpy
}

enum Size: Int, PersistableEnum {
    case small = 1
    case large = 2
}

final class MirrorAddress: EmbeddedObject {
    @Persisted var street: String
    @Persisted var city = "Paris"
}

final class MirrorDog: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted(indexed: true) var name: String
    @Persisted var mood: Mood
    @Persisted var size: Size?
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<MirrorPerson>
}

final class MirrorPerson: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var age: Int?
    @Persisted var dogs: List<MirrorDog>
    @Persisted var bestFriend: MirrorDog?
    @Persisted var address: MirrorAddress?
    @Persisted var previousAddresses: List<MirrorAddress>
    @Persisted var homepage: URL?
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int?>
    @Persisted var balance: Decimal128
    @Persisted var value: AnyRealmValue

    convenience init(name: String) {
        self.init()
        self.name = name
    }
}

final class MirrorKeyed: Object {
    @Persisted(primaryKey: true) var key: String
    @Persisted var value: Int
    @Persisted var note: String?
}

final class PersonSummary: Projection<MirrorPerson> {
    @Projected(\MirrorPerson.name) var name: String
    @Projected(\MirrorPerson.dogs.projectTo.name) var dogNames: ProjectedCollection<String>
}

// Classes realm-swift's schema checks reject at runtime (they compile).
final class NonOptionalLink: Object {
    @Persisted var dog: MirrorDog
}

final class OptionalObjectsInList: Object {
    @Persisted var dogs: List<MirrorDog?>
}

final class DatePrimaryKeyByAccident: Object {
    @Persisted(primaryKey: true) var flag: Bool
}

/// Values the `@Sendable` migration blocks of the tests record (the tests read them after
/// the block has run, on the same thread).
final class Recorded: @unchecked Sendable {
    var values: [String: Any] = [:]
    var count = 0
}
