/// The tool's version, printed by `remodel --version`.
package enum RemodelVersion {
    package static let current = "0.1.0"
}
