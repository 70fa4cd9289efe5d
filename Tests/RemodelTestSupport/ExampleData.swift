import Foundation

/// Data of the example app's schema, generated to any size: for the CLI tests that need a
/// store big enough to show progress, and the `transfer` benchmark.
public enum ExampleData {
    /// A version-1 document (`remodel import` JSON) with `people` Persons, as many Dogs (one
    /// each, a seventh of them with a weight that is not a number), and a Note: `2 × people +
    /// 1` objects.
    public static func generatedV1(people: Int) -> String {
        let units = ["Eng", "HR", "Docs", "Sales", "Marketing"]
        var persons: [String] = []
        var dogs: [String] = []
        persons.reserveCapacity(people)
        dogs.reserveCapacity(people)
        for index in 0..<people {
            let dog = String(format: "00000000-0000-0000-0000-%012X", index + 1)
            persons.append(
                #"{"_id": "\#(String(format: "%024x", index + 1))", "name": "First\#(index) Last\#(index)", "employeeId": "E-\#(index)", "company": "Co", "businessUnit": "\#(units[index % units.count])", "dogs": ["\#(dog)"]}"#
            )
            dogs.append(#"{"_id": "\#(dog)", "name": "Dog \#(index)", "breed": "Mixed", "weight": "\#(index % 7 == 0 ? "heavy" : String(index % 50))"}"#)
        }
        return
            #"{"Person": [\#(persons.joined(separator: ", "))], "Dog": [\#(dogs.joined(separator: ", "))], "Note": [{"identifier": "n1", "content": "hello", "lastEdited": "2026-01-01T00:00:00Z"}]}"#
    }
}
