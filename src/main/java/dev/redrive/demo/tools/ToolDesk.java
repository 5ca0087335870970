package dev.redrive.demo.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The remote system one demo tool plays: it applies each call's effect once per idempotency key (or on every call, as
 * its {@link EffectPolicy} says), fails as the
 * payload's fault list asks, and answers reconciliation look-ups. No HTTP here: {@link CallHandler} and
 * {@link EffectLookupHandler} translate.
 */
final class ToolDesk {
    private final DemoTool tool;
    private final String name;
    private final DemoToolLedger ledger;
    private final Clock clock;
    private final EffectPolicy policy;
    private final ObjectMapper json = new ObjectMapper();

    ToolDesk(DemoTool tool, DemoToolLedger ledger, Clock clock, EffectPolicy policy) {
        this.tool = tool;
        this.policy = policy;
        this.name = tool.toolName();
        this.ledger = ledger;
        this.clock = clock;
    }

    ToolAnswer call(ReceivedCall request) {
        if (request.idempotencyKey() == null || request.idempotencyKey().isBlank()) {
            return refuse(request, 400, "missing_idempotency_key", "the Idempotency-Key header is required");
        }
        ObjectNode payload;
        FaultPlan plan;
        BigDecimal amount;
        try {
            payload = payloadObject(request.body());
            plan = FaultPlan.parse(payload.path("fault").isTextual() ? payload.get("fault").asText() : null);
            amount = amount(payload);
        } catch (IllegalArgumentException e) {
            return refuse(request, 400, "invalid_request", e.getMessage());
        }
        return ledger.underKeyLock(request.idempotencyKey(), () -> {
            // Judged under the key's lock, at the moment the call would act: a call that passed the check on arrival
            // and then waited for the lock could otherwise act after another worker's look-up had found nothing.
            if (pastDeadline(request)) {
                return refuse(request, 408, "deadline_passed", "the call reached its effect after its deadline "
                        + request.deadline() + "; nothing was done");
            }
            int callNumber = ledger.callsSoFar(name, request.idempotencyKey()) + 1;
            Optional<Fault> fault = plan.forCall(callNumber);
            ToolAnswer answer = fault.map(f -> answerFor(f, request, amount)).orElseGet(() -> applyOrReplay(request, amount));
            ledger.recordCall(name, request, answer.status(), fault.map(Fault::kind).orElse(null), payload.toString());
            return answer;
        });
    }

    /**
     * Whether the worker's lease on the call has ended: a worker paused past its lease sent it, and another may have
     * taken the operation over and looked the key up. Its end is the instant another worker may take over, so a call
     * at that very instant is late too.
     */
    private boolean pastDeadline(ReceivedCall request) {
        return request.deadline() != null && !clock.instant().isBefore(request.deadline());
    }

    ToolAnswer lookup(String idempotencyKey) {
        return ledger.underKeyLock(idempotencyKey, () -> {
            Instant now = clock.instant();
            int lookupNumber = ledger.lookupsSoFar(name, idempotencyKey) + 1;
            FaultPlan plan = ledger.lastFaultText(name, idempotencyKey).map(ToolDesk::planOrNone).orElse(FaultPlan.none());
            ToolAnswer answer;
            if (plan.lookupDown(lookupNumber)) {
                answer = error(503, "lookup_unavailable", "the effects ledger of " + name + " is not answering");
            } else {
                long effects = ledger.effectsFor(name, idempotencyKey);
                answer = ledger.effectResult(idempotencyKey)
                        .map(result -> ToolAnswer.of(200, "{\"applied\":true,\"result\":" + result + ",\"effects\":" + effects + "}"))
                        .orElseGet(() -> ToolAnswer.of(404, "{\"applied\":false,\"effects\":" + effects + "}"));
            }
            ledger.recordLookup(name, idempotencyKey, answer.status(), now);
            return answer;
        });
    }

    /** A look-up never fails on a fault text that its call already refused. */
    private static FaultPlan planOrNone(String faultText) {
        try {
            return FaultPlan.parse(faultText);
        } catch (InvalidFaultException e) {
            return FaultPlan.none();
        }
    }

