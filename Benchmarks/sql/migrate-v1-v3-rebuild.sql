-- Hand-written v1 -> v3 migration of the example store (Migrations/) by table rebuilds:
-- CREATE the new table, INSERT … SELECT every row, DROP the old one, RENAME. The second
-- baseline of `remodel-benchmarks migrate`, run as
--   sqlite3 STORE < migrate-v1-v3-rebuild.sql
-- with {{now}} replaced by the migration time in microseconds since 1970. Same results as
-- migrate-v1-v3-alter.sql (see there).
.bail on
BEGIN IMMEDIATE;
CREATE TABLE "Person__new" (
  "_id" BLOB PRIMARY KEY NOT NULL,
  "firstName" TEXT NOT NULL,
  "lastName" TEXT NOT NULL,
  "personId" TEXT NOT NULL,
  "company" TEXT NOT NULL,
  "businessUnit" TEXT NOT NULL,
  "profileImageUrl" TEXT
);
INSERT INTO "Person__new" ("_id", "firstName", "lastName", "personId", "company", "businessUnit", "profileImageUrl")
SELECT "_id",
  CASE WHEN instr(trim("name", ' ' || char(9) || char(10) || char(13)), ' ') > 0
    THEN rtrim(substr(trim("name", ' ' || char(9) || char(10) || char(13)), 1, instr(trim("name", ' ' || char(9) || char(10) || char(13)), ' ') - 1), ' ' || char(9) || char(10) || char(13))
    ELSE trim("name", ' ' || char(9) || char(10) || char(13)) END,
  CASE WHEN instr(trim("name", ' ' || char(9) || char(10) || char(13)), ' ') > 0
    THEN ltrim(substr(trim("name", ' ' || char(9) || char(10) || char(13)), instr(trim("name", ' ' || char(9) || char(10) || char(13)), ' ') + 1), ' ' || char(9) || char(10) || char(13))
    ELSE '' END,
  "employeeId", "company",
  CASE "businessUnit"
    WHEN 'Eng' THEN 'Engineering' WHEN 'HR' THEN 'Human Resources and Recruiting' WHEN 'Docs' THEN 'Education, Community and Docs'
    WHEN 'Customer Engineering' THEN "businessUnit" WHEN 'Education, Community and Docs' THEN "businessUnit"
    WHEN 'Engineering' THEN "businessUnit" WHEN 'Finance and Operations' THEN "businessUnit"
    WHEN 'Human Resources and Recruiting' THEN "businessUnit" WHEN 'Management' THEN "businessUnit"
    WHEN 'Marketing' THEN "businessUnit" WHEN 'Product' THEN "businessUnit" WHEN 'Sales' THEN "businessUnit"
    ELSE 'Engineering' END,
  NULL
FROM "Person";
DROP TABLE "Person";
ALTER TABLE "Person__new" RENAME TO "Person";
CREATE TABLE "Dog__new" (
  "_id" BLOB PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL,
  "breed" TEXT NOT NULL,
  "weight" INTEGER NOT NULL,
  "favoriteToy" TEXT NOT NULL,
  "profileImageUrl" TEXT,
  "dateLastUpdated" INTEGER NOT NULL
);
INSERT INTO "Dog__new" ("_id", "name", "breed", "weight", "favoriteToy", "profileImageUrl", "dateLastUpdated")
SELECT "_id", "name", "breed",
  CASE
    WHEN trim("weight", ' ' || char(9) || char(10) || char(13)) GLOB '[0-9]*'
      AND trim("weight", ' ' || char(9) || char(10) || char(13)) NOT GLOB '*[^0-9]*'
      AND length(ltrim(trim("weight", ' ' || char(9) || char(10) || char(13)), '0')) <= 18
      THEN CAST(trim("weight", ' ' || char(9) || char(10) || char(13)) AS INTEGER)
    WHEN trim("weight", ' ' || char(9) || char(10) || char(13)) GLOB '[+-][0-9]*'
      AND substr(trim("weight", ' ' || char(9) || char(10) || char(13)), 2) NOT GLOB '*[^0-9]*'
      AND length(ltrim(substr(trim("weight", ' ' || char(9) || char(10) || char(13)), 2), '0')) <= 18
      THEN CAST(trim("weight", ' ' || char(9) || char(10) || char(13)) AS INTEGER)
    ELSE 0 END,
  '', NULL, {{now}}
FROM "Dog";
DROP TABLE "Dog";
ALTER TABLE "Dog__new" RENAME TO "Dog";
PRAGMA user_version = 3;
COMMIT;
