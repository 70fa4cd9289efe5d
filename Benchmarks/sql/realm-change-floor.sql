-- Not a migration: a lower bound for any migration of the Realm change on SQLite. Every row of
-- Person and Dog is written once with the value it has (same size, so SQLite overwrites each
-- record in place, the cheapest write it has), in one transaction, and committed through the
-- WAL as remodel migrate and the expert SQL commit. A migration that changes the values must
-- at least do this. Timed by `remodel-benchmarks migrate` as `sqlite-floor`.
.bail on
BEGIN IMMEDIATE;
UPDATE OR ROLLBACK "Person" SET "businessUnit" = "businessUnit";
UPDATE OR ROLLBACK "Dog" SET "weight" = "weight";
COMMIT;
