import RemodelCore
import Testing

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownVectors(input: String, expected: String) {
        #expect(SHA256.hexDigest(of: input) == expected)
    }

    @Test func millionAs() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(of: input) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesMatchOneShot() {
        let text = Array("The quick brown fox jumps over the lazy dog, again and again and again.".utf8)
        var hasher = SHA256()
        for chunk in stride(from: 0, to: text.count, by: 7) {
            hasher.update(text[chunk..<min(chunk + 7, text.count)])
        }
        #expect(hasher.finalizeHex() == SHA256.hexDigest(of: text))
    }
}
