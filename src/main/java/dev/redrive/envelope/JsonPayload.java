package dev.redrive.envelope;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.secret.JsonErrors;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A dispatch payload: a JSON object that PostgreSQL's jsonb can hold, and its canonical form. The checks are
 * PostgreSQL's own limits, applied before any statement, so that a payload the store would refuse is dead-lettered
 * alone instead of failing the statement that records a whole batch.
 */
public final class JsonPayload {
    /** jsonb numbers are numerics: at most this many digits before the decimal point... */
    static final int MAX_INTEGER_DIGITS = 131_072;
    /** ...and this many after it. */
    static final int MAX_FRACTION_DIGITS = 16_383;
    /** Arrays and objects nest at most this deep (the parser's default, named here: the limit has its own code). */
    public static final int MAX_NESTING_DEPTH = 1000;

    /** A number literal of a dispatch's payload is at most this long (the parser's default). */
    static final int MAX_NUMBER_LENGTH = 1000;

    private static final ObjectMapper JSON = mapper(MAX_NUMBER_LENGTH);
    /** {@link #JSON} for a value followed by more of its document. */
    private static final ObjectReader IN_DOCUMENT = JSON.reader()
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /**
     * For payloads as the operation store renders them: jsonb writes a number out in full ({@code 1e1000} comes back as
     * 1,001 digits), so a recorded payload may hold a number longer than a dispatch may spell it.
     */
    private static final ObjectMapper RECORDED = mapper(MAX_INTEGER_DIGITS + MAX_FRACTION_DIGITS + 2);

    /**
     * Where in the payload a value is, as the refusal names it: written only for a refusal, not for every value of
     * every payload checked.
     */
    private static final Supplier<String> ROOT = () -> "payload";

    private final JsonNode tree;
    private final String text;

    private JsonPayload(JsonNode tree, String text) {
        this.tree = tree;
        this.text = text;
    }

    /**
     * Parses and checks a payload of at most {@code maxBytes} UTF-8 bytes; the exception names what is wrong and, in
     * its code, which rule (size, JSON, nesting, a number no decimal holds, storable). Nothing else escapes: a number
     * the parser cannot read, which it reports as a {@link NumberFormatException}, is refused like any other.
     */
    public static JsonPayload parse(String text, int maxBytes) {
        requireAtMost(text, maxBytes);
        return parse(text, JSON);
    }

    /**
     * Checks a payload that a larger JSON document held (a line of a dispatch file), read with
     * {@link #readTree(JsonParser)}: the rules of {@link #parse(String, int)} on its text ({@link #text()}, written
     * once here) and on the tree itself, without parsing it again. The nesting and number limits are those of the
     * document's parser.
     */
    public static JsonPayload of(ObjectNode tree, int maxBytes) {
        String text = tree.toString();
        requireAtMost(text, maxBytes);
        checkStorable(tree, ROOT);
        return new JsonPayload(tree, text);
    }

    /**
     * Reads the JSON value at {@code parser}'s current token as {@link #parse(String, int)} does, numbers as exact
     * decimals (never rounded through a double), leaving the rest of the document to its reader: for a payload inside
     * a larger document, which {@link #of(ObjectNode, int)} then checks.
     */
    public static JsonNode readTree(JsonParser parser) throws IOException {
        try {
            return IN_DOCUMENT.readTree(parser);
        } catch (NumberFormatException | ArithmeticException e) {
            throw unreadableNumber();
        }
    }

    /**
     * An exponent past 32 bits (1e2147483648, 1e-2147483649): no BigDecimal, and no jsonb numeric, holds it. The
     * parser's words would quote the input, so the line says what is expected instead.
     */
    private static InvalidEnvelopeException unreadableNumber() {
        return new InvalidEnvelopeException(InvalidEnvelopeException.UNREADABLE_NUMBER, "payload holds a number "
                + "no decimal can hold; expected at most " + MAX_INTEGER_DIGITS
                + " digits before the decimal point and " + MAX_FRACTION_DIGITS + " after it");
    }

    private static void requireAtMost(String text, int maxBytes) {
        int size = text.getBytes(StandardCharsets.UTF_8).length;
        if (size > maxBytes) {
            throw new InvalidEnvelopeException(InvalidEnvelopeException.PAYLOAD_TOO_LARGE,
                    "payload is " + size + " bytes, over the limit of " + maxBytes);
        }
    }

    /**
     * Parses a payload the operation store holds, or one {@link #parse(String, int)} accepted, for its canonical form:
     * as {@link #parse(String, int)}, without a size limit and with numbers as long as jsonb writes them.
     */
    public static JsonPayload parseRecorded(String text) {
        return parse(text, RECORDED);
    }

