// swift-tools-version:6.0
// A standalone package (not part of Remodel's package): GRDB's ValueObservation measured the way
// `remodel-benchmarks observe` measures Remodel's store observation. Build it with build.sh,
// which exports GRDB's sources and sets GRDB_PATH.
import Foundation
import PackageDescription

// The folder holding GRDB's Package.swift. A path dependency's identity is the folder's name.
let grdbPath = ProcessInfo.processInfo.environment["GRDB_PATH"] ?? "GRDB"
let grdbIdentity = URL(fileURLWithPath: grdbPath).standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "grdb-observe",
    platforms: [.macOS(.v10_15)],
    dependencies: [.package(path: grdbPath)],
    targets: [
        .executableTarget(
            name: "grdb-observe-benchmark",
            dependencies: [.product(name: "GRDB", package: grdbIdentity)]
        )
    ],
    swiftLanguageModes: [.v6]
)
