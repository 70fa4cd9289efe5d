CREATE TABLE "public"."_remodel_metadata" ("key" text PRIMARY KEY, "value" text NOT NULL);
CREATE TABLE "public"."_remodel_migrations" ("version" integer PRIMARY KEY, "name" text NOT NULL, "checksum" text NOT NULL, "applied_at" text NOT NULL, "duration_ms" bigint NOT NULL);
CREATE TABLE "public"."Person" ("_id" bytea PRIMARY KEY, "firstName" text NOT NULL, "lastName" text NOT NULL, "personId" text NOT NULL, "company" text NOT NULL, "businessUnit" text NOT NULL, "profileImageUrl" text);
CREATE TABLE "public"."Person.dogs" ("owner" bytea NOT NULL, "position" bigint NOT NULL, "value" uuid NOT NULL, PRIMARY KEY ("owner", "position"));
CREATE TABLE "public"."Dog" ("_id" uuid PRIMARY KEY, "name" text NOT NULL, "breed" text NOT NULL, "weight" bigint NOT NULL, "favoriteToy" text NOT NULL, "profileImageUrl" text, "dateLastUpdated" timestamptz NOT NULL);
CREATE TABLE "public"."Note" ("identifier" text PRIMARY KEY, "content" text NOT NULL, "lastEdited" timestamptz NOT NULL);
ALTER TABLE "public"."Person.dogs" ADD FOREIGN KEY ("owner") REFERENCES "public"."Person" ("_id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "public"."Person.dogs" ADD FOREIGN KEY ("value") REFERENCES "public"."Dog" ("_id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX "Person.dogs.value" ON "public"."Person.dogs" ("value");
