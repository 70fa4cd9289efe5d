-- Not a migration: a lower bound for any migration of the Realm change on SQLite. Every row
-- of Person and Dog is rewritten once, in one transaction, committed through the WAL as
-- remodel migrate and the expert SQL commit (and checkpointed when the shell closes the
-- store, as they are). Each row gets a value of the same size that differs from the stored
-- one in its first character (Person.employeeId `E…` → `F…`, Dog.name `Dog…` → `Cog…`), so
-- SQLite overwrites each record in place, the cheapest write it has, and must write every
-- page of both tables: the same value would be no write at all (see realm-change-read.sql).
-- A migration that changes every row's values must at least do this. Timed by
-- `remodel-benchmarks migrate` as `sqlite-floor`.
.bail on
BEGIN IMMEDIATE;
UPDATE OR ROLLBACK "Person" SET "employeeId" = 'F' || substr("employeeId", 2);
UPDATE OR ROLLBACK "Dog" SET "name" = 'C' || substr("name", 2);
COMMIT;
