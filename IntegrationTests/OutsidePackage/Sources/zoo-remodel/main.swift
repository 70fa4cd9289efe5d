// The zoo's own `remodel`: the same tool, with the zoo's custom migration steps registered.
// `swift run zoo-remodel migrate --store zoo.sqlite` runs migrations the plain tool refuses.
import RemodelCommandLine

var tool = RemodelTool()
// Names written in any case become Title Case ("pINGU" → "Pingu").
tool.register("titleCaseNames") { object in
    if case .text(let name) = object.new["name"] {
        object.new["name"] = .text(name.prefix(1).uppercased() + name.dropFirst().lowercased())
    }
}
tool.main()
