#if canImport(Observation)
    import Observation

    /// The value of a fetch, kept current for the main actor: what a SwiftUI view holds.
    ///
    /// ```swift
    /// @State private var notes: LiveQuery<[Note]>
    ///
    /// init(store: RemodelStore) throws {
    ///     _notes = State(initialValue: try LiveQuery(store) { db in try db.objects(Note.self).fetchAll() })
    /// }
    ///
    /// var body: some View { List(notes.value) { Text($0.content) } }
    /// ```
    ///
    /// The article "Live data in SwiftUI" shows a whole list view.
    ///
    /// The first value is fetched at once, by the initialiser; later ones arrive as
    /// `RemodelStore.observe(_:)` delivers them (with an `Equatable` value, only those that
    /// differ, so that a view is not redrawn for nothing). A fetch that fails leaves the last
    /// value and sets `error`; observing ends then, until `update(_:)`. Releasing the query
    /// ends its observation. Nothing else is needed in a SwiftUI view: keep the query in
    /// `@State`, and SwiftUI redraws what reads `value` when it changes. (Observation, which
    /// SwiftUI tracks it with, needs macOS 14, iOS 17, tvOS 17 or watchOS 10.)
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Observable
    public final class LiveQuery<Value: Sendable> {
        /// The newest value.
        public private(set) var value: Value
        /// Why the observation ended, if a fetch failed.
        public private(set) var error: (any Error)?
        @ObservationIgnored private let store: RemodelStore
        @ObservationIgnored private let observe: @Sendable (@escaping @Sendable (Database) throws -> Value) -> StoreObservation<Value>
        @ObservationIgnored private let isSame: (@Sendable (Value, Value) -> Bool)?
        @ObservationIgnored private let observing = ObservingTask()

        /// Fetches the first value now (throwing what the fetch throws), then keeps it current.
        public convenience init(_ store: RemodelStore, _ fetch: @escaping @Sendable (Database) throws -> Value) throws {
            try self.init(store, fetch, isSame: nil, observe: { store.observe($0) })
        }

        private init(
            _ store: RemodelStore, _ fetch: @escaping @Sendable (Database) throws -> Value, isSame: (@Sendable (Value, Value) -> Bool)?,
            observe: @escaping @Sendable (@escaping @Sendable (Database) throws -> Value) -> StoreObservation<Value>
        ) throws {
            self.store = store
            self.observe = observe
            self.isSame = isSame
            value = try store.read(fetch)
            start(fetch)
        }

        /// Replaces the fetch — a search field's new text, another sort order: the new fetch's
        /// value is fetched now (throwing what it throws, and then the query keeps its old
        /// fetch), and kept current from then on.
        public func update(_ fetch: @escaping @Sendable (Database) throws -> Value) throws {
            let first = try store.read(fetch)
            value = first
            error = nil
            start(fetch)
        }

        private func start(_ fetch: @escaping @Sendable (Database) throws -> Value) {
            observing.task?.cancel()
            let observation = observe(fetch)
            observing.task = Task { [weak self] in
                do {
                    // The first value is the one just fetched, unless a commit came in between.
                    for try await value in observation {
                        guard let self, !Task.isCancelled else { return }
                        if let isSame = self.isSame, isSame(self.value, value) { continue }
                        self.value = value
                    }
                } catch {
                    guard !Task.isCancelled else { return }
                    self?.error = error
                }
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension LiveQuery where Value: Equatable {
        /// A query whose value is replaced only when a new one differs.
        public convenience init(_ store: RemodelStore, _ fetch: @escaping @Sendable (Database) throws -> Value) throws {
            try self.init(store, fetch, isSame: { $0 == $1 }, observe: { store.observe($0) })
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
