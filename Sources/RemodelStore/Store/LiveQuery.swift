#if canImport(Observation)
    import Observation

    /// The value of a fetch, kept current for the main actor: what a SwiftUI view holds.
    ///
    /// ```swift
    /// @State private var notes = try! LiveQuery(store) { db in
    ///     try db.objects(Note.self).sorted(by: Note.Columns.lastEdited, ascending: false).fetchAll()
    /// }
    /// var body: some View { List(notes.value) { Text($0.content) } }
    /// ```
    ///
    /// The first value is fetched at once, by the initialiser; later ones arrive as
    /// `RemodelStore.observe(_:)` delivers them. A fetch that fails leaves the last value and
    /// sets `error`; observing ends then. Releasing the query ends its observation.
    @MainActor @Observable
    public final class LiveQuery<Value: Sendable> {
        /// The newest value.
        public private(set) var value: Value
        /// Why the observation ended, if a fetch failed.
        public private(set) var error: (any Error)?
        @ObservationIgnored private let observing = ObservingTask()

        /// Fetches the first value now (throwing what the fetch throws), then keeps it current.
        public convenience init(_ store: RemodelStore, _ fetch: @escaping @Sendable (Database) throws -> Value) throws {
            try self.init(store, fetch, observation: store.observe(fetch))
        }

        private init(_ store: RemodelStore, _ fetch: @escaping @Sendable (Database) throws -> Value, observation: StoreObservation<Value>) throws {
            value = try store.read(fetch)
            observing.task = Task { [weak self] in
                do {
                    for try await value in observation {
                        guard let self else { return }
                        self.value = value
                    }
                } catch {
                    self?.error = error
                }
            }
        }
    }

    extension LiveQuery where Value: Equatable {
        /// A query whose value is replaced only when a new one differs.
        public convenience init(_ store: RemodelStore, _ fetch: @escaping @Sendable (Database) throws -> Value) throws {
            try self.init(store, fetch, observation: store.observe(fetch))
        }
    }

    /// The task that feeds a query, cancelled when the query is released.
    private final class ObservingTask: @unchecked Sendable {
        var task: Task<Void, Never>?

        deinit {
            task?.cancel()
        }
    }
#endif
