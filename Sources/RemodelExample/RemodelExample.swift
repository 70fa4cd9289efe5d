import Foundation
import RemodelStore

/// The example app's models — `Note`, `Person`, `Dog`, `BusinessUnitEnum` and the `Profile`
/// projection — generated during `swift build` by `RemodelPlugin` from the package's
/// `Schemas/` folder. Nothing in this target is written by hand except this file.
public enum RemodelExample {
    /// Opens (or creates) the example app's store at `path`, with the schema the models were
    /// generated from.
    public static func openStore(at path: String) throws -> RemodelStore {
        try RemodelStore(path: path, manifest: RemodelSchemaManifest.self)
    }
}
