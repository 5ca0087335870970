-- Free text is masked in time linear in its length, and masked whole even where it was cut. V120's mask_free_text
-- searched for key=value pairs one at a time, copying the rest of the text after each (quadratic in the number of
-- pairs), with look-behinds that PostgreSQL evaluates from the start of the text at every match; and a value cut open
-- by the 64 KiB limit of a raw message ("password":"hunter2hun...) matched none of its patterns, so a viewer read it.
--
-- Now every shape is one regexp_replace over the whole text, in C, by patterns whose matches can only start where a
-- key, a credential or a number starts (a character before it is consumed instead of looked behind at), so that no
-- start is tried twice over a long run; only card numbers come back to PL/pgSQL, once per candidate, for their check
-- digit. The shapes, in this order (dev.redrive.secret.SecretScanner masks the same, in the same order):
--   1. private keys in PEM: the body after "-----BEGIN ... PRIVATE KEY-----", up to "--" or the end of the text;
--   2. key=value and key: value pairs whose key is secret (secret_key_pattern()): a quoted value up to its closing
--      quote or, cut open, to the end of the text (JSON's \" inside it, and JSON held as text inside a string:
--      \"password\":\"...\"), a [...] or {...} value up to and with its first closing bracket, an unquoted value
--      (with an optional Bearer/Basic/Token/Digest scheme) up to a space or , ; & < > and quotes; masking masked text
--      changes nothing;
--   3. the password of a URL's userinfo (//user:password@);
--   4. bearer credentials and 5. basic ones (Basic and eight or more base64 characters) wherever they appear;
--   6. API keys by their well-known prefixes (sk_live_, ghp_, xoxb-, AKIA..., glpat-, ...) and JWTs (eyJ...);
--   7. card numbers that pass the Luhn check (13 to 19 digits standing alone, or in groups of four).

-- ASCII upper case whatever the database's locale (upper() follows it: a Turkish i is not an I).
CREATE FUNCTION ascii_upper(input text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT translate(input, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
$$;

-- A key of free text is secret when it holds the words of a listed name, in any case and separated by _ . - or by
-- nothing, as words of its own: preceded by the key's start or a separator (or begun with an upper-case letter), and
-- followed by the key's end, a separator or an upper-case letter. That takes in every key is_secret_key() calls secret
-- (password, userPassword, x-api-key, access_token, token_count) and some it does not (APIKEY, cardnumber,
-- x_token_id): free text has no field names to be exact about, a secret word in the middle of a key is still a secret,
-- and a pattern that spelt out is_secret_key()'s rules case by case made each match many times slower.
-- Built from secret_field_names(); dev.redrive.secret.SecretScanner reads keys by the same rule.
CREATE FUNCTION secret_key_pattern() RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    names text[] := '{}';
    upper_first text[] := '{}';
    name text;
    spelled text;
    letter text;
BEGIN
    FOREACH name IN ARRAY "${flyway:defaultSchema}".secret_field_names() LOOP
        spelled := '';
        FOR i IN 1 .. length(name) LOOP
            letter := substr(name, i, 1);
            spelled := spelled || CASE
                WHEN letter = '_' THEN '[_.-]*'
                WHEN letter ~ '[a-z]' THEN '[' || "${flyway:defaultSchema}".ascii_upper(letter) || letter || ']'
                ELSE letter END;
        END LOOP;
        names := names || spelled;
        IF left(name, 1) ~ '[a-z]' THEN
            upper_first := upper_first || ("${flyway:defaultSchema}".ascii_upper(left(name, 1)) || substr(spelled, 5));
        END IF;
    END LOOP;
    RETURN '(?:(?:[A-Za-z0-9_.-]*[_.-])?(?:' || array_to_string(names, '|') || ')'
        || '|[A-Za-z0-9_.-]*(?:' || array_to_string(upper_first, '|') || '))'
        || '(?:[_.-][A-Za-z0-9_.-]*|[A-Z][A-Za-z0-9_.-]*)?';
END $$;

-- The pattern of the key=value shape (2. above). Groups: 1 the character before the key, 2 the key and separator,
-- 3 to 5 the opening quote of a quoted value; the value after them is what is masked. A bracketed value is masked
-- with its brackets: [redacted] holds a closing one, which would end it early when masked again.
CREATE FUNCTION secret_pair_pattern() RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT '(^|[^A-Za-z0-9_.-])(' || "${flyway:defaultSchema}".secret_key_pattern()
        || '(?:\\*["''])?[ \t\n\r\f\v]*[:=][ \t\n\r\f\v]*)'
        || '(?:(")(?:[^"\\]|\\.)*\\?'
        || '|(\\+")(?:[^"\\]|\\+[^"\\]|\\\\+")*(?:\\+$)?'
        || '|(\\*'')[^'']*'
        || '|\[[^]]*]?|\{[^}]*}?'
        || '|(?:(?:[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc]|[Tt][Oo][Kk][Ee][Nn]|[Dd][Ii][Gg][Ee][Ss][Tt])'
        || '[ \t\n\r\f\v]+)?[^ \t\n\r\f\v,;&"''<>\[{][^ \t\n\r\f\v,;&"''<>]*)'
$$;

-- What text must hold for any shape above to be in it: the first word of a listed name in any case, or a shape's own
-- mark. Text without one (most error messages) is returned as it is, without running the patterns.
-- Each letter of such a word is spelt in both cases: [pP][aA]...
CREATE FUNCTION secret_hint_pattern() RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    hints text[] := ARRAY['-----BEGIN ', '//[^/ \t\n\r\f\v:@]*:', '[Bb][Ee][Aa][Rr][Ee][Rr]', 'Basic',
        'sk_', 'rk_', 'whsec_', 'gh[pousr]_', 'github_pat_', 'glpat-', 'xox[abprs]-', 'xapp-', 'shp(?:at|ss|ca|pa)_',
        'sk-', 'AKIA', 'ASIA', 'AIza', 'npm_', 'SG\.', 'eyJ', '[0-9]{4}[ -]?[0-9]{4}'];
    name text;
    word text;
    spelled text;
BEGIN
    FOREACH name IN ARRAY "${flyway:defaultSchema}".secret_field_names() LOOP
        word := split_part(name, '_', 1);
        spelled := '';
        FOR i IN 1 .. length(word) LOOP
            spelled := spelled || CASE WHEN substr(word, i, 1) ~ '[a-z]'
                                       THEN '[' || substr(word, i, 1) || "${flyway:defaultSchema}".ascii_upper(substr(word, i, 1)) || ']'
                                       ELSE substr(word, i, 1) END;
        END LOOP;
        hints := hints || spelled;
    END LOOP;
    RETURN array_to_string(hints, '|');
END $$;

CREATE OR REPLACE FUNCTION mask_free_text(input text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    hint constant text := "${flyway:defaultSchema}".secret_hint_pattern();
    pair constant text := "${flyway:defaultSchema}".secret_pair_pattern();
    pem constant text := '(-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----)(?:[^-]|-[^-])*';
    userinfo constant text := '(//[^/ \t\n\r\f\v:@]*:)[^/ \t\n\r\f\v@]+@';
    bearer constant text := '(^|[^A-Za-z0-9_])([Bb][Ee][Aa][Rr][Ee][Rr][ \t\n\r\f\v]+)[A-Za-z0-9._~+/=-]+';
    basic constant text := '(^|[^A-Za-z0-9_])(Basic[ \t\n\r\f\v]+)[A-Za-z0-9+/]{8,}={0,2}';
    api_key constant text := '(^|[^A-Za-z0-9_-])(?:'
        || '(?:(?:sk|rk)_(?:live|test)_|whsec_|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|xapp-|shp(?:at|ss|ca|pa)_)'
        || '[A-Za-z0-9_.-]+|sk-[A-Za-z0-9_.-]{20,}|(?:AKIA|ASIA)[A-Za-z0-9_.-]{16,}|AIza[A-Za-z0-9_.-]{30,}'
        || '|npm_[A-Za-z0-9_.-]{30,}|SG\.[A-Za-z0-9_.-]{16,}|eyJ[A-Za-z0-9_.-]{8,})';
    card constant text := '(^|[^A-Za-z0-9_-])([0-9]{13,19}|[0-9]{4} [0-9]{4} [0-9]{4} [0-9]{1,7}'
        || '|[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{1,7})(?![A-Za-z0-9_-])';
    masked text;
BEGIN
    IF input IS NULL OR input = '' OR input !~ hint THEN
        RETURN input;
    END IF;
    masked := regexp_replace(input, pem, '\1[redacted]', 'g');
    masked := regexp_replace(masked, pair, '\1\2\3\4\5[redacted]', 'g');
    masked := regexp_replace(masked, userinfo, '\1[redacted]@', 'g');
    masked := regexp_replace(masked, bearer, '\1\2[redacted]', 'g');
    masked := regexp_replace(masked, basic, '\1\2[redacted]', 'g');
    masked := regexp_replace(masked, api_key, '\1[redacted]', 'g');
    IF masked !~ card THEN
        RETURN masked;
    END IF;
    -- Only Luhn-valid candidates are cards: the text between the candidates and each candidate, masked or kept, in
    -- turn (split and matches walk the text alike; ROWS FROM pairs them without indexing an array).
    RETURN string_agg(coalesce(piece.text, '') || CASE
                          WHEN piece.found IS NULL THEN ''
                          WHEN "${flyway:defaultSchema}".luhn_valid(piece.found[2]) THEN piece.found[1] || '[redacted]'
                          ELSE piece.found[1] || piece.found[2] END, '' ORDER BY piece.n)
      FROM ROWS FROM (regexp_split_to_table(masked, card), regexp_matches(masked, card, 'g'))
           WITH ORDINALITY AS piece (text, found, n);
END $$;
