/// How far a copy from Realm into a RemodelStore has got, given to its progress callback.
public struct RealmCopyProgress: Hashable, Sendable {
    /// The object type being copied.
    public var type: String
    /// Objects of `type` copied so far, and how many it has.
    public var copied: Int
    public var total: Int
    /// Objects of every type copied so far, and how many there are in all.
    public var copiedOverall: Int
    public var totalOverall: Int

    public init(type: String, copied: Int, total: Int, copiedOverall: Int, totalOverall: Int) {
        self.type = type
        self.copied = copied
        self.total = total
        self.copiedOverall = copiedOverall
        self.totalOverall = totalOverall
    }

    /// The fraction of all objects copied, from 0 to 1.
    public var fraction: Double { totalOverall == 0 ? 1 : Double(copiedOverall) / Double(totalOverall) }
}

/// What a copy from Realm wrote: per object type, how many objects the Realm held and how many
/// the store holds after the copy (checked equal before the copy commits).
public struct RealmCopyReport: Hashable, Sendable {
    /// One object type's counts.
    public struct Count: Hashable, Sendable {
        public var type: String
        public var realm: Int
        public var store: Int
    }

    /// In the order the types were copied (link targets before the objects linking to them).
    public var counts: [Count] = []

    public init() {}

    /// The number of objects copied of `type` (0 for a type the copy does not know).
    public func copied(_ type: String) -> Int {
        counts.first { $0.type == type }?.store ?? 0
    }

    /// Every object copied.
    public var total: Int { counts.reduce(0) { $0 + $1.store } }

    /// Records `type`'s counts; throws when the store does not hold as many objects as the
    /// Realm, so that the copy rolls back instead of committing a partial store.
    public mutating func record(_ type: String, realm: Int, store: Int) throws(RealmCopyError) {
        guard realm == store else { throw .countMismatch(type: type, realm: realm, store: store) }
        counts.append(Count(type: type, realm: realm, store: store))
    }
}

/// Counts the objects of one type as a copy writes them and calls the progress callback now
/// and then (every `step` objects and at the end of each type).
public struct RealmCopyCounter {
    private let progress: ((RealmCopyProgress) -> Void)?
    private let totalOverall: Int
    private let step: Int
    private var state: RealmCopyProgress

    public init(totalOverall: Int, step: Int = 1_000, progress: ((RealmCopyProgress) -> Void)?) {
        self.progress = progress
        self.totalOverall = totalOverall
        self.step = max(1, step)
        state = RealmCopyProgress(type: "", copied: 0, total: 0, copiedOverall: 0, totalOverall: totalOverall)
    }

    /// Starts the objects of `type`, of which there are `total`.
    public mutating func begin(_ type: String, total: Int) {
        state.type = type
        state.copied = 0
        state.total = total
        progress?(state)
    }

    /// One more object of the current type written.
    public mutating func advance() {
        state.copied += 1
        state.copiedOverall += 1
        if state.copied % step == 0 || state.copied == state.total { progress?(state) }
    }
}

/// Why a copy from Realm into a RemodelStore did not happen. Nothing was written to the
/// store when one of these is thrown.
public enum RealmCopyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store already holds objects of `type`; the copy is meant for a new store.
    case storeNotEmpty(type: String, count: Int)
    /// After writing, the store does not hold as many objects of `type` as the Realm.
    case countMismatch(type: String, realm: Int, store: Int)

    public var description: String {
        switch self {
        case .storeNotEmpty(let type, let count):
            "the store already holds \(count) \(type) object\(count == 1 ? "" : "s"); copy from Realm into a new, empty store (or delete the store file and copy again)"
        case .countMismatch(let type, let realm, let store):
            "the Realm holds \(realm) \(type) objects but the store would hold \(store); nothing was copied"
        }
    }
}

/// A link in a plain model whose target the Realm does not hold, found when the Realm object
/// is made from the model (`RealmPerson(person:in:)`).
public struct RealmBridgeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `Person.dogs`: the link.
    public var link: String
    /// The linked type, and the key no object of it has.
    public var target: String
    public var key: String

    public init(link: String, target: String, key: String) {
        self.link = link
        self.target = target
        self.key = key
    }

    public var description: String {
        "\(link) links to \(target) \(key), which the Realm does not hold; add that \(target) to the Realm first"
    }
}
