import RemodelCore
import Testing

@Suite struct DefaultValueTests {
    /// Found by the schema fuzz target: a `.nan` default made a schema unequal to itself, so a
    /// schema and its reloaded snapshot compared different and broke `Hashable`'s contract.
    @Test func aNaNDefaultEqualsItselfAndHashesTheSame() {
        let nan = DefaultValue.double(.nan)
        #expect(nan == DefaultValue.double(.nan))
        #expect(Set([nan, DefaultValue.double(.nan)]).count == 1)
        let object = ObjectType(name: "Sample", properties: [Property("ratio", .scalar(.double), default: .double(.nan))])
        #expect(Schema(objects: [object]) == Schema(objects: [object]))
    }

    @Test func differentDefaultsStayDifferent() {
        #expect(DefaultValue.double(0) != .double(-0.0))
        #expect(DefaultValue.double(1) != .int(1))
        #expect(DefaultValue.string("a") != .enumCase("a"))
        #expect(DefaultValue.double(.infinity) == .double(.infinity))
    }
}
