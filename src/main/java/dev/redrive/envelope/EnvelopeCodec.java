package dev.redrive.envelope;

import dev.redrive.identity.InvalidIdException;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.secret.QuotedInput;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** Reads and writes the v1 wire contract: a flat map of string fields, as in a Redis stream entry. */
public final class EnvelopeCodec {
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 256 * 1024;
    /**
     * The most characters a free-text field ({@code tool_schema_version}, {@code trace_id}, {@code correlation_id},
     * {@code runtime_version}, {@code approval_id}) may hold: whatever its characters, a value this long still fits
     * the indexes that find an operation or a dead letter by it.
     */
    public static final int MAX_TEXT_LENGTH = 512;

    private final int maxPayloadBytes;

    public EnvelopeCodec(int maxPayloadBytes) {
        this.maxPayloadBytes = maxPayloadBytes;
    }

    public EnvelopeCodec() {
        this(DEFAULT_MAX_PAYLOAD_BYTES);
    }

    /** The most UTF-8 bytes a payload may hold. */
    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    public Map<String, String> encode(DispatchEnvelope envelope) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("v", DispatchEnvelope.WIRE_VERSION);
        fields.put("run_id", envelope.runId());
        fields.put("node_id", envelope.nodeId());
        fields.put("logical_attempt", Integer.toString(envelope.logicalAttempt()));
        fields.put("operation_id", envelope.operationId().value());
        fields.put("attempt", Integer.toString(envelope.attempt()));
        fields.put("tool", envelope.tool());
        fields.put("tool_schema_version", envelope.toolSchemaVersion());
        fields.put("idempotency_key", envelope.idempotencyKey());
        fields.put("payload", envelope.payload());
        fields.put("trace_id", nullToEmpty(envelope.traceId()));
        fields.put("correlation_id", nullToEmpty(envelope.correlationId()));
        fields.put("runtime_version", nullToEmpty(envelope.runtimeVersion()));
        fields.put("dispatched_at", envelope.dispatchedAt().toString());
        putOptional(fields, "next_eligible_at", envelope.nextEligibleAt() == null ? null : envelope.nextEligibleAt().toString());
        putOptional(fields, "last_error_class", envelope.lastErrorClass() == null ? null : envelope.lastErrorClass().name());
        putOptional(fields, "redrive_command_id", envelope.redriveCommandId());
        putOptional(fields, "approval_id", envelope.approvalId());
        putOptional(fields, "traceparent", envelope.traceparent());
        return fields;
    }

    /** Validates every field of the contract; throws {@link InvalidEnvelopeException} naming the first bad one. */
    public DispatchEnvelope decode(Map<String, String> fields) {
        String version = required(fields, "v");
        if (!DispatchEnvelope.WIRE_VERSION.equals(version)) {
            throw new InvalidEnvelopeException("v must be " + DispatchEnvelope.WIRE_VERSION + ", got " + QuotedInput.of(version));
        }
        OperationId identity;
        try {
            identity = new OperationId(required(fields, "run_id"), required(fields, "node_id"),
                    OperationId.parseLogicalAttempt(required(fields, "logical_attempt")));
        } catch (InvalidIdException e) {
            throw new InvalidEnvelopeException(e.getMessage());
        }
        String operationId = required(fields, "operation_id");
        if (!operationId.equals(identity.value())) {
            throw new InvalidEnvelopeException("operation_id must equal run_id:node_id:logical_attempt ('"
                    + identity.value() + "'), got " + QuotedInput.of(operationId));
        }
        int attempt = positiveInt(fields, "attempt");
        String tool = tool(required(fields, "tool"));
        String payload = required(fields, "payload");
        JsonPayload.parse(payload, maxPayloadBytes);
        String commandId = optional(fields, "redrive_command_id");
        if (commandId != null) {
            try {
                UUID.fromString(commandId);
            } catch (IllegalArgumentException e) {
                throw new InvalidEnvelopeException("redrive_command_id must be a UUID, got " + QuotedInput.of(commandId));
            }
        }
        String schemaVersion = printable("tool_schema_version", required(fields, "tool_schema_version"));
        String idempotencyKey = idempotencyKey(required(fields, "idempotency_key"));
        return new DispatchEnvelope(identity, attempt, tool,
                schemaVersion,
                idempotencyKey,
                payload,
                printable("trace_id", optional(fields, "trace_id")),
                printable("correlation_id", optional(fields, "correlation_id")),
                printable("runtime_version", optional(fields, "runtime_version")),
                instant(fields, "dispatched_at", true),
                instant(fields, "next_eligible_at", false),
                failureClass(fields),
                commandId,
                printable("approval_id", optional(fields, "approval_id")),
                Traceparent.parse(optional(fields, "traceparent")).orElse(null));
    }

    /**
     * Refuses what {@code decode(encode(envelope))} would, with the same words, for a first dispatch built in this
     * process by {@code WorkerClient.newDispatch} from text its author gave, whose payload is {@code payload}, already
     * checked: the author's fields in the order decode checks them, without writing the envelope out and parsing its
     * payload a second time (what made a bulk dispatch parse every line twice). The fields this process fills in
     * itself (version, attempt, instants) hold by construction.
     */
    public void checkFirstDispatch(DispatchEnvelope envelope, JsonPayload payload) {
        tool(required("tool", envelope.tool()));
        if (!payload.text().equals(envelope.payload())) {
            throw new IllegalArgumentException("the payload checked is not the dispatch's");
        }
        printable("tool_schema_version", required("tool_schema_version", envelope.toolSchemaVersion()));
        idempotencyKey(required("idempotency_key", envelope.idempotencyKey()));
        printable("trace_id", emptyToNull(envelope.traceId()));
        printable("correlation_id", emptyToNull(envelope.correlationId()));
        printable("runtime_version", emptyToNull(envelope.runtimeVersion()));
        printable("approval_id", emptyToNull(envelope.approvalId()));
    }

    private static String tool(String tool) {
        if (!OperationId.isValidId(tool)) {
            throw new InvalidEnvelopeException("tool must match [A-Za-z0-9._-]{1,128}, got " + QuotedInput.of(tool));
        }
        return tool;
    }

    private static String idempotencyKey(String key) {
        WireText.requireHeaderSafe("idempotency_key", key);
        return key;
    }

    private static String printable(String name, String value) {
        if (value != null) {
            WireText.requireAtMost(name, value, MAX_TEXT_LENGTH);
            WireText.requirePrintable(name, value);
        }
        return value;
    }

    private static String required(Map<String, String> fields, String name) {
        return required(name, fields.get(name));
    }

    /** A field's value, which the wire gives as text and so empty when there is none: the empty text is missing. */
    private static String required(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new InvalidEnvelopeException(name + " is missing");
        }
        return value;
    }

    private static String optional(Map<String, String> fields, String name) {
        return emptyToNull(fields.get(name));
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static int positiveInt(Map<String, String> fields, String name) {
        String text = required(fields, name);
        try {
            int value = Integer.parseInt(text);
            if (value < 1) {
                throw new InvalidEnvelopeException(name + " must be 1 or more, got " + value);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new InvalidEnvelopeException(name + " must be a whole number, got " + QuotedInput.of(text));
        }
    }

    private static Instant instant(Map<String, String> fields, String name, boolean required) {
        String text = required ? required(fields, name) : optional(fields, name);
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidEnvelopeException(name + " must be an ISO-8601 instant, got " + QuotedInput.of(text));
        }
    }

    private static FailureClass failureClass(Map<String, String> fields) {
        String text = optional(fields, "last_error_class");
        if (text == null) {
            return null;
        }
        try {
            return FailureClass.valueOf(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidEnvelopeException("last_error_class is not a failure class: " + QuotedInput.of(text));
        }
    }

    private static void putOptional(Map<String, String> fields, String name, String value) {
        if (value != null) {
            fields.put(name, value);
        }
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}
