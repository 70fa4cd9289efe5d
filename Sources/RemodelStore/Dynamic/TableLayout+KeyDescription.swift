import RemodelCore

extension TableLayout {
    /// A primary-key value in its JSON form, for messages: `"note-1"`, `42`,
    /// `"65a1b2c3d4e5f60718293a4b"`.
    package func keyDescription(_ value: StoreValue) -> String {
        guard let key = primaryKey, let json = try? StoreValueConversion(schema: Schema()).json(value, type: PropertyType(key.type.base)) else {
            return value.description
        }
        return json.description
    }
}
