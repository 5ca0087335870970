-- A viewer reads payloads, results, raw messages and free-text fields only masked, by the same rules as the console
-- (dev.redrive.report.Redactor and SecretText): fields with a secret name at any depth, the values of key=value and
-- key: value pairs with such names, bearer and basic credentials, card numbers that pass the Luhn check. The raw
-- columns are refused to the viewer role by column grants; it reads each such table through a view of the same name
-- in the schema "<namespace>_masked", which a viewer's connection puts first on its search_path (see
-- dev.redrive.store.MaskedReads), so the same statements read raw rows for operators and masked rows for viewers.
-- Function bodies name the namespace's schema, since they run on the caller's search_path.

-- The one list of secret field names; Redactor.DEFAULT_FIELDS must be the same list (MaskingAgreementTest).
CREATE FUNCTION secret_field_names() RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ARRAY['password', 'token', 'secret', 'card_number', 'authorization', 'api_key']
$$;

-- The masking functions are PL/pgSQL, whose plans are kept per session: SQL functions called from them would be
-- planned again on every call, which made masking a DLQ page several times slower.

-- A name is secret when, in snake_case and lower case, it equals a listed name, starts with "name_" or ends with
-- "_name": token masks access_token, api_key masks x-api-key and apiKey.
CREATE FUNCTION is_secret_key(field_name text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    snake constant text := lower(regexp_replace(field_name, '([a-z0-9])([A-Z])', '\1_\2', 'g'));
    normal constant text := regexp_replace(regexp_replace(snake, '[^a-z0-9]+', '_', 'g'), '^_+|_+$', '', 'g');
    field text;
BEGIN
    FOREACH field IN ARRAY "${flyway:defaultSchema}".secret_field_names() LOOP
        IF normal = field OR starts_with(normal, field || '_') OR right(normal, length(field) + 1) = '_' || field THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;

-- The check digit every payment card number carries (separators are skipped).
CREATE FUNCTION luhn_valid(digits text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    reversed constant text := reverse(regexp_replace(digits, '[^0-9]', '', 'g'));
    digit int;
    total int := 0;
BEGIN
    FOR i IN 1 .. length(reversed) LOOP
        digit := substr(reversed, i, 1)::int;
        total := total + CASE WHEN i % 2 = 1 THEN digit WHEN digit * 2 > 9 THEN digit * 2 - 9 ELSE digit * 2 END;
    END LOOP;
    RETURN total % 10 = 0;
END $$;

-- Free text that is not JSON: secret values of key=value / key: value pairs (quoted or not, with an optional
-- Bearer/Basic/Token/Digest scheme), then bearer and basic credentials anywhere, then Luhn-valid card numbers (13 to
-- 19 digits standing alone or in groups of four). The patterns are SecretText's, spelt for PostgreSQL: \s is
-- [ \t\n\v\f\r], \w is [A-Za-z0-9_], \b is \y, and (?i:bearer) is spelt out in bracket pairs.
CREATE FUNCTION mask_free_text(input text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    -- groups: 1 the whole pair, 2 the key as written (quoted or not), 3 the separator, 4 the value. SecretText's
    -- back-reference to the key's quote is spelt as three alternatives: PostgreSQL matches back-references slowly.
    key_value constant text := '(("[A-Za-z][A-Za-z0-9_.-]*"|''[A-Za-z][A-Za-z0-9_.-]*''|[A-Za-z][A-Za-z0-9_.-]*)'
        || '([ \t\n\v\f\r]*[:=][ \t\n\v\f\r]*)'
        || '("[^"]*"|''[^'']*''|(?:(?:[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc]|[Tt][Oo][Kk][Ee][Nn]'
        || '|[Dd][Ii][Gg][Ee][Ss][Tt])[ \t\n\v\f\r]+)?[^ \t\n\v\f\r,;&"''<>]+))';
    bearer constant text := '\y([Bb][Ee][Aa][Rr][Ee][Rr][ \t\n\v\f\r]+)[A-Za-z0-9._~+/=-]+';
    basic constant text := '\y(Basic[ \t\n\v\f\r]+)[A-Za-z0-9+/]{8,}={0,2}';
    card constant text := '(?<![A-Za-z0-9_-])([0-9]{13,19}|[0-9]{4}([ -])[0-9]{4}\2[0-9]{4}\2[0-9]{1,7})'
        || '(?![A-Za-z0-9_-])';
    pair text[];
    pair_start int;
    value_start int;
    quote text;
    rest text := input;
    masked text := '';
    pieces text[];
    cards text;
    run record;
BEGIN
    IF input IS NULL OR input = '' THEN
        RETURN input;
    END IF;
    -- Most error texts hold none of what the patterns look for: no (ASCII) text can hold a secret without a listed
    -- name's first word, "bearer", "basic" or twelve digits in groups of four, so such text is returned at once.
    IF octet_length(input) = length(input) AND input !~* ('(' || regexp_replace(array_to_string(
            "${flyway:defaultSchema}".secret_field_names(), '|'), '_[a-z0-9_]*', '', 'g')
            || '|bearer|basic|[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{4})') THEN
        RETURN input;
    END IF;
    -- A pair whose key is not secret is passed over only up to its value, which may itself hold one
    -- ("refused: password=hunter2"). The pattern has no anchor or look-around, so the leftmost match starts where its
    -- text first occurs.
    LOOP
        pair := regexp_match(rest, key_value);
        EXIT WHEN pair IS NULL;
        pair_start := position(pair[1] IN rest);
        value_start := pair_start + length(pair[2]) + length(pair[3]);
        IF "${flyway:defaultSchema}".is_secret_key(btrim(pair[2], '"''')) THEN
            quote := CASE WHEN left(pair[4], 1) IN ('"', '''') THEN left(pair[4], 1) ELSE '' END;
            masked := masked || left(rest, value_start - 1) || quote || '[redacted]' || quote;
            rest := substr(rest, pair_start + length(pair[1]));
        ELSE
            masked := masked || left(rest, value_start - 1);
            rest := substr(rest, value_start);
        END IF;
    END LOOP;
    masked := regexp_replace(masked || rest, bearer, '\1[redacted]', 'g');
    masked := regexp_replace(masked, basic, '\1[redacted]', 'g');
    -- Only Luhn-valid runs are cards: the text between the runs, and each run masked or kept, in turn.
    IF masked !~ card THEN
        RETURN masked;
    END IF;
    pieces := regexp_split_to_array(masked, card);
    cards := pieces[1];
    FOR run IN SELECT m.found[1] AS digits, m.n FROM regexp_matches(masked, card, 'g') WITH ORDINALITY AS m (found, n)
               ORDER BY m.n LOOP
        cards := cards
                 || CASE WHEN "${flyway:defaultSchema}".luhn_valid(run.digits) THEN '[redacted]' ELSE run.digits END
                 || pieces[run.n + 1];
    END LOOP;
    RETURN cards;
END $$;

-- Any text: JSON held as text ({...} or [...]) is masked field by field and written compactly, anything else is
-- masked as free text.
-- Not parallel safe: the block that catches what is not JSON is a subtransaction, which parallel workers cannot start.
CREATE FUNCTION mask_secret_text(input text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL UNSAFE AS $$
DECLARE
    trimmed text := btrim(input, E' \t\n\r\f\v');
BEGIN
    IF (left(trimmed, 1) = '{' AND right(trimmed, 1) = '}') OR (left(trimmed, 1) = '[' AND right(trimmed, 1) = ']') THEN
        BEGIN
            RETURN "${flyway:defaultSchema}".mask_json(trimmed::json);
        EXCEPTION WHEN others THEN
            NULL; -- not JSON after all (or a \u0000 no text can hold): masked as free text below
        END;
    END IF;
    RETURN "${flyway:defaultSchema}".mask_free_text(input);
END $$;

-- JSON with the value of every secret-named field replaced by "[redacted]" at any depth and every string masked as
-- text, written compactly with the fields in their order (as Jackson writes it for the console).
CREATE FUNCTION mask_json(value json) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL UNSAFE AS $$
BEGIN
    CASE json_typeof(value)
    WHEN 'object' THEN
        RETURN '{' || coalesce((
            SELECT string_agg(to_json(f.key)::text || ':' || CASE WHEN "${flyway:defaultSchema}".is_secret_key(f.key)
                                                                  THEN '"[redacted]"'
                                                                  ELSE "${flyway:defaultSchema}".mask_json(f.value) END,
                              ',' ORDER BY f.n)
              FROM json_each(value) WITH ORDINALITY AS f (key, value, n)), '') || '}';
    WHEN 'array' THEN
        RETURN '[' || coalesce((
            SELECT string_agg("${flyway:defaultSchema}".mask_json(e.value), ',' ORDER BY e.n)
              FROM json_array_elements(value) WITH ORDINALITY AS e (value, n)), '') || ']';
    WHEN 'string' THEN
        RETURN to_json("${flyway:defaultSchema}".mask_secret_text(value #>> '{}'))::text;
    ELSE
        RETURN value::text;
    END CASE;
END $$;

CREATE FUNCTION mask_secrets(value jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE STRICT PARALLEL UNSAFE AS $$
    SELECT "${flyway:defaultSchema}".mask_json(value::json)::jsonb
$$;

-- The columns a viewer reads only masked: payloads, results, raw messages, evidence, error texts and every free text
-- an operator or a tool wrote. A later migration that adds a secret column inserts it here; one that adds any column to
-- these tables calls refresh_viewer_masks() again, so that the view shows it and the viewer's column grants include it.
CREATE TABLE viewer_masked_columns (
    table_name  text NOT NULL,
    column_name text NOT NULL,
    PRIMARY KEY (table_name, column_name)
);
INSERT INTO viewer_masked_columns (table_name, column_name) VALUES
    ('operations', 'payload'), ('operations', 'result'),
    ('attempts', 'error_message'),
    ('dlq_entries', 'error_message'), ('dlq_entries', 'attempt_history'), ('dlq_entries', 'delivery_history'),
    ('dlq_entries', 'raw_message'), ('dlq_entries', 'payload'), ('dlq_entries', 'decision_reason'),
    ('reconciliations', 'evidence'), ('reconciliations', 'result'),
    ('redrive_commands', 'reason'), ('redrive_commands', 'preconditions'),
    ('audit_log', 'reason'), ('audit_log', 'details'),
    ('runs', 'status_reason'),
    ('approvals', 'revoke_reason'),
    ('demo_tool_calls', 'body'),
    ('demo_tool_effects', 'result');

-- (Re)creates, for each table above, its view in "<namespace>_masked": every column of the table in its order, the
-- listed ones masked (jsonb by mask_secrets, text by mask_secret_text); and gives the viewer role SELECT on the view
-- and on the table's other columns only.
CREATE PROCEDURE refresh_viewer_masks() LANGUAGE plpgsql AS $$
DECLARE
    namespace constant text := '${flyway:defaultSchema}';
    masked constant text := namespace || '_masked';
    viewer constant text := namespace || '_viewer';
    grants boolean := EXISTS (SELECT FROM pg_roles WHERE rolname = viewer);
    masked_table record;
    view_columns text;
    readable_columns text;
    maskable bigint;
BEGIN
    EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', masked);
    FOR masked_table IN SELECT m.table_name, array_agg(m.column_name) AS secrets
                          FROM "${flyway:defaultSchema}".viewer_masked_columns m GROUP BY m.table_name LOOP
        SELECT string_agg(CASE WHEN a.attname <> ALL (masked_table.secrets) THEN quote_ident(a.attname)
                               WHEN a.atttypid = 'jsonb'::regtype
                               THEN format('%I.mask_secrets(%I) AS %I', namespace, a.attname, a.attname)
                               ELSE format('%I.mask_secret_text(%I) AS %I', namespace, a.attname, a.attname)
                          END, ', ' ORDER BY a.attnum),
               string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum)
                   FILTER (WHERE a.attname <> ALL (masked_table.secrets)),
               count(*) FILTER (WHERE a.attname = ANY (masked_table.secrets)
                                  AND a.atttypid IN ('jsonb'::regtype, 'text'::regtype))
          INTO view_columns, readable_columns, maskable
          FROM pg_attribute a
         WHERE a.attrelid = format('%I.%I', namespace, masked_table.table_name)::regclass AND a.attnum > 0
           AND NOT a.attisdropped;
        IF maskable <> cardinality(masked_table.secrets) THEN
            RAISE EXCEPTION 'viewer_masked_columns names columns of %.% that it lacks or that are not text or jsonb: %',
                namespace, masked_table.table_name, masked_table.secrets;
        END IF;
        EXECUTE format('DROP VIEW IF EXISTS %I.%I', masked, masked_table.table_name);
        EXECUTE format('CREATE VIEW %I.%I AS SELECT %s FROM %I.%I', masked, masked_table.table_name, view_columns,
                       namespace, masked_table.table_name);
        IF grants THEN
            EXECUTE format('REVOKE SELECT ON %I.%I FROM %I', namespace, masked_table.table_name, viewer);
            EXECUTE format('GRANT SELECT (%s) ON %I.%I TO %I', readable_columns, namespace, masked_table.table_name,
                           viewer);
            EXECUTE format('GRANT SELECT ON %I.%I TO %I', masked, masked_table.table_name, viewer);
        END IF;
    END LOOP;
    IF grants THEN
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', masked, viewer);
    END IF;
END $$;
REVOKE EXECUTE ON PROCEDURE refresh_viewer_masks() FROM PUBLIC;

CALL refresh_viewer_masks();

-- Operators keep reading raw rows, also of tables later migrations create: until now they had those only through
-- the viewer role, which no longer reads every column.
DO $$
DECLARE
    namespace text := '${flyway:defaultSchema}';
    operator text := namespace || '_operator';
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = operator) THEN
        EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT ON TABLES TO %I', namespace, operator);
    END IF;
END $$;
