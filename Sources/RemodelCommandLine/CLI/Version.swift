/// The tool's version, printed by `remodel --version`.
enum RemodelVersion {
    static let current = "0.1.0"
}
