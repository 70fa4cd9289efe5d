import RemodelCore

/// A full disk, a file size limit or an I/O error met by a command that writes, told as one
/// clear error: `cannot WHAT: why; INTACT; how to fix`.
package enum StorageFaults {
    /// Runs `body`; a storage fault it runs into becomes a `Failure` (other errors pass through).
    package static func reporting<T>(cannot what: String, intact: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            guard let fault = StorageFault(of: error) else { throw error }
            throw Failure(description: fault.message(cannot: what, intact: intact))
        }
    }

    /// A storage fault, described for the command that ran into it.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }
}
