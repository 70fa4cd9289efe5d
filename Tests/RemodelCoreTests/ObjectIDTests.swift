import Foundation
import RemodelCore
import Testing

@Suite struct ObjectIDTests {
    @Test func parsesAndPrintsHex() throws {
        let id = try #require(ObjectID("5F1D7A2B9C8E7D6F5A4B3C2D"))
        #expect(id.description == "5f1d7a2b9c8e7d6f5a4b3c2d")
        #expect(ObjectID(id.description) == id)
    }

    @Test(arguments: ["", "5f1d7a2b9c8e7d6f5a4b3c2", "5f1d7a2b9c8e7d6f5a4b3c2dd", "zz1d7a2b9c8e7d6f5a4b3c2d"])
    func rejectsMalformedText(_ text: String) {
        #expect(ObjectID(text) == nil)
    }

    @Test func newIdentifiersAreUniqueAndCarryTheirTime() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let ids = (0..<1000).map { _ in ObjectID(timestamp: date) }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.timestamp == date })
    }

    @Test func codableAsHexString() throws {
        let id = ObjectID()
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(id)\"]")
        #expect(try JSONDecoder().decode([ObjectID].self, from: data) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ObjectID].self, from: Data("[\"nope\"]".utf8)) }
    }
}