    private static JsonPayload parse(String text, ObjectMapper json) {
        JsonNode tree;
        try {
            tree = json.readTree(text);
        } catch (StreamConstraintsException e) {
            int depth = nestingDepth(text);
            if (depth > MAX_NESTING_DEPTH) {
                throw new InvalidEnvelopeException(InvalidEnvelopeException.NESTING_TOO_DEEP, "payload nests arrays "
                        + "and objects " + depth + " levels deep; expected at most " + MAX_NESTING_DEPTH);
            }
            throw new InvalidEnvelopeException("payload is not JSON: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw new InvalidEnvelopeException("payload is not JSON: " + JsonErrors.describe(e));
        } catch (NumberFormatException | ArithmeticException e) {
            throw unreadableNumber();
        }
        if (tree == null || !tree.isObject()) {
            throw new InvalidEnvelopeException("payload must be a JSON object");
        }
        checkStorable(tree, ROOT);
        return new JsonPayload(tree, text);
    }

    /** The payload's text: as given to {@link #parse(String, int)}, or as {@link #of(ObjectNode, int)} wrote it. */
    public String text() {
        return text;
    }

    /**
     * The payload with object keys sorted (by UTF-16 code unit), no insignificant whitespace, and each number as its
     * shortest exact decimal ({@code 100}, {@code 1e2} and {@code 100.0} are all {@code 1E+2}): two payloads are the
     * same parameters exactly when their canonical forms are equal, the way PostgreSQL compares jsonb values.
     */
    public String canonical() {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = JSON.getFactory().createGenerator(out)) {
            write(tree, generator);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a string cannot fail", e);
        }
        return out.toString();
    }

    private static void write(JsonNode node, JsonGenerator generator) throws IOException {
        if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            node.fields().forEachRemaining(fields::add);
            fields.sort(Map.Entry.comparingByKey());
            generator.writeStartObject();
            for (Map.Entry<String, JsonNode> field : fields) {
                generator.writeFieldName(field.getKey());
                write(field.getValue(), generator);
            }
            generator.writeEndObject();
        } else if (node.isArray()) {
            generator.writeStartArray();
            for (JsonNode element : node) {
                write(element, generator);
            }
            generator.writeEndArray();
        } else if (node.isNumber()) {
            BigDecimal value = node.decimalValue();
            generator.writeNumber(value.signum() == 0 ? "0" : value.stripTrailingZeros().toString());
        } else {
            generator.writeTree(node);
        }
    }

    private static void checkStorable(JsonNode node, Supplier<String> path) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                checkString(field.getKey(), () -> path.get() + " key '" + printable(field.getKey()) + "'");
                checkStorable(field.getValue(), () -> path.get() + "." + printable(field.getKey()));
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                int index = i;
                checkStorable(node.get(i), () -> path.get() + "[" + index + "]");
            }
        } else if (node.isTextual()) {
            checkString(node.textValue(), path);
        } else if (node.isNumber()) {
            checkNumber(node.decimalValue(), path);
        }
    }

    private static void checkString(String value, Supplier<String> where) {
        int offset = WireText.firstUnstorableInJson(value);
        if (offset >= 0) {
            throw new InvalidEnvelopeException(InvalidEnvelopeException.UNSTORABLE_PAYLOAD, where.get() + " holds "
                    + WireText.describe(value, offset) + " at character " + offset
                    + "; expected JSON text without NUL or unpaired surrogates");
        }
    }

    private static void checkNumber(BigDecimal value, Supplier<String> where) {
        long integerDigits = (long) value.precision() - value.scale();
        if (integerDigits > MAX_INTEGER_DIGITS || value.scale() > MAX_FRACTION_DIGITS) {
            throw new InvalidEnvelopeException(InvalidEnvelopeException.UNSTORABLE_PAYLOAD, where.get()
                    + " is a number out of range; expected at most " + MAX_INTEGER_DIGITS
                    + " digits before the decimal point and " + MAX_FRACTION_DIGITS + " after it");
        }
    }

    private static ObjectMapper mapper(int maxNumberLength) {
        return JsonMapper.builder(JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH).maxNumberLength(maxNumberLength).build()).build())
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                // The payload is one JSON value: text after it is refused here, not by PostgreSQL later.
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
                .build();
    }

    /**
     * How deep arrays and objects open in {@code text}, counted outside strings whether or not they close: what the
     * parser stopped at when it refused the nesting. One pass, no recursion, whatever the text holds.
     */
    static int nestingDepth(String text) {
        int depth = 0;
        int deepest = 0;
        boolean inString = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                deepest = Math.max(deepest, ++depth);
            } else if (c == ']' || c == '}') {
                depth--;
            }
        }
        return deepest;
    }

    private static String printable(String key) {
        return WireText.firstUnstorable(key) < 0 ? key : "(key with control characters)";
    }
}
