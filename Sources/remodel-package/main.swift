import Foundation
import RemodelFileCommands

// The tool of `swift package remodel` (the RemodelCommand plugin): the `remodel` commands that
// need only a package's files — validate, check, diff, diagram, generate, migration, test,
// json-schema — with the same options, messages and exit statuses. Without the store commands
// and RemodelPostgres, an app's first `swift package remodel` builds less for the host.
exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), settings: ToolSettings(), commands: FileCommands.all))
