import Foundation

/// A complete, validated object schema: every enum, object type and projection of an app,
/// in declaration order.
///
/// `Schema` is a plain value with no source locations; it is what generated code embeds, what
/// a store records and what migrations diff. `RemodelSchema` builds it from YAML.
public struct Schema: Hashable, Sendable {
    public var enums: [EnumType] { didSet { names = NameIndex() } }
    public var objects: [ObjectType] { didSet { names = NameIndex() } }
    public var projections: [Projection]
    /// Positions by name, built on first lookup: planners and validators look types up by
    /// name for every property, and a walk over a thousand types each time is quadratic.
    private var names = NameIndex()

    public init(enums: [EnumType] = [], objects: [ObjectType] = [], projections: [Projection] = []) {
        self.enums = enums
        self.objects = objects
        self.projections = projections
    }

    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.enums == rhs.enums && lhs.objects == rhs.objects && lhs.projections == rhs.projections
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(enums)
        hasher.combine(objects)
        hasher.combine(projections)
    }

    /// The enum named `name`, if the schema declares one.
    public func enumType(named name: String) -> EnumType? {
        names.position(of: name, in: enums, \.name).map { enums[$0] }
    }

    /// The object type named `name`, if the schema declares one.
    public func objectType(named name: String) -> ObjectType? {
        names.position(of: name, in: objects, \.name).map { objects[$0] }
    }

    /// The projection named `name`, if the schema declares one.
    public func projection(named name: String) -> Projection? {
        projections.first { $0.name == name }
    }

    /// True when the schema declares nothing at all.
    public var isEmpty: Bool {
        enums.isEmpty && objects.isEmpty && projections.isEmpty
    }
}

/// The positions of a schema's types by name (the first of duplicates, as a walk finds it),
/// made once per schema value and dropped when its types change.
private final class NameIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var positions: [ObjectIdentifier: [String: Int]] = [:]

    func position<Element>(of name: String, in elements: [Element], _ key: (Element) -> String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        let kind = ObjectIdentifier(Element.self)
        if let found = positions[kind] { return found[name] }
        var made: [String: Int] = [:]
        made.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() where made[key(element)] == nil { made[key(element)] = index }
        positions[kind] = made
        return made[name]
    }
}
