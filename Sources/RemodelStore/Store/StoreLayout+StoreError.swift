import RemodelCore

extension StoreLayout {
    /// The layout of a store of `schema` (`StoreLayout(schema:)`), with what it cannot lay out
    /// thrown as the store's error, `StoreError.unsupportedSchema`.
    package init(storing schema: Schema) throws {
        do {
            try self.init(schema: schema)
        } catch let error as UnsupportedSchema {
            throw StoreError.unsupportedSchema(error.message)
        }
    }
}
