/// The schema hash: a stable, versioned fingerprint of everything in a schema that affects
/// stored data.
///
/// Documentation, `renamedFrom` hints and projections are left out, so editing them does not
/// make existing stores refuse the generated code. The `1:` prefix names the hashing scheme;
/// a future scheme gets a new prefix instead of silently changing old hashes.
extension Schema {
    /// The current hashing scheme's prefix.
    public static let hashScheme = "1"

    /// `1:` followed by the SHA-256 of the canonical form of the schema's storage-relevant
    /// parts.
    public var storageHash: String {
        // The canonical text of `storageRelevant`, written without making that copy.
        Schema.hashScheme + ":" + SHA256.hexDigest(of: CanonicalYAML.bytes(of: self, storageOnly: true))
    }

    /// The schema with documentation, rename hints and projections removed.
    public var storageRelevant: Schema {
        Schema(
            enums: enums.map { enumType in
                var copy = enumType
                copy.doc = nil
                copy.renamedFrom = nil
                return copy
            },
            objects: objects.map { object in
                var copy = object
                copy.doc = nil
                copy.renamedFrom = nil
                copy.properties = object.properties.map { property in
                    var stored = property
                    stored.doc = nil
                    stored.renamedFrom = nil
                    return stored
                }
                return copy
            },
            projections: []
        )
    }
}
