import Foundation
import RemodelStore

SQLiteLibrary.disableMemoryStatistics()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
