// Builds models generated from ../../Schemas by RemodelPlugin and round-trips them through a
// store file. Prints "zoo: ok" on success; exits 1 on any mismatch.
import Foundation
import RemodelStore

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-zoo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let path = folder.appendingPathComponent("zoo.sqlite").path

let leo = Animal(name: "Leo", species: .lion, born: Date(timeIntervalSince1970: 1_600_000_000), weightKg: 190.5, enclosure: Enclosure(zone: "Savannah", number: 3))
let pingu = Animal(name: "Pingu")
let ana = Keeper(name: "Ana", animals: [leo.id, pingu.id])

do {
    let store = try RemodelStore(path: path, manifest: RemodelSchemaManifest.self)
    try store.write { tx in
        try tx.upsert(leo)
        try tx.upsert(pingu)
        try tx.upsert(ana)
    }
}

// Reopen the file and read everything back.
let store = try RemodelStore(path: path, manifest: RemodelSchemaManifest.self)
let animals = try store.read { try $0.objects(Animal.self).fetchAll() }
let keeper = try store.read { try $0.object(Keeper.self, forKey: ana.id) }
let keepersOfLeo = try store.read { try $0.objects(linkingTo: leo, via: Animal.Inverses.keepers).fetchAll() }
let json = try JSONEncoder().encode(leo)
let decoded = try JSONDecoder().decode(Animal.self, from: json)

var failures: [String] = []
if Set(animals) != [leo, pingu] { failures.append("animals read back differ: \(animals)") }
if keeper != ana { failures.append("keeper read back differs: \(String(describing: keeper))") }
if keepersOfLeo.map(\.id) != [ana.id] { failures.append("inverse query returned \(keepersOfLeo)") }
if decoded != leo { failures.append("JSON round trip differs") }
if pingu.species != .penguin || Species.redPanda.rawValue != "Red Panda" { failures.append("schema defaults or raw values are wrong") }
if AnimalCard(leo).initial != "L" { failures.append("projection is wrong") }

if failures.isEmpty {
    print("zoo: ok (\(animals.count) animals, keeper \(ana.name), schema \(RemodelSchemaManifest.schemaHash.prefix(12)))")
} else {
    print("zoo: FAILED\n" + failures.joined(separator: "\n"))
    exit(1)
}
