// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "remodel",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "RemodelStore", targets: ["RemodelStore"]),
        .library(name: "RemodelMigrate", targets: ["RemodelMigrate"]),
        .library(name: "RemodelCore", targets: ["RemodelCore"]),
        .executable(name: "remodel", targets: ["remodel"]),
    ],
    targets: [
        // System libraries (Debian: libyaml-dev, libsqlite3-dev).
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),

        // Libraries, one per concern.
        .target(name: "RemodelCore"),
        .target(name: "RemodelSchema", dependencies: ["RemodelCore", "CYAML"]),
        .target(name: "RemodelStore", dependencies: ["RemodelCore", "CSQLite"]),
        .target(name: "RemodelMigrate", dependencies: ["RemodelCore", "RemodelStore", "CSQLite"]),
        .target(name: "RemodelCodegen", dependencies: ["RemodelCore"]),

        // The command-line tool: parses arguments, calls the libraries.
        .executableTarget(
            name: "remodel",
            dependencies: ["RemodelCore", "RemodelSchema", "RemodelStore", "RemodelMigrate", "RemodelCodegen"]
        ),

        // Release-build benchmarks: `swift run -c release remodel-benchmarks --help`.
        .executableTarget(
            name: "remodel-benchmarks",
            dependencies: ["RemodelCore", "RemodelSchema", "RemodelStore", "RemodelMigrate", "RemodelCodegen", "CSQLite"],
            path: "Benchmarks/remodel-benchmarks"
        ),

        .testTarget(name: "RemodelCoreTests", dependencies: ["RemodelCore"]),
        .testTarget(
            name: "RemodelSchemaTests",
            dependencies: ["RemodelSchema", "RemodelCore"],
            resources: [.copy("Corpus")]
        ),
        .testTarget(name: "RemodelStoreTests", dependencies: ["RemodelStore", "RemodelCore", "CSQLite"]),
        .testTarget(name: "RemodelMigrateTests", dependencies: ["RemodelMigrate", "RemodelStore", "RemodelCore"]),
        .testTarget(
            name: "RemodelCodegenTests",
            dependencies: ["RemodelCodegen", "RemodelSchema", "RemodelCore"],
            exclude: ["Schemas", "References"]
        ),
        // Compiles and runs the code generator's reference output (References is a symlink to
        // Tests/RemodelCodegenTests/References).
        .testTarget(name: "RemodelCodegenReferenceTests", dependencies: ["RemodelStore", "RemodelSchema", "RemodelCore"]),
        // Re-records those references: `swift run remodel-record-references`.
        .executableTarget(
            name: "remodel-record-references",
            dependencies: ["RemodelCodegen", "RemodelSchema", "RemodelCore"],
            path: "Tests/RemodelCodegenRecorder"
        ),
        .testTarget(name: "RemodelCLITests", dependencies: ["RemodelCore"]),
    ]
)
