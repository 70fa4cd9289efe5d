// swift-tools-version:6.0
import PackageDescription

// SQLite: on Apple platforms the SDK's own (`usr/include/sqlite3.h`, `usr/lib/libsqlite3.tbd`),
// which the compiler and linker find without pkg-config; Apple SDKs ship no `sqlite3.pc`, and
// looking for one would only warn, or find Homebrew's macOS-only library for an iOS build.
// Elsewhere the system's, located through `sqlite3.pc` (Debian: libsqlite3-dev).
#if os(macOS)
    let sqlite = Target.systemLibrary(name: "CSQLite")
#else
    let sqlite = Target.systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])])
#endif

let package = Package(
    name: "remodel",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "RemodelStore", targets: ["RemodelStore"]),
        .library(name: "RemodelMigrate", targets: ["RemodelMigrate"]),
        .library(name: "RemodelCore", targets: ["RemodelCore"]),
        // What the Realm output of `remodel generate --realm` links: the migration block's value rules, the copy's report.
        .library(name: "RemodelRealm", targets: ["RemodelRealm"]),
        // A server app's store in PostgreSQL (needs libpq): the generated models, migrations at boot.
        .library(name: "RemodelPostgres", targets: ["RemodelPostgres"]),
        // For an app's test targets: stores at any version from JSON, migrated with the app's own
        // custom steps; generated data for every version of a history (`remodel test`).
        .library(name: "RemodelTesting", targets: ["RemodelTesting"]),
        // The tool as a library: an app's own `remodel` with its custom migration steps.
        .library(name: "RemodelCommandLine", targets: ["RemodelCommandLine"]),
        .executable(name: "remodel", targets: ["remodel"]),
        // Generates models from Schemas/ during `swift build`.
        .plugin(name: "RemodelPlugin", targets: ["RemodelPlugin"]),
        // `swift package --allow-writing-to-package-directory generate-models --target NAME`.
        .plugin(name: "RemodelGenerateModels", targets: ["RemodelGenerateModels"]),
        // `swift package remodel check` (validate, diff, diagram, generate, migration new|amend|hash|squash)
        // on the package's own Schemas/ and Migrations/, without installing the tool.
        .plugin(name: "RemodelCommand", targets: ["RemodelCommand"]),
    ],
    targets: [
        // System libraries (Debian: libyaml-dev, libsqlite3-dev; macOS: Homebrew's libyaml, the
        // SDK's SQLite). libpq is not linked: RemodelPostgres loads it when it first connects.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        sqlite,

        // Libraries, one per concern.
        .target(name: "RemodelCore"),
        .target(name: "RemodelSchema", dependencies: ["RemodelCore", "CYAML"]),
        // How a schema is laid out in tables, SQL as trees and their SQLite text, values in
        // their stored form: pure, no SQLite library. RemodelStore re-exports it.
        .target(name: "RemodelLayout", dependencies: ["RemodelCore"]),
        .target(name: "RemodelStore", dependencies: ["RemodelCore", "RemodelLayout", "CSQLite"]),
        // Migration planning and the history check: a history to the plan that runs it, without
        // a store. RemodelMigrate re-exports it and runs the plans.
        .target(name: "RemodelPlanning", dependencies: ["RemodelCore", "RemodelLayout"]),
        .target(name: "RemodelMigrate", dependencies: ["RemodelCore", "RemodelPlanning", "RemodelStore", "CSQLite"]),
        .target(name: "RemodelCodegen", dependencies: ["RemodelCore"]),
        // `remodel diagram`: the object model, or what a migration changes, as one drawing
        // model rendered to Mermaid and Graphviz DOT. Pure, no schema loading.
        .target(name: "RemodelDiagram", dependencies: ["RemodelCore"]),
        // PostgreSQL through libpq, loaded at the first connection (so only PostgreSQL stores need
        // it): connections, statements, errors with their SQLSTATE; the store's layout, data format
        // and values (RemodelStore's JSON and persistence protocols) on a server.
        .target(name: "RemodelPostgres", dependencies: ["RemodelCore", "RemodelLayout", "RemodelStore", "RemodelPlanning", "RemodelMigrate"]),
        .target(name: "RemodelRealm", dependencies: ["RemodelCore"]),
        // Migration testing without a device: stores at a version made from JSON, generated
        // data aimed at each version's steps, direct and version-by-version results compared.
        .target(name: "RemodelTesting", dependencies: ["RemodelCore", "RemodelStore", "RemodelMigrate"]),
        // What `remodel generate` and the build plugin's tool share: the schema and history loaded
        // and checked as every command does, the plugin options, generating and writing the
        // files, and printing diagnostics. Needs no store, no migration execution and no CI gate.
        .target(name: "RemodelGeneration", dependencies: ["RemodelCore", "RemodelSchema", "RemodelPlanning", "RemodelCodegen"]),
        // `remodel check`: the CI gate's rules over the schema, the history and generated code.
        .target(name: "RemodelCheck", dependencies: ["RemodelCore", "RemodelSchema", "RemodelMigrate", "RemodelCodegen", "RemodelGeneration"]),

        // The command line's machinery (arguments, help, progress) and the commands that need only
        // a package's files (validate, check, diff, diagram, generate, migration, test,
        // json-schema): what `swift package remodel` runs, without RemodelPostgres.
        .target(
            name: "RemodelFileCommands",
            dependencies: [
                "RemodelCore", "RemodelSchema", "RemodelStore", "RemodelMigrate", "RemodelCodegen", "RemodelCheck", "RemodelGeneration", "RemodelDiagram", "RemodelTesting",
            ]
        ),
        // The command-line tool: the file commands and those on stores (migrate, status, import,
        // export, init, fixture), on SQLite and PostgreSQL. The executable only starts it, so
        // that apps can build their own with custom steps.
        .target(
            name: "RemodelCommandLine",
            dependencies: ["RemodelFileCommands", "RemodelCore", "RemodelSchema", "RemodelStore", "RemodelMigrate", "RemodelGeneration", "RemodelPostgres", "RemodelTesting"]
        ),
        .executableTarget(name: "remodel", dependencies: ["RemodelCommandLine"]),
        // The command plugin's tool: RemodelFileCommands' commands and nothing else.
        .executableTarget(name: "remodel-package", dependencies: ["RemodelFileCommands"]),
        // The build plugins' tool: `remodel generate` and nothing else (RemodelGeneration), so
        // that an app's first build compiles for the host only what generating needs.
        .executableTarget(name: "remodel-generate", dependencies: ["RemodelGeneration"]),

        // Plugins: the build plugin and generate-models run remodel-generate; `swift package remodel`
        // runs remodel-package. Shared code in Plugins/PluginsShared, symlinked.
        .plugin(name: "RemodelPlugin", capability: .buildTool(), dependencies: ["remodel-generate"]),
        .plugin(
            name: "RemodelGenerateModels",
            capability: .command(
                intent: .custom(verb: "generate-models", description: "Write a target's generated Swift models into the package."),
                permissions: [.writeToPackageDirectory(reason: "writes the generated Swift files into the target's Generated/ folder")]
            ),
            dependencies: ["remodel-generate"]
        ),
        // The `remodel` commands that need only the package's files, through remodel-package.
        .plugin(
            name: "RemodelCommand",
            capability: .command(
                intent: .custom(verb: "remodel", description: "Run remodel validate, check, diff, diagram, generate, migration, test or json-schema on this package's schemas.")),
            dependencies: ["remodel-package"]
        ),

        // The example app's models, generated by RemodelPlugin from Schemas/.
        .target(name: "RemodelExample", dependencies: ["RemodelStore", "RemodelCore"], plugins: ["RemodelPlugin"]),

        // Release-build benchmarks: `swift run -c release remodel-benchmarks --help`.
        .executableTarget(
            name: "remodel-benchmarks",
            dependencies: ["RemodelCore", "RemodelSchema", "RemodelStore", "RemodelMigrate", "RemodelCodegen", "RemodelPostgres", "RemodelTestSupport", "CSQLite"],
            path: "Benchmarks/remodel-benchmarks"
        ),

        // Fuzzing: the targets (also replayed by RemodelFuzzTests) and `remodel-fuzz`, a
        // mutation driver, or libFuzzer's with -sanitize=fuzzer (Fuzz/run.sh).
        .target(
            name: "RemodelFuzzTargets",
            dependencies: ["RemodelCore", "RemodelSchema", "RemodelStore", "RemodelMigrate", "RemodelCodegen"],
            path: "Fuzz/RemodelFuzzTargets"
        ),
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        .executableTarget(name: "remodel-fuzz", dependencies: ["RemodelFuzzTargets", "CFuzzerDriver"], path: "Fuzz/remodel-fuzz"),

        // The example history as Swift values, the migration plan and diagram references, shared
        // by the migration, code generator and diagram tests and the reference recorder; the
        // throwaway PostgreSQL server of the PostgreSQL tests.
        .target(name: "RemodelTestSupport", dependencies: ["RemodelCore", "RemodelMigrate", "RemodelSchema", "RemodelDiagram", "RemodelStore"], path: "Tests/RemodelTestSupport"),
        .testTarget(name: "RemodelCoreTests", dependencies: ["RemodelCore"]),
        .testTarget(
            name: "RemodelTestingTests",
            dependencies: [
                "RemodelTesting", "RemodelMigrate", "RemodelPlanning", "RemodelStore", "RemodelCore", "RemodelGeneration", "RemodelTestSupport", "RemodelExample",
            ]
        ),
        .testTarget(
            name: "RemodelSchemaTests",
            dependencies: ["RemodelSchema", "RemodelCore"],
            resources: [.copy("Corpus")]
        ),
        .testTarget(name: "RemodelStoreTests", dependencies: ["RemodelStore", "RemodelCore", "CSQLite", "RemodelExample", "RemodelTestSupport"]),
        // Against a throwaway server each run starts (PostgresTestServer); skipped by name
        // where PostgreSQL's server programs are not installed.
        .testTarget(
            name: "RemodelPostgresTests",
            dependencies: [
                "RemodelPostgres", "RemodelLayout", "RemodelCore", "RemodelSchema", "RemodelStore", "RemodelMigrate", "RemodelTestSupport", "RemodelExample", "RemodelCodegen",
            ],
            exclude: ["References"]),
        .testTarget(
            name: "RemodelMigrateTests",
            dependencies: ["RemodelMigrate", "RemodelPlanning", "RemodelStore", "RemodelCore", "RemodelSchema", "RemodelTestSupport", "RemodelCodegen"],
            exclude: ["References"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "RemodelCodegenTests",
            dependencies: ["RemodelCodegen", "RemodelSchema", "RemodelCore", "RemodelTestSupport"],
            exclude: ["Schemas", "Histories", "References", "RealmReferences"]
        ),
        // Compiles and runs the code generator's reference output (References is a symlink to
        // Tests/RemodelCodegenTests/References).
        .testTarget(
            name: "RemodelCodegenReferenceTests", dependencies: ["RemodelStore", "RemodelSchema", "RemodelCore", "RemodelMigrate", "RemodelPostgres", "RemodelTestSupport"]
        ),
        // Re-records those references, the migration plan references and the diagram
        // references: `swift run remodel-record-references`.
        .executableTarget(
            name: "remodel-record-references",
            dependencies: ["RemodelCodegen", "RemodelSchema", "RemodelCore", "RemodelDiagram", "RemodelTestSupport"],
            path: "Tests/RemodelCodegenRecorder"
        ),
        // The diagram references (References/, re-recorded with `swift run remodel-record-references`),
        // Graphviz rendering every DOT output (skipped by name where `dot` is not installed),
        // and a check of the Mermaid output against the class diagram grammar.
        .testTarget(
            name: "RemodelDiagramTests",
            dependencies: ["RemodelDiagram", "RemodelCore", "RemodelSchema", "RemodelTestSupport", "RemodelCodegen"],
            exclude: ["References", "Schemas"]
        ),
        .testTarget(name: "RemodelExampleTests", dependencies: ["RemodelExample", "RemodelStore", "RemodelMigrate", "RemodelCore"]),
        .testTarget(name: "RemodelCLITests", dependencies: ["RemodelCore", "RemodelTestSupport", "RemodelStore", "RemodelExample"]),
        // The command-line tool's own logic that is worth testing apart from the binary (the progress line).
        .testTarget(name: "RemodelCommandLineTests", dependencies: ["RemodelFileCommands", "RemodelMigrate", "RemodelStore"]),
        .testTarget(name: "RemodelFuzzTests", dependencies: ["RemodelFuzzTargets"], resources: [.copy("Regressions")]),

        // A test-only mirror of realm-swift 10.54.6's API (module `RealmSwift`, not a product)
        // with an in-memory runtime, to type-check and run the code `remodel generate --realm` writes.
        // Outside the package's `package` access, as realm-swift is: clients' `@retroactive` conformances apply.
        .target(name: "RealmSwift", path: "Tests/RealmSwiftMirror", packageAccess: false),
        .testTarget(name: "RealmSwiftMirrorTests", dependencies: ["RealmSwift"]),
        // The Realm output of `remodel generate --realm` (Tests/RemodelCodegenTests/RealmReferences,
        // symlinked as Generated/), compiled against that mirror and run; one target per case,
        // since each declares its module's URL conformance.
        .testTarget(name: "RemodelRealmTests", dependencies: ["RealmSwift", "RemodelRealm", "RemodelStore", "RemodelCore"]),
        .testTarget(name: "RemodelRealmEverythingTests", dependencies: ["RealmSwift", "RemodelRealm", "RemodelStore", "RemodelCore", "RemodelMigrate"]),
    ]
)
