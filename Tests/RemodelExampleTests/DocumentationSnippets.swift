import Foundation
import RemodelExample
import RemodelMigrate
import RemodelStore

// The code of the documentation's articles ("The store", "Migrations in the app"), as an app
// on the example schema writes it. `DocumentationTests` runs it, and checks that every Swift
// block of every article is a run of lines of this file (or of another file that is compiled:
// see `DocumentationTests.compiledSources`), so that an article cannot show code that does not
// compile or does something else.

/// "The store" (Sources/RemodelStore/RemodelStore.docc/TheStore.md).
enum TheStoreSnippets {
    static func open(at url: URL) throws -> RemodelStore {
        let store = try RemodelStore(path: url.path, manifest: RemodelSchemaManifest.self)
        return store
    }

    /// Writes a dog, its owner and a note; returns the dog and the owner.
    static func write(to store: RemodelStore) throws -> (Dog, Person) {
        let rex = Dog(name: "Rex", weight: 31)
        let ada = Person(firstName: "Ada", lastName: "Lovelace", dogs: [rex.id])
        try store.write { tx in
            try tx.insert(rex)  // fails with StoreError.duplicateKey if the key exists
            try tx.upsert(ada)  // adds, or replaces the object with the same key
            try tx.upsert(Note(content: "Walk Rex"))
        }
        return (rex, ada)
    }

    /// Changes the dog and deletes every note; returns how many notes there were.
    static func change(_ rex: Dog, in store: RemodelStore) throws -> Int {
        let deleted = try store.write { tx in
            var heavier = rex
            heavier.weight = 32
            try tx.update(heavier)  // fails with StoreError.notFound if the key does not exist
            return try tx.deleteAll(Note.self)  // returns how many there were
        }
        return deleted
    }

    static func query(_ store: RemodelStore) throws -> [Person] {
        let dogOwners = try store.read { db in
            try db.objects(Person.self)
                .filter { $0.firstName.hasPrefix("A") && $0.dogs.isEmpty == false }
                .sorted(by: Person.Columns.lastName.ascending, Person.Columns.firstName.ascending)
                .limit(20)
                .fetchAll()
        }
        return dogOwners
    }

    /// What the article reads by key, by count, through a list of links and through an inverse.
    static func fetch(_ rex: Dog, _ ada: Person, from store: RemodelStore) throws -> (Person?, Int, [Dog], [Person]) {
        let person = try store.read { try $0.object(Person.self, forKey: ada.id) }
        let heavyDogs = try store.read { try $0.objects(Dog.self).filter(Dog.Columns.weight > 10).count() }
        let herDogs = try store.read { try $0.objects(Dog.self, forKeys: ada.dogs) }
        let owners = try store.read { try $0.objects(linkingTo: rex, via: Dog.Inverses.person).fetchAll() }
        return (person, heavyDogs, herDogs, owners)
    }

    static func eachNote(in store: RemodelStore, _ use: (Note) -> Void) throws {
        try store.read { db in
            try db.objects(Note.self).forEach { note in
                use(note)
            }
        }
    }

    /// Calls `reload` after each commit that changes people, until the task is cancelled.
    static func watchPeople(in store: RemodelStore, reload: (StoreChange) -> Void) async {
        for await change in store.changes(to: Person.self) {
            reload(change)
        }
    }

    static func delete(_ rex: Dog, from store: RemodelStore) throws -> Bool {
        let existed = try store.write { tx in
            try tx.delete(rex)  // and from every list that holds it
        }
        return existed
    }
}

/// "Migrations in the app" (Sources/RemodelMigrate/RemodelMigrate.docc/MigrationsInTheApp.md).
enum MigrationsInTheAppSnippets {
    /// Opens the store at `url`, upgrading it first if an older version of the app wrote it.
    static func open(at url: URL, progress: @escaping @Sendable (MigrationProgress) -> Void) throws -> RemodelStore {
        var migrator = Migrator(history: RemodelSchemaManifest.history!)
        migrator.progress = { step in
            progress(step)  // e.g. step.completed of step.total, for a progress bar
        }
        let store = try RemodelStore(
            path: url.path,
            manifest: RemodelSchemaManifest.self,
            options: OpenOptions(migrator: migrator)
        )
        return store
    }

    /// A migrator that refuses to upgrade, as a store opened without one does.
    static func refusing() -> Migrator {
        var migrator = Migrator(history: RemodelSchemaManifest.history!)
        migrator.upgradePolicy = .fail  // StoreError.migrationNeeded instead
        return migrator
    }

    /// A migrator with a custom step, for a history whose migration file names it
    /// (`- custom: { name: normalisePhones, type: Person }`).
    static func withCustomStep() -> Migrator {
        var migrator = Migrator(history: RemodelSchemaManifest.history!)
        migrator.register("normalisePhones") { object in
            if case .text(let phone) = object.old["phone"] {
                object.new["phone"] = .text(phone.filter(\.isNumber))
            }
        }
        return migrator
    }

    /// What opening a store written by a newer version of the app does.
    static func openRefusingDowngrades(at url: URL) throws -> RemodelStore? {
        do {
            return try open(at: url) { _ in }
        } catch StoreError.superseded(_, let storeVersion, let codeVersion) {
            print("written by a newer version (schema \(storeVersion), this app has \(codeVersion))")
            return nil
        }
    }
}

/// "Migrating stores" and "Migration files and steps" (Docs/Guides.docc).
enum ManualSnippets {
    /// Opens the store at `url`, upgrading it in the app when an older version wrote it.
    static func openUpgrading(at url: URL) throws -> RemodelStore {
        let store = try RemodelStore(
            path: url.path,
            manifest: RemodelSchemaManifest.self,
            options: OpenOptions(migrator: Migrator(history: RemodelSchemaManifest.history!))
        )
        return store
    }

    /// The custom step of a history that turns a list of tag names into `Tag` objects.
    static func registerTagObjects(on migrator: inout Migrator) {
        migrator.register("tagObjects") { object in  // custom: { name: tagObjects, type: Note, writes: [tags] }
            guard case .list(let old) = object.old["tags"] else { return }
            for case .text(let name) in old { object.create("Tag", ["name": .text(name.lowercased())]) }
            object.new["tags"] = .list(old.compactMap { if case .text(let name) = $0 { .text(name.lowercased()) } else { nil } })
        }
    }
}
