-- Hand-written v1 -> v3 migration of the example store (Migrations/) on PostgreSQL, in one
-- transaction: the baseline of `remodel-benchmarks migrate-postgres`, run as
--   psql -X -v ON_ERROR_STOP=1 -v now='2026-12-03T12:00:00Z' -d DATABASE -f postgres-migrate-v1-v3.sql
-- What an expert writes: one ALTER TABLE per table, which rewrites it once (every USING reads
-- the old row), new columns with constant defaults (no rewrite of their own). Same results as
-- Remodel's plan: names trimmed of spaces, tabs, CR and LF and split at the first space
-- (parts trimmed, a missing part ''); business units mapped; weights parsed as whole decimal
-- numbers with an optional sign and at most 18 significant digits (else 0).
BEGIN;
ALTER TABLE "Person" RENAME COLUMN "employeeId" TO "personId";
ALTER TABLE "Person"
  ADD COLUMN "lastName" text COLLATE "C" NOT NULL DEFAULT '',
  ADD COLUMN "profileImageUrl" text COLLATE "C";
ALTER TABLE "Person"
  ALTER COLUMN "name" TYPE text COLLATE "C" USING CASE WHEN strpos(btrim("name", E' \t\n\r'), ' ') > 0
    THEN rtrim(substr(btrim("name", E' \t\n\r'), 1, strpos(btrim("name", E' \t\n\r'), ' ') - 1), E' \t\n\r')
    ELSE btrim("name", E' \t\n\r') END,
  ALTER COLUMN "lastName" TYPE text COLLATE "C" USING CASE WHEN strpos(btrim("name", E' \t\n\r'), ' ') > 0
    THEN ltrim(substr(btrim("name", E' \t\n\r'), strpos(btrim("name", E' \t\n\r'), ' ') + 1), E' \t\n\r')
    ELSE '' END,
  ALTER COLUMN "businessUnit" TYPE text COLLATE "C" USING CASE "businessUnit"
    WHEN 'Eng' THEN 'Engineering' WHEN 'HR' THEN 'Human Resources and Recruiting' WHEN 'Docs' THEN 'Education, Community and Docs'
    WHEN 'Customer Engineering' THEN "businessUnit" WHEN 'Education, Community and Docs' THEN "businessUnit"
    WHEN 'Engineering' THEN "businessUnit" WHEN 'Finance and Operations' THEN "businessUnit"
    WHEN 'Human Resources and Recruiting' THEN "businessUnit" WHEN 'Management' THEN "businessUnit"
    WHEN 'Marketing' THEN "businessUnit" WHEN 'Product' THEN "businessUnit" WHEN 'Sales' THEN "businessUnit"
    ELSE 'Engineering' END;
ALTER TABLE "Person" RENAME COLUMN "name" TO "firstName";
ALTER TABLE "Person" ALTER COLUMN "lastName" DROP DEFAULT;
ALTER TABLE "Dog"
  ADD COLUMN "favoriteToy" text COLLATE "C" NOT NULL DEFAULT '',
  ADD COLUMN "profileImageUrl" text COLLATE "C",
  ADD COLUMN "dateLastUpdated" timestamptz NOT NULL DEFAULT :'now',
  ALTER COLUMN "weight" TYPE bigint USING CASE
    WHEN btrim("weight", E' \t\n\r') ~ '^[+-]?0*[0-9]{1,18}$' THEN btrim("weight", E' \t\n\r')::bigint ELSE 0 END;
ALTER TABLE "Dog" ALTER COLUMN "favoriteToy" DROP DEFAULT, ALTER COLUMN "dateLastUpdated" DROP DEFAULT;
UPDATE "_remodel_metadata" SET "value" = '3' WHERE "key" = 'schemaVersion';
COMMIT;
