// The store's values, layout and SQL trees live in RemodelLayout, which the migration planner
// (and so the build plugin's tool) uses without SQLite; `import RemodelStore` brings them as
// before, so apps and generated code import one module.
@_exported import RemodelLayout
