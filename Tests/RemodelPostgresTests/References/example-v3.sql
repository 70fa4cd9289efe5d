CREATE TABLE "public"."_remodel_metadata" ("key" text COLLATE "C" PRIMARY KEY, "value" text COLLATE "C");
CREATE TABLE "public"."_remodel_migrations" ("version" integer PRIMARY KEY, "name" text COLLATE "C" NOT NULL, "checksum" text COLLATE "C" NOT NULL, "applied_at" text COLLATE "C" NOT NULL, "duration_ms" bigint NOT NULL);
CREATE TABLE "public"."Person" ("_id" bytea PRIMARY KEY, "firstName" text COLLATE "C" NOT NULL, "lastName" text COLLATE "C" NOT NULL, "personId" text COLLATE "C" NOT NULL, "company" text COLLATE "C" NOT NULL, "businessUnit" text COLLATE "C" NOT NULL, "profileImageUrl" text COLLATE "C");
CREATE TABLE "public"."Person.dogs" ("owner" bytea NOT NULL, "position" bigint NOT NULL, "value" uuid NOT NULL, PRIMARY KEY ("owner", "position"));
CREATE TABLE "public"."Dog" ("_id" uuid PRIMARY KEY, "name" text COLLATE "C" NOT NULL, "breed" text COLLATE "C" NOT NULL, "weight" bigint NOT NULL, "favoriteToy" text COLLATE "C" NOT NULL, "profileImageUrl" text COLLATE "C", "dateLastUpdated" timestamptz NOT NULL);
CREATE TABLE "public"."Note" ("identifier" text COLLATE "C" PRIMARY KEY, "content" text COLLATE "C" NOT NULL, "lastEdited" timestamptz NOT NULL);
ALTER TABLE "public"."Person.dogs" ADD FOREIGN KEY ("owner") REFERENCES "public"."Person" ("_id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "public"."Person.dogs" ADD FOREIGN KEY ("value") REFERENCES "public"."Dog" ("_id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX "Person.dogs.value" ON "public"."Person.dogs" ("value");
