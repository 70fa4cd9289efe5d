import Foundation
import RealmSwift
import RemodelRealm
import RemodelStore
import XCTest

// The manual's launch path (Docs/Guides.docc/RealmBridgeReference.md, "The copy at launch"), word for word, run against the
// mirror: a Realm with the app's objects becomes a store, and the next launch just opens it.

/// Opens the app's store; the first launch after the update moves the Realm's objects into it.
func openStore(in documents: URL) throws -> RemodelStore {
    let storeURL = documents.appendingPathComponent("app.remodel")
    var realmConfiguration = Realm.Configuration()
    realmConfiguration.fileURL = documents.appendingPathComponent("default.realm")
    let realmExists = FileManager.default.fileExists(atPath: realmConfiguration.fileURL!.path)
    if realmExists && !FileManager.default.fileExists(atPath: storeURL.path) {
        try copyRealm(configuration: realmConfiguration, to: storeURL)
    }
    if realmExists {
        // The store is complete and in place: the Realm is no longer needed.
        _ = try Realm.deleteFiles(for: realmConfiguration)
    }
    return try RemodelStore(path: storeURL.path, manifest: RealmExampleManifest.self)
}

/// Copies the Realm into a new store file, and puts that at `storeURL` only once it is
/// complete, so that a launch interrupted at any point starts again from the Realm.
func copyRealm(configuration: Realm.Configuration, to storeURL: URL) throws {
    let newURL = storeURL.appendingPathExtension("new")
    for suffix in ["", "-wal", "-shm"] {  // what an interrupted launch left
        try? FileManager.default.removeItem(atPath: newURL.path + suffix)
    }
    do {
        // The block brings the Realm to the newest version first.
        let realm = try Realm(configuration: RealmExampleManifest.realmConfiguration(configuration))
        let store = try RemodelStore(path: newURL.path, manifest: RealmExampleManifest.self)
        let report = try RealmExampleManifest.copyRealm(realm, into: store) { progress in
            if progress.copied == progress.total { print("copied \(progress.total) \(progress.type) objects") }
        }
        print("moved \(report.total) objects off Realm")  // counts checked before the copy committed
        try store.checkpoint()  // every page in the store file itself before it moves
    }  // the Realm and the store close here (on Apple platforms, inside an autoreleasepool)
    try FileManager.default.moveItem(at: newURL, to: storeURL)
}

final class LaunchPathTests: XCTestCase {
    func testTheFirstLaunchMovesTheRealmAndTheNextOneOpensTheStore() throws {
        let documents = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-launch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: documents) }
        // The app's Realm: the mirror keeps it in memory, and a file marks that it exists.
        var configuration = Realm.Configuration()
        configuration.fileURL = documents.appendingPathComponent("default.realm")
        XCTAssertTrue(FileManager.default.createFile(atPath: configuration.fileURL!.path, contents: Data()))
        do {
            let realm = try Realm(configuration: RealmExampleManifest.realmConfiguration(configuration))
            let rex = Dog(name: "Rex")
            try realm.write {
                realm.add(RealmDog(dog: rex))
                realm.add(try RealmPerson(person: Person(firstName: "Ada", dogs: [rex.id]), in: realm))
                realm.add(RealmNote(note: Note(content: "Buy dog food")))
            }
        }

        let store = try openStore(in: documents)
        XCTAssertEqual(try store.read { try $0.count(Person.self) }, 1)
        XCTAssertEqual(try store.read { try $0.objects(Person.self).fetchOne()?.dogs.count }, 1)
        XCTAssertEqual(try store.read { try $0.count(Note.self) }, 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: documents.path).filter { $0.hasPrefix("app.remodel.new") }
        XCTAssertEqual(left, [], "the new store file was moved, with nothing of it left behind")
        XCTAssertTrue(try Realm(configuration: RealmExampleManifest.realmConfiguration(configuration)).isEmpty, "the Realm's data is deleted")

        // The next launch opens the store as it is.
        let again = try openStore(in: documents)
        XCTAssertEqual(try again.read { try $0.count(Dog.self) }, 1)
    }
}
