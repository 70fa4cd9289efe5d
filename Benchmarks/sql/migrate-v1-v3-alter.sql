-- Hand-written v1 -> v3 migration of the example store (Migrations/): ALTER TABLE ADD COLUMN
-- + one UPDATE per table + DROP COLUMN. The baseline of `remodel-benchmarks migrate`, run as
--   sqlite3 STORE < migrate-v1-v3-alter.sql
-- with {{now}} replaced by the migration time in microseconds since 1970 (Dog.dateLastUpdated).
-- Same results as Remodel's plan: names trimmed of spaces, tabs, CR, LF and split at the
-- first space (parts trimmed, missing part ''); business units mapped; weights parsed as
-- whole decimal numbers with an optional sign (else 0).
.bail on
BEGIN IMMEDIATE;
ALTER TABLE "Person" RENAME COLUMN "employeeId" TO "personId";
ALTER TABLE "Person" ADD COLUMN "firstName" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Person" ADD COLUMN "lastName" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Person" ADD COLUMN "profileImageUrl" TEXT;
UPDATE "Person" SET
  "firstName" = CASE WHEN instr(trim("name", ' ' || char(9) || char(10) || char(13)), ' ') > 0
    THEN rtrim(substr(trim("name", ' ' || char(9) || char(10) || char(13)), 1, instr(trim("name", ' ' || char(9) || char(10) || char(13)), ' ') - 1), ' ' || char(9) || char(10) || char(13))
    ELSE trim("name", ' ' || char(9) || char(10) || char(13)) END,
  "lastName" = CASE WHEN instr(trim("name", ' ' || char(9) || char(10) || char(13)), ' ') > 0
    THEN ltrim(substr(trim("name", ' ' || char(9) || char(10) || char(13)), instr(trim("name", ' ' || char(9) || char(10) || char(13)), ' ') + 1), ' ' || char(9) || char(10) || char(13))
    ELSE '' END,
  "businessUnit" = CASE "businessUnit"
    WHEN 'Eng' THEN 'Engineering' WHEN 'HR' THEN 'Human Resources and Recruiting' WHEN 'Docs' THEN 'Education, Community and Docs'
    WHEN 'Customer Engineering' THEN "businessUnit" WHEN 'Education, Community and Docs' THEN "businessUnit"
    WHEN 'Engineering' THEN "businessUnit" WHEN 'Finance and Operations' THEN "businessUnit"
    WHEN 'Human Resources and Recruiting' THEN "businessUnit" WHEN 'Management' THEN "businessUnit"
    WHEN 'Marketing' THEN "businessUnit" WHEN 'Product' THEN "businessUnit" WHEN 'Sales' THEN "businessUnit"
    ELSE 'Engineering' END;
ALTER TABLE "Person" DROP COLUMN "name";
ALTER TABLE "Dog" ADD COLUMN "weight_new" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Dog" ADD COLUMN "favoriteToy" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Dog" ADD COLUMN "profileImageUrl" TEXT;
ALTER TABLE "Dog" ADD COLUMN "dateLastUpdated" INTEGER NOT NULL DEFAULT {{now}};
UPDATE "Dog" SET "weight_new" = CASE
    WHEN trim("weight", ' ' || char(9) || char(10) || char(13)) GLOB '[0-9]*'
      AND trim("weight", ' ' || char(9) || char(10) || char(13)) NOT GLOB '*[^0-9]*'
      AND length(ltrim(trim("weight", ' ' || char(9) || char(10) || char(13)), '0')) <= 18
      THEN CAST(trim("weight", ' ' || char(9) || char(10) || char(13)) AS INTEGER)
    WHEN trim("weight", ' ' || char(9) || char(10) || char(13)) GLOB '[+-][0-9]*'
      AND substr(trim("weight", ' ' || char(9) || char(10) || char(13)), 2) NOT GLOB '*[^0-9]*'
      AND length(ltrim(substr(trim("weight", ' ' || char(9) || char(10) || char(13)), 2), '0')) <= 18
      THEN CAST(trim("weight", ' ' || char(9) || char(10) || char(13)) AS INTEGER)
    ELSE 0 END;
ALTER TABLE "Dog" DROP COLUMN "weight";
ALTER TABLE "Dog" RENAME COLUMN "weight_new" TO "weight";
PRAGMA user_version = 3;
COMMIT;
