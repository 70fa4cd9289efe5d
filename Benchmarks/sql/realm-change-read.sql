-- Not a migration, and not a floor for one: every row of Person and Dog read and "written"
-- with the value it already has, in one transaction, committed through the WAL. SQLite
-- compares the new record with the stored one and writes nothing when they are the same
-- bytes (btreeOverwriteContent), so this reads every row and writes no page: the WAL stays
-- empty. It is what issue 29 measured as "SQLite's floor" (0.33–0.46 s); the floor of a
-- migration, which must write every row, is realm-change-floor.sql. Timed by
-- `remodel-benchmarks migrate` as `sqlite-read`.
.bail on
BEGIN IMMEDIATE;
UPDATE OR ROLLBACK "Person" SET "businessUnit" = "businessUnit";
UPDATE OR ROLLBACK "Dog" SET "weight" = "weight";
COMMIT;
