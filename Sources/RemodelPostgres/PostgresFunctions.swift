/// Remodel's SQL functions on PostgreSQL: the twins of the functions a SQLite migration
/// registers on its connection (`MigrationFunctions`), with the same rules (`StepText`,
/// `DecimalText`, `StoredForm`), working on stored forms. They are created in the migrating
/// session's own schema (`pg_temp`), so they need no rights on the database, leave nothing
/// behind, and cannot clash with the application's functions.
///
/// `RemodelPostgresTests` runs each on the same inputs as its SQLite twin.
package enum PostgresFunctions {
    /// The whitespace `split` and `convert` trim (`StepText.isTrimmed`).
    package static let trimmed = "E' \\t\\n\\r'"

    /// Microseconds since 1970 of a `timestamptz`, exactly (EXTRACT gives a `numeric`).
    package static func microseconds(of value: String) -> String {
        "(EXTRACT(EPOCH FROM \(value)) * 1000000)::bigint"
    }

    package static let definitions: [String] = [
        // Stored form ↔ column type.
        """
        CREATE FUNCTION pg_temp.remodel_micros(value timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT AS $$
          SELECT \(microseconds(of: "value"))
        $$
        """,
        // Whole seconds and the microseconds left over, each exact in a double.
        """
        CREATE FUNCTION pg_temp.remodel_timestamp(micros bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE STRICT AS $$
          SELECT to_timestamp((micros / 1000000)::double precision) + (micros % 1000000) * interval '1 microsecond'
        $$
        """,
        // StepText.splitPart: trim, cut at the first separator of what remains, trim each part.
        """
        CREATE FUNCTION pg_temp.remodel_split_part(value text, separator text, part integer, parts integer) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
          rest text := btrim(coalesce(value, ''), \(trimmed));
          found integer;
        BEGIN
          IF separator IS NULL THEN RETURN NULL; END IF;
          FOR i IN 1..part LOOP
            found := CASE WHEN separator = '' THEN 0 ELSE strpos(rest, separator) END;
            IF found = 0 THEN RETURN ''; END IF;
            rest := btrim(substr(rest, found + length(separator)), \(trimmed));
          END LOOP;
          IF part < parts - 1 AND separator <> '' THEN
            found := strpos(rest, separator);
            IF found > 0 THEN RETURN btrim(substr(rest, 1, found - 1), \(trimmed)); END IF;
          END IF;
          RETURN rest;
        END
        $$
        """,
        // StepText.integer: a whole decimal number, optional sign, at most 18 significant
        // digits, after trimming; NULL otherwise or out of [low, high].
        """
        CREATE FUNCTION pg_temp.remodel_parse_integer(value text, low bigint, high bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
          body text := btrim(value, \(trimmed));
          digits text;
          number bigint;
        BEGIN
          IF body IS NULL OR body !~ '^[+-]?[0-9]+$' THEN RETURN NULL; END IF;
          digits := ltrim(ltrim(body, '+-'), '0');
          IF length(digits) > 18 THEN RETURN NULL; END IF;
          number := CASE WHEN digits = '' THEN 0 ELSE digits::bigint END;
          IF left(body, 1) = '-' THEN number := -number; END IF;
          IF number < low OR number > high THEN RETURN NULL; END IF;
          RETURN number;
        END
        $$
        """,
        // DecimalText.isWellFormed, then the nearest double (as Swift's Double(_:) rounds it),
        // NULL beyond `limit`. PostgreSQL refuses text beyond a double's range where Swift
        // gives infinity (NULL here too) or zero (kept, with its sign).
        """
        CREATE FUNCTION pg_temp.remodel_parse_real(value text, limit_ double precision) RETURNS double precision LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
          number double precision;
          small boolean;
        BEGIN
          IF value IS NULL OR value !~ '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?$' THEN RETURN NULL; END IF;
          BEGIN
            number := value::double precision;
          EXCEPTION WHEN numeric_value_out_of_range THEN
            BEGIN
              small := abs(value::numeric) < 1;
            EXCEPTION WHEN numeric_value_out_of_range OR program_limit_exceeded THEN
              small := coalesce(substring(value from '[eE]([+-]?[0-9]+)$')::numeric, 0) < 0;
            END;
            IF NOT small THEN RETURN NULL; END IF;
            number := CASE WHEN left(value, 1) = '-' THEN '-0'::double precision ELSE 0 END;
          END;
          IF abs(number) > limit_ THEN RETURN NULL; END IF;
          RETURN number;
        END
        $$
        """,
        // StoredForm: UUID(uuidString:) takes 8-4-4-4-12 hexadecimal digits in either case.
        """
        CREATE FUNCTION pg_temp.remodel_parse_uuid(value text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE WHEN value ~ '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'
                 THEN decode(replace(value, '-', ''), 'hex') END
        $$
        """,
        """
        CREATE FUNCTION pg_temp.remodel_format_uuid(value bytea) RETURNS text LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE WHEN length(value) = 16 THEN upper(encode(value, 'hex')::uuid::text) END
        $$
        """,
        // ObjectID(_:): 24 hexadecimal digits.
        """
        CREATE FUNCTION pg_temp.remodel_parse_objectid(value text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE WHEN value ~ '^[0-9A-Fa-f]{24}$' THEN decode(value, 'hex') END
        $$
        """,
        // ObjectID(): four bytes of seconds since 1970, then eight random ones.
        """
        CREATE FUNCTION pg_temp.remodel_objectid() RETURNS bytea LANGUAGE sql VOLATILE AS $$
          SELECT int4send(extract(epoch FROM clock_timestamp())::bigint::integer) || substr(uuid_send(gen_random_uuid()), 1, 6) || substr(uuid_send(gen_random_uuid()), 11, 2)
        $$
        """,
        // UTF-8 without NUL, which PostgreSQL's text cannot hold either.
        """
        CREATE FUNCTION pg_temp.remodel_is_utf8(value bytea) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
        BEGIN
          IF value IS NULL THEN RETURN NULL; END IF;
          IF position('\\x00'::bytea IN value) > 0 THEN RETURN false; END IF;
          PERFORM convert_from(value, 'UTF8');
          RETURN true;
        EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
          RETURN false;
        END
        $$
        """,
    ]
}
