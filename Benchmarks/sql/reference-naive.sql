-- A naive, statement-by-statement SQL migration of the change the issue's Realm figures were
-- measured on (1,000,000 Person + 1,000,000 Dog: split a name, rename a property, string
-- weight -> int): one UPDATE per new column, no trimming, no business units, no new Dog
-- properties. Not the same result as Remodel's v1 -> v3 (so not a baseline): it is run in
-- the same benchmark only as a yardstick for this machine's speed at the moment, since the
-- issue quotes Realm's times next to such a script's (2.75 s) on its machine.
.bail on
BEGIN IMMEDIATE;
ALTER TABLE "Person" ADD COLUMN "firstName" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Person" ADD COLUMN "lastName" TEXT NOT NULL DEFAULT '';
UPDATE "Person" SET "firstName" = CASE WHEN instr("name", ' ') > 0 THEN substr("name", 1, instr("name", ' ') - 1) ELSE "name" END;
UPDATE "Person" SET "lastName" = CASE WHEN instr("name", ' ') > 0 THEN substr("name", instr("name", ' ') + 1) ELSE '' END;
ALTER TABLE "Person" DROP COLUMN "name";
ALTER TABLE "Person" RENAME COLUMN "employeeId" TO "personId";
ALTER TABLE "Dog" ADD COLUMN "weight_new" INTEGER NOT NULL DEFAULT 0;
UPDATE "Dog" SET "weight_new" = CAST("weight" AS INTEGER);
ALTER TABLE "Dog" DROP COLUMN "weight";
ALTER TABLE "Dog" RENAME COLUMN "weight_new" TO "weight";
COMMIT;
