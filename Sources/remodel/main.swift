import RemodelCommandLine

// The tool lives in RemodelCommandLine, so that apps can build their own with custom steps.
RemodelTool().main()
