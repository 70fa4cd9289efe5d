import RemodelCore
import RemodelDiagram
import RemodelMigrate
import RemodelTestSupport
import Testing

/// What a diagram holds, before any format: nodes, members, edges and their marks, for the
/// focused schemas and the example's history.
@Suite struct DiagramModelTests {
    private func node(_ diagram: Diagram, _ name: String) throws -> Diagram.Node {
        try #require(diagram.nodes.first { $0.name == name }, "no node \(name)")
    }

    private func member(_ node: Diagram.Node, _ name: String) throws -> Diagram.Member {
        try #require(node.members.first { $0.name == name }, "no member \(node.name).\(name)")
    }

    private func edges(_ diagram: Diagram, from: String, _ member: String) -> [Diagram.Edge] {
        diagram.edges.filter { $0.from == from && $0.member == member }
    }

    @Test func linksCarryTheirKindAndMultiplicity() throws {
        let diagram = Diagram(schema: try DiagramReferences.schema("Collections.yaml"))
        #expect(diagram.nodes.map(\.name) == ["Owner", "Pet", "Size", "Colour"])
        #expect(diagram.nodes.map(\.kind) == [.object, .object, .enumeration, .enumeration])
        let expected: [(member: String, to: String, kind: Diagram.Edge.Kind, text: String, multiplicity: String?)] = [
            ("best", "Pet", .link, "best", "0..1"),
            ("pets", "Pet", .link, "pets (list)", "*"),
            ("favourites", "Pet", .link, "favourites (set)", "*"),
            ("byName", "Pet", .link, "byName (map, string keys)", "*"),
            ("mentor", "Owner", .link, "mentor", "0..1"),
            ("colours", "Colour", .enumeration, "colours (set)", "*"),
            ("sizes", "Size", .enumeration, "sizes (map, string keys)", "*"),
        ]
        for entry in expected {
            let found = edges(diagram, from: "Owner", entry.member)
            #expect(found.count == 1, "\(entry.member)")
            #expect(found.first?.to == entry.to && found.first?.kind == entry.kind, "\(entry.member)")
            #expect(found.first?.text == entry.text)
            #expect(found.first?.multiplicity == entry.multiplicity, "\(entry.member)")
        }
        // Scalars draw no edge; a single enum value no multiplicity.
        #expect(edges(diagram, from: "Owner", "scores").isEmpty && edges(diagram, from: "Owner", "name").isEmpty)
        #expect(edges(diagram, from: "Pet", "size").first?.multiplicity == nil)
        // Inverse relationships point at the link they follow.
        let owners = try #require(edges(diagram, from: "Pet", "owners").first)
        #expect(owners.kind == .inverse && owners.to == "Owner" && owners.toMember == "pets" && owners.text == "owners (inverse of pets)" && owners.multiplicity == "*")
        #expect(edges(diagram, from: "Pet", "bestOf").first?.toMember == "best")
        // Members: types as the schema spells them, keys and indexes, raw values where they say something.
        let owner = try node(diagram, "Owner")
        #expect(owner.members.map { $0.detail ?? "" } == ["int", "string", "Pet?", "list<Pet>", "set<Pet>", "map<Pet>", "Owner?", "set<Colour>", "map<Size>", "list<double?>"])
        #expect(try member(owner, "id").isPrimaryKey && member(owner, "id").tags == ["PK"])
        #expect(try member(owner, "name").tags == ["indexed"])
        #expect(try member(node(diagram, "Pet"), "owners").detail == "inverse of Owner.pets")
        #expect(try node(diagram, "Size").members.map(\.detail) == ["1", "2", "3"])
        #expect(try node(diagram, "Colour").members.map(\.detail) == [nil, nil, nil])
    }

    @Test func embeddedTypesAreDrawnWithTheirOnlyOwner() throws {
        let diagram = Diagram(schema: try DiagramReferences.schema("Embedded.yaml"))
        #expect(try node(diagram, "Address").kind == .embedded)
        // Address is held only by Customer; Position by Address and Note; Note by Order and Shipment.
        #expect(try node(diagram, "Address").group == "Customer")
        #expect(try node(diagram, "Position").group == nil)
        #expect(try node(diagram, "Note").group == nil)
        #expect(try node(diagram, "Customer").group == nil)
        #expect(edges(diagram, from: "Customer", "addresses").first?.kind == .embedding)
        #expect(edges(diagram, from: "Order", "customer").first?.kind == .link)
    }

    @Test func projectionsShowTheirTypesAndKeyPaths() throws {
        let history = ExampleHistory.history
        var schema = try #require(history.snapshots.last)
        schema.projections = [
            Projection(
                name: "Profile", of: "Person",
                properties: [
                    Projection.Property(name: "firstName", keyPath: "firstName"),
                    Projection.Property(name: "initial", keyPath: "lastName.first", type: "Character?"),
                ])
        ]
        let diagram = Diagram(schema: schema)
        let profile = try node(diagram, "Profile")
        #expect(profile.kind == .projection)
        #expect(profile.members.map(\.detail) == ["string", "Character?"])
        #expect(profile.members.map(\.notes) == [[], ["from lastName.first"]])
        #expect(diagram.edges.last == Diagram.Edge(from: "Profile", member: nil, to: "Person", kind: .projection, label: "projects"))
    }

