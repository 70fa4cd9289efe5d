import RemodelCore
import Testing

/// A property that changes from a scalar to an enum or a link is a retype, even though the
/// enum or object type is new (it has no old name to be renamed from).
@Suite struct SchemaDiffRetypeTests {
    @Test func scalarToNewEnumIsARetype() {
        let old = Schema(objects: [
            ObjectType(
                name: "Person", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.string)),
                    Property("unit", .scalar(.string), default: .string("")),
                ])
        ])
        var new = old
        new.enums = [EnumType(name: "Unit", cases: [.init(name: "eng", rawValue: .string("Eng"))])]
        new.objects[0].properties[1] = Property("unit", PropertyType(.enumeration("Unit")), default: .enumCase("eng"))
        let diff = SchemaDiff(from: old, to: new)
        #expect(
            diff.changes.contains(
                SchemaChange(.propertyRetyped(type: "Person", property: "unit", from: .scalar(.string), to: PropertyType(.enumeration("Unit"))), impact: .dataDependent)))
    }

    @Test func linkToRenamedTypeIsNotARetype() {
        let old = Schema(objects: [
            ObjectType(name: "Doggo", primaryKey: "id", properties: [Property("id", .scalar(.string))]),
            ObjectType(name: "Person", primaryKey: "id", properties: [Property("id", .scalar(.string)), Property("dog", PropertyType(.object("Doggo"), optional: true))]),
        ])
        var new = old
        new.objects[0].name = "Dog"
        new.objects[0].renamedFrom = "Doggo"
        new.objects[1].properties[1] = Property("dog", PropertyType(.object("Dog"), optional: true))
        let diff = SchemaDiff(from: old, to: new)
        #expect(!diff.changes.contains { if case .propertyRetyped = $0.kind { true } else { false } })
    }
}
