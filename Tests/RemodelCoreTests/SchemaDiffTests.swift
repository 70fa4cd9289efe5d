import RemodelCore
import Testing

@Suite struct SchemaDiffTests {
    static let person = ObjectType(
        name: "Person", primaryKey: "_id",
        properties: [
            Property("_id", .scalar(.objectId), default: .generated(.objectId)),
            Property("name", .scalar(.string), default: .string("")),
            Property("employeeId", .scalar(.string), default: .string("")),
            Property("weight", .scalar(.string), default: .string("")),
            Property("dogs", PropertyType(.object("Dog"), collection: .list)),
        ])
    static let dog = ObjectType(
        name: "Dog", primaryKey: "_id",
        properties: [
            Property("_id", .scalar(.uuid), default: .generated(.uuid)),
            Property(name: "owners", kind: .inverse(type: "Person", property: "dogs")),
        ])
    static let old = Schema(objects: [person, dog])

    func descriptions(_ diff: SchemaDiff) -> [String] {
        diff.changes.map { "\($0.impact.rawValue): \($0)" }
    }

    @Test func identicalSchemasHaveNoChanges() {
        let diff = SchemaDiff(from: Self.old, to: Self.old)
        #expect(diff.changes.isEmpty)
        #expect(diff.impact == nil)
        #expect(diff.types == RenameMap([("Dog", "Dog"), ("Person", "Person")]))
    }

    @Test func classifiesPropertyChanges() {
        var new = Self.old
        new.objects[0].properties = [
            Property("_id", .scalar(.objectId), default: .generated(.objectId)),
            Property("firstName", .scalar(.string), default: .string("")),
            Property("personId", .scalar(.string), default: .string(""), renamedFrom: "employeeId"),
            Property("weight", .scalar(.int), default: .int(0), indexed: true),
            Property("dogs", PropertyType(.object("Dog"), collection: .list)),
            Property("nickname", .scalar(.string)),
            Property("url", .scalar(.url, optional: true)),
        ]
        let diff = SchemaDiff(from: Self.old, to: new)
        #expect(
            descriptions(diff) == [
                "additive: property Person.firstName added",
                "additive: property Person.employeeId renamed to personId",
                "data-dependent: property Person.weight changed type from string to int",
                "additive: index on Person.weight added",
                "additive: default of Person.weight changed",
                "data-dependent: property Person.nickname added",
                "additive: property Person.url added",
                "destructive: property Person.name removed",
            ])
        #expect(diff.impact == .destructive)
        #expect(diff.properties["Person"]?.old(for: "personId") == "employeeId")
        #expect(diff.properties["Person"]?.new(for: "employeeId") == "personId")
    }

    @Test func explicitRenamesWinAndFollowLinks() {
        var new = Self.old
        new.objects[1].name = "Hound"
        new.objects[0].properties[4] = Property("dogs", PropertyType(.object("Hound"), collection: .list))
        new.objects[0].properties[1].name = "fullName"
        let diff = SchemaDiff(from: Self.old, to: new, renames: .init(types: RenameMap([("Dog", "Hound")]), properties: ["Person": RenameMap([("name", "fullName")])]))
        #expect(
            descriptions(diff) == [
                "additive: property Person.name renamed to fullName",
                "additive: type Dog renamed to Hound",
            ])
    }

    @Test func enumsAndOptionality() {
        let oldEnum = EnumType(name: "Unit", cases: [.init(name: "eng", rawValue: .string("Eng")), .init(name: "hr", rawValue: .string("HR"))])
        var newEnum = oldEnum
        newEnum.cases = [.init(name: "eng", rawValue: .string("Engineering")), .init(name: "sales", rawValue: .string("Sales"))]
        var old = Self.old
        old.enums = [oldEnum]
        old.objects[0].properties.append(Property("unit", PropertyType(.enumeration("Unit"), optional: true)))
        var new = old
        new.enums = [newEnum]
        new.objects[0].properties[5] = Property("unit", PropertyType(.enumeration("Unit")))
        new.objects[0].properties[1] = Property("name", .scalar(.string, optional: true), default: .string(""))
        #expect(
            descriptions(SchemaDiff(from: old, to: new)) == [
                "data-dependent: raw value of Unit.eng changed from Eng to Engineering",
                "additive: case Unit.sales added",
                "data-dependent: case Unit.hr removed",
                "additive: property Person.name became optional",
                "data-dependent: property Person.unit became required",
            ])
    }

    @Test func removedTypesAreDestructive() {
        let diff = SchemaDiff(from: Self.old, to: Schema(objects: [Self.person.withoutDogs]))
        #expect(
            descriptions(diff) == [
                "destructive: property Person.dogs removed",
                "destructive: type Dog removed",
            ])
    }

    @Test(arguments: [
        (ScalarType.int8, ScalarType.int64, SchemaChange.Impact.additive),
        (.int64, .int32, .dataDependent),
        (.float, .double, .additive),
        (.double, .float, .dataDependent),
        (.int, .string, .additive),
        (.string, .int, .dataDependent),
    ])
    func scalarRetypes(from: ScalarType, to: ScalarType, impact: SchemaChange.Impact) {
        var old = Self.old
        old.objects[0].properties[3] = Property("weight", .scalar(from))
        var new = Self.old
        new.objects[0].properties[3] = Property("weight", .scalar(to))
        #expect(SchemaDiff(from: old, to: new).changes.map(\.impact) == [impact])
    }

    @Test func renamesSeenBackwards() {
        let forward = SchemaDiff.Renames(
            types: RenameMap([(old: "Doggo", new: "Dog"), (old: "Person", new: "Person")]),
            properties: ["Dog": RenameMap([(old: "kg", new: "weight")]), "Person": RenameMap([(old: "name", new: "fullName")])]
        )
        let backwards = forward.reversed
        #expect(backwards.types.new(for: "Dog") == "Doggo")
        #expect(backwards.types.old(for: "Doggo") == "Dog")
        // Properties stay keyed by the type's name in the schema compared to: the old one now.
        #expect(backwards.properties["Doggo"]?.new(for: "weight") == "kg")
        #expect(backwards.properties["Dog"] == nil)
        #expect(backwards.properties["Person"]?.new(for: "fullName") == "name")
        #expect(backwards.reversed == forward)
    }
}

extension ObjectType {
    var withoutDogs: ObjectType {
        var copy = self
        copy.properties.removeAll { $0.name == "dogs" }
        return copy
    }
}
