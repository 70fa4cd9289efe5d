import Foundation

// RealmSwift/RealmConfiguration.swift
extension Realm {
    /// The options used to open a Realm. In realm-swift 10.54.6 the memberwise initializer also
    /// takes `syncConfiguration: SyncConfiguration? = nil` (after `inMemoryIdentifier`); the
    /// mirror has no sync types (App, User, SyncConfiguration) and leaves it out, so a call that
    /// passes it does not compile here. The other parameters keep their order and defaults.
    @frozen public struct Configuration: Sendable {
        /// The `Configuration` used by `Realm()`.
        public static var defaultConfiguration: Configuration {
            get {
                return mirrorDefaultConfiguration.withLock { $0 }
            }
            set {
                mirrorDefaultConfiguration.withLock { $0 = newValue }
            }
        }

        @preconcurrency
        public init(
            fileURL: URL? = URL(fileURLWithPath: RLMRealmPathForFile("default.realm"), isDirectory: false),
            inMemoryIdentifier: String? = nil,
            encryptionKey: Data? = nil,
            readOnly: Bool = false,
            schemaVersion: UInt64 = 0,
            migrationBlock: MigrationBlock? = nil,
            deleteRealmIfMigrationNeeded: Bool = false,
            shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)? = nil,
            objectTypes: [ObjectBase.Type]? = nil,
            seedFilePath: URL? = nil
        ) {
            self.fileURL = fileURL
            if let inMemoryIdentifier = inMemoryIdentifier {
                self.inMemoryIdentifier = inMemoryIdentifier
            }
            self.encryptionKey = encryptionKey
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.objectTypes = objectTypes
            self.seedFilePath = seedFilePath
        }

        /// The local URL of the Realm file (setting it clears `inMemoryIdentifier`).
        public var fileURL: URL? {
            didSet {
                _inMemoryIdentifier = nil
            }
        }

        /// A string identifying an in-memory Realm (setting it clears `fileURL`).
        public var inMemoryIdentifier: String? {
            get {
                return _inMemoryIdentifier
            }
            set {
                fileURL = nil
                _inMemoryIdentifier = newValue
            }
        }

        private var _inMemoryIdentifier: String?

        /// A 64-byte key to use to encrypt the data (not used by the mirror).
        public var encryptionKey: Data?

        /// Whether to open the Realm in read-only mode.
        public var readOnly: Bool = false

        /// The current schema version.
        public var schemaVersion: UInt64 = 0

        /// The block which migrates the Realm to the current version.
        @preconcurrency
        public var migrationBlock: MigrationBlock?

        /// Whether to recreate the Realm with the provided schema if a migration is required.
        public var deleteRealmIfMigrationNeeded: Bool {
            get {
                return _deleteRealmIfMigrationNeeded
            }
            set(newValue) {
                _deleteRealmIfMigrationNeeded = newValue
            }
        }

        private var _deleteRealmIfMigrationNeeded: Bool = false

        /// A block deciding whether to compact the file on first open (not used by the mirror).
        @preconcurrency
        public var shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)?

        /// The subset of `Object` and `EmbeddedObject` subclasses persisted in the Realm.
        public var objectTypes: [ObjectBase.Type]?

        /// The maximum number of live versions in the Realm file (not used by the mirror).
        public var maximumNumberOfActiveVersions: UInt?

        /// The path to a Realm file copied to `fileURL` when opened for the first time (not
        /// used by the mirror).
        public var seedFilePath: URL?
    }
}

// RealmSwift/RealmConfiguration.swift
extension Realm.Configuration: CustomStringConvertible {
    public var description: String {
        "Realm.Configuration { fileURL = \(fileURL?.path ?? "nil"); inMemoryIdentifier = \(inMemoryIdentifier ?? "nil"); schemaVersion = \(schemaVersion); readOnly = \(readOnly); objectTypes = \(objectTypes.map { "\($0.map { $0.className() })" } ?? "nil") }"
    }
}

// RealmSwift/RealmConfiguration.swift
extension Realm.Configuration: Equatable {
    public static func == (lhs: Realm.Configuration, rhs: Realm.Configuration) -> Bool {
        lhs.encryptionKey == rhs.encryptionKey && lhs.fileURL == rhs.fileURL && lhs.inMemoryIdentifier == rhs.inMemoryIdentifier && lhs.readOnly == rhs.readOnly
            && lhs.schemaVersion == rhs.schemaVersion
    }
}

// Realm/RLMUtil.hpp (`RLMRealmPathForFile`, used by the default `fileURL`): the mirror writes
// no files; the path only names the Realm.
// swift-format-ignore: AlwaysUseLowerCamelCase
@usableFromInline
internal func RLMRealmPathForFile(_ fileName: String) -> String {
    (NSTemporaryDirectory() as NSString).appendingPathComponent(fileName)
}

private let mirrorDefaultConfiguration = MirrorLocked(Realm.Configuration())
