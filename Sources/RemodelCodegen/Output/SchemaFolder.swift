import Foundation

/// Facts about the input folders that generated code records, worked out the same way by the
/// CLI, the build plugin and the benchmarks.
public enum SchemaFolder {
    /// The schema files as generated headers name them: relative to the folder that holds
    /// the schema folder (`Schemas/Person.yaml`), whatever path the tool was given, so that
    /// output never depends on where the package was checked out.
    public static func displayNames(of files: [String], schemasPath: String) -> [String] {
        let root = URL(fileURLWithPath: schemasPath).standardizedFileURL
        let rootPath = root.path
        let folderName = root.lastPathComponent
        return files.map { file in
            let path = URL(fileURLWithPath: file).standardizedFileURL.path
            if path == rootPath { return folderName }
            if path.hasPrefix(rootPath + "/") { return folderName + "/" + path.dropFirst(rootPath.count + 1) }
            return URL(fileURLWithPath: file).lastPathComponent
        }
    }

    /// The schema version DESIGN.md defines: the number of the newest `NNNN-name.yaml` file in
    /// the migrations folder, or 1 when the folder does not exist or holds none.
    public static func version(migrationsPath: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: migrationsPath)) ?? []
        let numbers = names.compactMap { name -> Int? in
            guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { return nil }
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, name.dropFirst(digits.count).first == "-" else { return nil }
            return Int(digits)
        }
        return max(1, numbers.max() ?? 1)
    }
}
