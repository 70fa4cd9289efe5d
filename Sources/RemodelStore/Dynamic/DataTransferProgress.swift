/// Progress of an import or an export in the JSON data format (`StoreJSON`, and
/// `PostgresStore` on a server), for a progress bar or log: the counterpart of
/// `MigrationProgress`.
///
/// An import checks every object of the document, then writes them; an export reads every
/// object, then writes them as JSON text. Each stage counts objects from 0 to `total`; the
/// callback is called when a stage starts, every `DataTransferProgress.step` objects, at
/// each new type and when the stage ends.
public struct DataTransferProgress: Hashable, Sendable {
    /// What the objects being counted go through.
    public enum Stage: String, Hashable, Sendable {
        /// An import checks the document's objects against the schema and converts them,
        /// before anything is written.
        case checking
        /// An import writes the checked objects into the store.
        case importing
        /// An export reads the store's objects.
        case reading
        /// An export writes the objects read as JSON text.
        case writing
    }

    public var stage: Stage
    /// The object type at hand.
    public var type: String
    /// Objects of every type through this stage so far, and how many there are in all.
    public var completed: Int
    public var total: Int

    public init(stage: Stage, type: String, completed: Int, total: Int) {
        self.stage = stage
        self.type = type
        self.completed = completed
        self.total = total
    }

    /// How many objects pass between two calls of the callback, at most.
    public static let step = 1_000
}

/// Counts the objects of one stage and calls the progress callback now and then (see
/// `DataTransferProgress`); does nothing but count when there is no callback.
package struct DataTransferCounter {
    private let progress: (@Sendable (DataTransferProgress) -> Void)?
    private var state: DataTransferProgress
    private var next = DataTransferProgress.step

    /// Starts `stage` of `total` objects, and says so.
    package init(_ stage: DataTransferProgress.Stage, total: Int, progress: (@Sendable (DataTransferProgress) -> Void)?) {
        self.progress = progress
        state = DataTransferProgress(stage: stage, type: "", completed: 0, total: total)
        progress?(state)
    }

    /// Starts the objects of `type`, and says so.
    package mutating func begin(_ type: String) {
        state.type = type
        progress?(state)
    }

    /// `count` more objects through the stage (one by default).
    @inline(__always)
    package mutating func advance(by count: Int = 1) {
        state.completed += count
        if state.completed >= next { report() }
    }

    /// Ends the stage: the callback hears that every object is through.
    package mutating func finish() {
        state.completed = state.total
        progress?(state)
    }

    private mutating func report() {
        next = state.completed + DataTransferProgress.step
        progress?(state)
    }
}
