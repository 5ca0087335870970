package dev.redrive.secret;

import java.util.List;

/**
 * Masks the secret-looking parts of free text (an error message, evidence, a payload that is not JSON or was cut) in
 * time linear in its length: each shape is found by one left-to-right scan that tries a start only where a key, a
 * credential or a number can begin, and never reads a stretch of text more than a fixed number of times. The shapes,
 * masked in this order, each on the text the one before left:
 * <ol>
 *     <li>private keys in PEM: the body after {@code -----BEGIN ... PRIVATE KEY-----} up to {@code --} or the end;</li>
 *     <li>{@code key=value} and {@code key: value} pairs whose key holds the words of a secret name as words of its own
 *     (see {@link #isSecretKey}), the key quoted or not: a {@code "..."} value up to its closing quote (JSON's
 *     {@code \"} inside it), a {@code \"...\"} value (JSON held as text in a string) up to its closing {@code \"}, a
 *     {@code '...'} value, a {@code [...]} or {@code {...}} value up to its first closing bracket (masked with its
 *     brackets, since the mask holds a closing one), each of them to the
 *     end of the text when it was cut open; an unquoted value (with an optional Bearer/Basic/Token/Digest scheme) up to
 *     a space, a quote or one of {@code , ; & < >}; masking masked text changes nothing;</li>
 *     <li>the password of a URL's userinfo, {@code //user:password@};</li>
 *     <li>bearer credentials and 5. basic ones ({@code Basic} and eight or more base64 characters) anywhere;</li>
 *     <li value="6">API keys by their well-known prefixes ({@code sk_live_}, {@code ghp_}, {@code xoxb-},
 *     {@code AKIA}..., {@code glpat-}, ...) and JWTs ({@code eyJ...});</li>
 *     <li>card numbers that pass the Luhn check: 13 to 19 digits standing alone, or four groups split by spaces or
 *     dashes.</li>
 * </ol>
 * The database masks what viewers read with the same shapes (migration V262, {@code mask_free_text}); each pass here
 * finds exactly the matches its regular expression there finds: a match starts at the character before it (which
 * the previous match must not have taken) and is the longest one from there.
 */
public final class SecretScanner {
    /** What replaces a masked value. */
    public static final String MASK = "[redacted]";
    /**
     * The secret names masked unless others are configured; the database masks what viewers read by the same list
     * (its {@code secret_field_names()}, held to this one by MaskingAgreementTest).
     */
    public static final List<String> DEFAULT_NAMES = List.of("password", "token", "secret", "card_number",
            "authorization", "api_key");
    private static final SecretScanner DEFAULTS = new SecretScanner(DEFAULT_NAMES);

    private final SecretPairs pairs;

    private SecretScanner(List<String> names) {
        this.pairs = new SecretPairs(names);
    }

    /**
     * A scanner for secret names in snake case ({@code password}, {@code api_key}): a key is secret when it holds one's
     * words in any case, separated by {@code _ . -} or by nothing.
     */
    public static SecretScanner forNames(List<String> names) {
        return new SecretScanner(names);
    }

    /** A scanner for {@link #DEFAULT_NAMES}: for error texts and log lines, made before any configuration is read. */
    public static SecretScanner defaults() {
        return DEFAULTS;
    }

    /** The text with every secret-looking part replaced by {@link #MASK}; null stays null. */
    public String mask(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String masked = Credentials.privateKeys(text);
        masked = pairs.mask(masked);
        masked = Credentials.userinfo(masked);
        masked = Credentials.bearer(masked);
        masked = Credentials.basic(masked);
        masked = ApiKeys.mask(masked);
        return CardNumbers.mask(masked);
    }

    /**
     * Whether a key (a run of {@code [A-Za-z0-9_.-]}) is secret: it holds the words of a secret name, in any case and
     * separated by {@code _ . -} or by nothing, preceded by the key's start or a separator (or begun with an upper-case
     * letter) and followed by the key's end, a separator or an upper-case letter. {@code password}, {@code userPassword},
     * {@code x-api-key}, {@code access_token}, {@code token_count}, {@code APIKEY} and {@code x_token_id} are;
     * {@code tokens}, {@code mytoken} and {@code max_tokens} are not.
     */
    public boolean isSecretKey(String key) {
        return pairs.isSecretKey(key);
    }
}
