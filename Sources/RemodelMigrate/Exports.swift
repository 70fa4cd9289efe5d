// Planning (MigrationPlan, MigrationPlanner, HistoryCheck) lives in RemodelPlanning, which the
// build plugin's tool uses without a store; `import RemodelMigrate` brings it as before.
@_exported import RemodelPlanning
