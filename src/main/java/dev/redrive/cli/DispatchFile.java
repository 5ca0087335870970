package dev.redrive.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.envelope.InvalidEnvelopeException;
import dev.redrive.envelope.JsonPayload;
import dev.redrive.envelope.Traceparent;
import dev.redrive.identity.OperationId;
import dev.redrive.secret.JsonErrors;
import dev.redrive.worker.client.WorkerClient;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A file of dispatches, one JSON object per line (JSON Lines):
 * {@code {"run":"order-1042","node":"charge","tool":"demo.charge","payload":{"amount":10}}} with the optional
 * {@code logical_attempt}, {@code trace_id}, {@code traceparent}, {@code correlation_id}, {@code approval_id} and
 * {@code schema_version}. Every line is read and checked before anything is dispatched, so a bad line dispatches
 * nothing; blank lines are skipped.
 */
final class DispatchFile {
    private static final String BYTE_ORDER_MARK = "\uFEFF";
    static final String FIELDS = "run, node, tool, payload, and optionally logical_attempt, trace_id, traceparent, "
            + "correlation_id, approval_id, schema_version";

    /**
     * Takes each field only as the type it is: a number where a text is expected ({@code "run":5}), a text or a
     * fraction where a whole number is ({@code "logical_attempt":"2"}, {@code 1.5}, {@code 1e2}), or a field given twice
     * is refused rather than turned into something the line did not say.
     */
    private static final ObjectMapper JSON = strict(new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION));

    private static ObjectMapper strict(ObjectMapper mapper) {
        for (CoercionInputShape shape : List.of(CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean)) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        for (CoercionInputShape shape : List.of(CoercionInputShape.String, CoercionInputShape.Float,
                CoercionInputShape.Boolean)) {
            mapper.coercionConfigFor(LogicalType.Integer).setCoercion(shape, CoercionAction.Fail);
        }
        return mapper;
    }

    private record Line(@JsonProperty("run") String run, @JsonProperty("node") String node,
                        @JsonProperty("tool") String tool,
                        @JsonProperty("payload") @JsonDeserialize(using = ExactPayload.class) JsonNode payload,
                        @JsonProperty("logical_attempt") Integer logicalAttempt,
                        @JsonProperty("trace_id") String traceId, @JsonProperty("traceparent") String traceparent,
                        @JsonProperty("correlation_id") String correlationId,
                        @JsonProperty("approval_id") String approvalId,
                        @JsonProperty("schema_version") String schemaVersion) {
    }

    /**
     * Reads the payload as the wire contract does, numbers as exact decimals, in the line's one pass: the tree is the
     * payload that {@link JsonPayload#of} checks and writes out, never parsed again.
     */
    static final class ExactPayload extends JsonDeserializer<JsonNode> {
        @Override
        public JsonNode deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            return JsonPayload.readTree(parser);
        }

        /** {@code "payload":null} is a payload that is no object, as Jackson's own tree reader has it. */
        @Override
        public JsonNode getNullValue(DeserializationContext context) {
            return NullNode.getInstance();
        }
    }

    /** A dispatch and the line it came from. */
    record Numbered(int line, DispatchEnvelope envelope) {
    }

    private DispatchFile() {
    }

    /**
     * Reads every line into a first dispatch; {@code currentVersion} gives a tool's schema version when a line names
     * none.
     *
     * @throws IllegalArgumentException naming the first bad line, what is wrong and what is expected
     */
    static List<Numbered> read(BufferedReader reader, String source, Clock clock,
                               Function<String, Optional<String>> currentVersion) throws IOException {
        Map<String, String> versions = new HashMap<>();
        EnvelopeCodec codec = new EnvelopeCodec();
        List<Numbered> dispatches = new ArrayList<>();
        int number = 0;
        for (String text = readLine(reader, source, number + 1); text != null;
             text = readLine(reader, source, number + 1)) {
            number++;
            if (number == 1 && text.startsWith(BYTE_ORDER_MARK)) {
                // Some editors start a UTF-8 file with a byte order mark; it is no part of the first dispatch.
                text = text.substring(1);
            }
            if (text.isBlank()) {
                continue;
            }
            try {
                Line line = parse(text);
                String version = line.schemaVersion() != null ? line.schemaVersion()
                        : versions.computeIfAbsent(line.tool(), tool -> currentVersion.apply(tool).orElse("1"));
                OperationId id = new OperationId(line.run(), line.node(),
                        line.logicalAttempt() == null ? 0 : line.logicalAttempt());
                JsonPayload payload = JsonPayload.of((ObjectNode) line.payload(), codec.maxPayloadBytes());
                DispatchEnvelope envelope = WorkerClient.firstDispatch(clock, id, line.tool(), version,
                        payload.text(), line.traceId(), line.correlationId(), line.approvalId());
                if (line.traceparent() != null) {
                    envelope = envelope.withTraceparent(Traceparent.parse(line.traceparent()).orElseThrow(() ->
                            new IllegalArgumentException("traceparent must look like 00-<32 hex trace id>-<16 hex "
                                    + "span id>-<2 hex flags>, got '" + line.traceparent() + "'")));
                }
                codec.checkFirstDispatch(envelope, payload);
                dispatches.add(new Numbered(number, envelope));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + " line " + number + ": " + e.getMessage());
            }
        }
        if (dispatches.isEmpty()) {
            throw new IllegalArgumentException(source + " holds no dispatch; expected one JSON object per line with "
                    + FIELDS);
        }
        return dispatches;
    }

    /** A line of text, or null at the end; bytes that are not UTF-8 are refused, never replaced. */
    private static String readLine(BufferedReader reader, String source, int number) throws IOException {
        try {
            return reader.readLine();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(source + " line " + number + ": not valid UTF-8; expected one JSON "
                    + "object per line in UTF-8");
        }
    }

    private static Line parse(String text) {
        Line line;
        try {
            line = JSON.readValue(text, Line.class);
        } catch (UnrecognizedPropertyException e) {
            throw new IllegalArgumentException("unknown field '" + e.getPropertyName() + "'; expected " + FIELDS);
        } catch (MismatchedInputException e) {
            String field = e.getPath().isEmpty() ? null : e.getPath().get(e.getPath().size() - 1).getFieldName();
            if (field == null) {
                throw new IllegalArgumentException("not a JSON object; expected one object with " + FIELDS);
            }
            throw new IllegalArgumentException(field + " must be " + EXPECTED.getOrDefault(field, "a text")
                    + ", got " + given(text, field) + "; expected " + FIELDS);
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof InvalidEnvelopeException payload) {
                // What ExactPayload found wrong with the payload, which Jackson wraps as it binds the line.
                throw payload;
            }
            String duplicate = e.getOriginalMessage().startsWith("Duplicate field") ? e.getOriginalMessage() : null;
            if (duplicate != null) {
                throw new IllegalArgumentException(duplicate.replace("Duplicate field", "field")
                        + " is given twice; expected each field once");
            }
            throw new IllegalArgumentException("not valid JSON (" + JsonErrors.describe(e)
                    + "); expected one JSON object with " + FIELDS);
        }
        if (line == null) {
            throw new IllegalArgumentException("not a JSON object; expected " + FIELDS);
        }
        requirePresent("run", line.run());
        requirePresent("node", line.node());
        requirePresent("tool", line.tool());
        requirePresent("payload", line.payload());
        if (!line.payload().isObject()) {
            throw new InvalidEnvelopeException("payload must be a JSON object, got " + line.payload().getNodeType()
                    .name().toLowerCase(Locale.ROOT));
        }
        return line;
    }

    /** What each field is, for the line that says a field holds something else. */
    private static final Map<String, String> EXPECTED = Map.of("payload", "a JSON object",
            "logical_attempt", "a whole number (0 or more)");

    /** The field's value as the line gave it, for the error line. */
    private static String given(String text, String field) {
        try {
            JsonNode value = JSON.readTree(text).get(field);
            return value == null ? "nothing" : value.toString();
        } catch (JsonProcessingException e) {
            return "something else";
        }
    }

    private static void requirePresent(String field, Object value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is missing; expected " + FIELDS);
        }
    }
}