    @Test func aComparisonMarksEveryKindOfChange() throws {
        let diagram = Diagram(comparing: try DiagramReferences.schema("Changes/old.yaml"), to: try DiagramReferences.schema("Changes/new.yaml"))
        #expect(diagram.isComparison)
        // Removed types where they were; added ones where they are.
        #expect(diagram.nodes.map(\.name) == ["Dog", "Person", "Address", "Legacy", "Shelter", "Status", "Size", "Mood"])
        #expect(diagram.nodes.map(\.mark) == [.changed, .unchanged, .changed, .removed, .added, .unchanged, .changed, .removed])

        let dog = try node(diagram, "Dog")
        #expect(dog.oldName == "Doggo" && dog.title == "Doggo → Dog")
        #expect(dog.members.map(\.name) == ["id", "displayName", "weight", "tags", "owner", "status", "kind", "nickname", "birthday"])
        #expect(dog.members.map(\.mark) == [.unchanged, .changed, .changed, .changed, .unchanged, .changed, .unchanged, .removed, .added])
        #expect(try member(dog, "displayName").title == "name → displayName")
        #expect(try member(dog, "weight").detailText == "string → int")
        #expect(try member(dog, "tags").detailText == "list<string> → set<string>")
        #expect(try member(dog, "status").notes == ["index added"])
        // A link or enum whose target was renamed is not retyped.
        #expect(try member(dog, "kind").oldDetail == nil)

        let person = try node(diagram, "Person")
        #expect(try member(person, "fullName").detailText == "string → string?")
        #expect(try member(person, "dogs").mark == .unchanged)
        #expect(person.members.last?.name == "email" && person.members.last?.mark == .removed)

        let address = try node(diagram, "Address")
        #expect(address.kind == .embedded && address.notes == ["became embedded", "primary key id → none"])
        #expect(try member(address, "id").mark == .removed)
        #expect(try node(diagram, "Legacy").members.allSatisfy { $0.mark == .removed })
        #expect(try node(diagram, "Shelter").members.allSatisfy { $0.mark == .added })

        let status = try node(diagram, "Status")
        #expect(status.members.map(\.name) == ["active", "archived", "legacy", "paused"])
        #expect(status.members.map(\.mark) == [.unchanged, .changed, .removed, .added])
        #expect(try member(status, "archived").detailText == "Archived → Archived (old)")
        #expect(try node(diagram, "Size").title == "Kind → Size")

        // Edges: a link that became an embedding is one removed and one added.
        let home = edges(diagram, from: "Person", "home")
        #expect(home.map(\.kind) == [.embedding, .link] && home.map(\.mark) == [.added, .removed])
        #expect(edges(diagram, from: "Shelter", "dogs").first?.mark == .added)
        #expect(edges(diagram, from: "Legacy", "owner").first?.mark == .removed)
        #expect(edges(diagram, from: "Person", "dogs").first?.mark == .unchanged)
        #expect(edges(diagram, from: "Dog", "kind").first.map { "\($0.to) \($0.mark)" } == "Size unchanged")
    }

    @Test func renamesFromMigrationStepsAreFollowed() throws {
        let history = ExampleHistory.history
        let plan = try Migrator(history: history).plan(from: 1, now: PlanReferences.now)
        let v1 = try #require(history.schema(at: 1))
        let v3 = try #require(history.schema(at: 3))
        let followed = Diagram(comparing: v1, to: v3, renames: plan.renamesAcrossVersions)
        let personID = try member(node(followed, "Person"), "personId")
        #expect(personID.oldName == "employeeId" && personID.mark == .changed)
        #expect(try node(followed, "Person").members.contains { $0.name == "employeeId" } == false)
        // Without the steps' renames, the property is removed and another added.
        let byName = Diagram(comparing: v1, to: v3)
        #expect(try member(node(byName, "Person"), "personId").mark == .added)
        #expect(try member(node(byName, "Person"), "employeeId").mark == .removed)
    }

    @Test func identifiersArePlainAndUnique() throws {
        // A type removed while an enum of its name is added; a name that is not ASCII.
        let old = Schema(objects: [
            ObjectType(name: "Thing", primaryKey: "id", properties: [Property("id", .scalar(.int))]),
            ObjectType(name: "Café", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("thing", PropertyType(.object("Thing"), optional: true))]),
        ])
        let new = Schema(
            enums: [EnumType(name: "Thing", cases: [EnumType.Case(name: "one", rawValue: .string("one"))])],
            objects: [
                ObjectType(name: "Café", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("thing", PropertyType(.enumeration("Thing"), optional: true))])
            ]
        )
        let diagram = Diagram(comparing: old, to: new)
        // The removed type where it was (first); the enum that remains keeps the plain name.
        #expect(diagram.nodes.map(\.id) == ["Thing_2", "Caf_e9", "Thing"])
        #expect(diagram.nodes.map(\.mark) == [.removed, .unchanged, .added])
        // The removed link points at the removed type, the added enum use at the enum.
        #expect(diagram.edges.map { "\($0.to) \($0.kind) \($0.mark)" } == ["Thing enumeration added", "Thing_2 link removed"])
        let read = MermaidClassDiagram(MermaidRenderer.render(diagram))
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.classes.map(\.title) == ["Thing", "Café", "Thing"])
    }

    /// What `--output` may replace without --force: a diagram as either renderer writes it,
    /// titled or not; not a file that merely holds one further down.
    @Test func aDiagramIsRecognisedByHowItStarts() throws {
        let schema = Schema(objects: [ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int))])])
        let titled = Diagram(comparing: schema, to: schema)
        for text in [MermaidRenderer.render(Diagram(schema: schema)), MermaidRenderer.render(titled), DotRenderer.render(Diagram(schema: schema)), DotRenderer.render(titled)] {
            #expect(DiagramFormat.isDiagram(text), "\(text)")
        }
        #expect(!DiagramFormat.isDiagram("---\ntitle: Notes\n---\n# Notes\n\n---\nclassDiagram\n"))
        #expect(!DiagramFormat.isDiagram("# Model\n\n```mermaid\nclassDiagram\n```\n"))
    }
}
