import Foundation
import RemodelExample
import RemodelStore

#if canImport(SwiftUI)
    import SwiftUI
#endif

// The code of the article "Live data in SwiftUI" (Sources/RemodelStore/RemodelStore.docc/
// LiveDataInSwiftUI.md): a notes list that follows the store. `LiveDataArticleTests` runs it;
// on Linux it compiles against `SwiftUIStandIn.swift`.

/// The notes, last edited first, that contain what the search field holds — kept current
/// whoever changes the store: this view, another window, a widget, `remodel import`.
@available(macOS 14, iOS 17, *)
struct NotesList: View {
    let store: RemodelStore
    @State private var notes: LiveQuery<[Note]>
    @State private var search = ""

    @MainActor init(store: RemodelStore) throws {
        self.store = store
        _notes = State(initialValue: try LiveQuery(store, Self.notes(containing: "")))
    }

    var body: some View {
        let shown = notes.value  // the rows as drawn: what a swipe's offsets refer to
        NavigationStack {
            List {
                ForEach(shown) { note in
                    VStack(alignment: .leading) {
                        Text(note.content)
                        Text(note.lastEdited, style: .relative).foregroundStyle(.secondary)
                    }
                }
                .onDelete { offsets in delete(shown, at: offsets) }
            }
            .searchable(text: $search)
            .onChange(of: search) { _, text in try? notes.update(Self.notes(containing: text)) }
            .overlay {
                if let error = notes.error { Text("The notes cannot be read: \(error.localizedDescription)") }
            }
            .navigationTitle("Notes")
            .toolbar { Button("Add") { add() } }
        }
    }

    /// The notes that contain `text` — all of them when it is empty — ignoring case and
    /// accents ("cafe" finds "Café au lait"), last edited first.
    static func notes(containing text: String) -> @Sendable (Database) throws -> [Note] {
        { db in
            var notes = db.objects(Note.self).sorted(by: Note.Columns.lastEdited.descending)
            if !text.isEmpty { notes = notes.filter(Note.Columns.content.localizedStandardContains(text)) }
            return try notes.fetchAll()
        }
    }

    /// Deletes the notes at `offsets` of the list as shown. The write runs off the main
    /// actor; the list changes when it commits.
    @discardableResult
    func delete(_ shown: [Note], at offsets: IndexSet) -> Task<Void, any Error> {
        let keys = offsets.filter(shown.indices.contains).map { shown[$0].identifier }
        return Task { try await store.write { tx in for key in keys { try tx.delete(Note.self, key: key) } } }
    }

    @discardableResult
    func add() -> Task<Void, any Error> {
        Task { try await store.write { tx in try tx.insert(Note(content: "New note")) } }
    }
}

@available(macOS 14, iOS 17, *)
extension NotesList {
    /// What the tests look at and do, as the view would.
    var shown: LiveQuery<[Note]> { notes }

    /// What typing `text` into the search field does.
    func type(_ text: String) throws {
        search = text
        try notes.update(Self.notes(containing: text))
    }
}

/// The article's observations outside a view.
enum LiveDataLoops {
    /// Shows the notes each time they change, until the task is cancelled.
    static func followNotes(in store: RemodelStore, show: @escaping @Sendable ([Note]) -> Void) async throws {
        for try await notes in store.observe({ db in try db.objects(Note.self).fetchAll() }) {
            show(notes)
        }
    }

    /// Shows one person each time she changes, and nil once she is deleted.
    static func follow(_ ada: Person, in store: RemodelStore, show: @escaping @Sendable (Person?) -> Void) async throws {
        for try await person in store.observe(Person.self, key: ada.id) {
            show(person)
        }
    }

    /// Shows one person's profile, only when what the profile holds changes.
    static func followProfile(of ada: Person, in store: RemodelStore, show: @escaping @Sendable (Profile?) -> Void) async throws {
        for try await profile in store.observe(Person.self, key: ada.id, as: Profile.init) {
            show(profile)
        }
    }

    /// Reads and writes from async code without blocking the caller's thread.
    static func archive(_ note: Note, in store: RemodelStore) async throws -> Int {
        try await store.write { tx in
            var archived = note
            archived.content = "[archived] " + note.content
            try tx.update(archived)
        }
        return try await store.read { db in try db.objects(Note.self).count() }
    }
}
