// swift-tools-version:6.0
// An app outside the remodel package: depends on it by relative path, lists the build plugin,
// keeps its own schema in Schemas/, and builds its own remodel with a custom migration step.
// IntegrationTests/run.sh builds and runs it.
import PackageDescription

let package = Package(
    name: "OutsidePackage",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "remodel", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "Zoo",
            dependencies: [
                .product(name: "RemodelStore", package: "remodel"),
                .product(name: "RemodelCore", package: "remodel"),
            ],
            plugins: [.plugin(name: "RemodelPlugin", package: "remodel")]
        ),
        // The zoo's own remodel, with its custom migration steps registered.
        .executableTarget(
            name: "zoo-remodel",
            dependencies: [.product(name: "RemodelCommandLine", package: "remodel")]
        ),
    ]
)
