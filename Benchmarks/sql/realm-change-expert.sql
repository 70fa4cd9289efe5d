-- The Realm change (Benchmarks/realm-change: split Person.name at the first space into
-- firstName/lastName, rename employeeId to personId, Dog.weight text -> integer, 0 when not a
-- whole number) as an expert writes it for the sqlite3 shell: the baseline of
-- `remodel-benchmarks migrate`, run as
--   sqlite3 STORE < realm-change-expert.sql
-- with {{schema_version}} replaced by the store's PRAGMA schema_version + 1.
-- One pass per table: the removed column's slot takes a new value (RENAME COLUMN, no DROP), and
-- Dog.weight is declared INTEGER in place (SQLite's writable_schema procedure for a change that
-- leaves the stored values valid) so that one UPDATE converts the values in their slot.
.bail on
BEGIN IMMEDIATE;
ALTER TABLE "Person" RENAME COLUMN "employeeId" TO "personId";
ALTER TABLE "Person" RENAME COLUMN "name" TO "firstName";
ALTER TABLE "Person" ADD COLUMN "lastName" TEXT NOT NULL DEFAULT '';
UPDATE "Person" SET
  "firstName" = CASE WHEN instr("firstName", ' ') > 0 THEN substr("firstName", 1, instr("firstName", ' ') - 1) ELSE "firstName" END,
  "lastName" = CASE WHEN instr("firstName", ' ') > 0 THEN substr("firstName", instr("firstName", ' ') + 1) ELSE '' END;
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET "sql" = replace("sql", '"weight" TEXT NOT NULL', '"weight" INTEGER NOT NULL') WHERE "type" = 'table' AND "name" = 'Dog';
PRAGMA schema_version = {{schema_version}};
PRAGMA writable_schema = OFF;
UPDATE "Dog" SET "weight" = CASE
    WHEN "weight" GLOB '[0-9]*' AND "weight" NOT GLOB '*[^0-9]*' AND length(ltrim("weight", '0')) <= 18 THEN CAST("weight" AS INTEGER)
    WHEN "weight" GLOB '-[0-9]*' AND substr("weight", 2) NOT GLOB '*[^0-9]*' AND length(ltrim(substr("weight", 2), '0')) <= 18 THEN CAST("weight" AS INTEGER)
    ELSE 0 END;
PRAGMA user_version = 2;
COMMIT;