    private ToolAnswer answerFor(Fault fault, ReceivedCall request, BigDecimal amount) {
        return switch (fault.kind()) {
            case RATE_LIMIT -> error(429, "rate_limited", "rate limit exceeded for " + name + ", retry after "
                    + fault.retryAfterSeconds() + " s").withHeader("Retry-After", Integer.toString(fault.retryAfterSeconds()));
            case TRANSIENT -> error(500, "internal_error", tool.remoteSystem() + " failed: worker pool exhausted (ref "
                    + reference() + ")");
            case DEPENDENCY_DOWN -> error(503, "dependency_unavailable", tool.remoteSystem() + " unreachable: upstream "
                    + "connection timed out after 3000 ms");
            case INVALID -> error(400, "invalid_request", invalidMessage(amount));
            case FORBIDDEN -> error(403, "forbidden", "the caller is not allowed to use " + name
                    + ": the approval for scope " + name + ".write is missing or revoked");
            case TIMEOUT_BEFORE_APPLY -> error(504, "gateway_timeout", tool.remoteSystem() + " did not answer in time")
                    .lostInTransit();
            case TIMEOUT_AFTER_APPLY -> applyOrReplay(request, amount).lostInTransit();
            case LOOKUP_DOWN -> throw new IllegalStateException("lookup_down never applies to calls");
        };
    }

    private String invalidMessage(BigDecimal amount) {
        return tool == DemoTool.CHARGE
                ? "amount " + amount + " is not accepted: currency is missing or the amount is outside the allowed range"
                : "the request does not match the " + name + " schema: a required field is missing or malformed";
    }

    private ToolAnswer applyOrReplay(ReceivedCall request, BigDecimal amount) {
        Optional<String> stored = policy == EffectPolicy.ONCE_PER_KEY ? ledger.effectResult(request.idempotencyKey())
                : Optional.empty();
        if (stored.isPresent()) {
            return ToolAnswer.of(200, stored.get()).withHeader("Idempotent-Replayed", "true");
        }
        Instant appliedAt = clock.instant();
        ObjectNode result = json.createObjectNode()
                .put(tool.resultIdField(), tool.resultIdPrefix() + reference())
                .put("amount", amount)
                .put("idempotency_key", request.idempotencyKey())
                .put("applied_at", appliedAt.toString());
        String resultText = result.toString();
        ledger.recordEffect(name, request.idempotencyKey(), request.operationId(), amount, resultText, appliedAt);
        return ToolAnswer.of(200, resultText);
    }

    private ToolAnswer refuse(ReceivedCall request, int status, String code, String message) {
        ToolAnswer answer = error(status, code, message);
        ledger.recordCall(name, request, status, null, bodyForRecord(request.body()));
        return answer;
    }

    private ToolAnswer error(int status, String code, String message) {
        return ToolAnswer.of(status, json.createObjectNode().put("error", code).put("message", message).toString());
    }

    private ObjectNode payloadObject(String body) {
        try {
            JsonNode node = json.readTree(body == null ? "" : body);
            if (node instanceof ObjectNode object) {
                return object;
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body must be a JSON object: " + e.getOriginalMessage());
        }
        throw new IllegalArgumentException("the body must be a JSON object");
    }

    private static BigDecimal amount(ObjectNode payload) {
        JsonNode amount = payload.get("amount");
        if (amount == null || amount.isNull()) {
            return null;
        }
        if (!amount.isNumber()) {
            throw new IllegalArgumentException("amount must be a number, got " + amount);
        }
        return amount.decimalValue();
    }

    /** Keeps the raw body as evidence even when it is not JSON. */
    private String bodyForRecord(String body) {
        try {
            return json.readTree(body == null ? "" : body).isObject() ? body
                    : json.createObjectNode().put("unparsed", body).toString();
        } catch (JsonProcessingException e) {
            return json.createObjectNode().put("unparsed", body).toString();
        }
    }

    private static String reference() {
        byte[] bytes = new byte[8];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
