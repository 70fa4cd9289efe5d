/// Something a schema holds that the store cannot lay out (`StoreLayout(schema:)`): a name
/// SQLite reserves, names that differ only in letter case, a collection or link without a
/// primary key. The store reports it as `StoreError.unsupportedSchema`, planning as the
/// `migration-unsupported-schema` diagnostic.
package struct UnsupportedSchema: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the schema holds, and how to change it.
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String {
        "unsupported schema: \(message)"
    }
}
