package dev.redrive.worker.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Objects;

/**
 * How many times a tool applied the effect of one idempotency key, as the tool itself counts it: what a verification
 * after a redrive asks to tell "applied once" from "applied twice", whatever the tool keeps its effects in.
 *
 * @param effects  the effects applied for the key (0 or more); null when the tool cannot count them
 * @param evidence what was asked and what came back, or why nothing could be counted
 */
public record EffectCount(Long effects, String evidence) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public EffectCount {
        Objects.requireNonNull(evidence, "evidence");
        if (effects != null && effects < 0) {
            throw new IllegalArgumentException("an effect count cannot be negative, got " + effects);
        }
    }

    public static EffectCount counted(long effects, String evidence) {
        return new EffectCount(effects, evidence);
    }

    public static EffectCount notCountable(String why) {
        return new EffectCount(null, why);
    }

    /** Whether the tool counted; when not, exactly-once cannot be verified for it. */
    public boolean countable() {
        return effects != null;
    }

    /**
     * Reads the count from a look-up endpoint's answer (see {@link HttpTool}): a 200 or 404 whose JSON body carries
     * {@code "effects": N}, a whole number of at least 0. Any other answer, or one without the field, counts nothing:
     * look-ups written before the field existed still reconcile, they only cannot verify.
     */
    public static EffectCount fromLookupAnswer(int status, String body, String evidence) {
        if (status != 200 && status != 404) {
            return notCountable(evidence);
        }
        JsonNode effects;
        try {
            effects = JSON.readTree(body == null ? "" : body).path("effects");
        } catch (JsonProcessingException e) {
            return notCountable(evidence + " (not JSON)");
        }
        if (!effects.isIntegralNumber() || effects.asLong() < 0) {
            return notCountable(evidence + " (no \"effects\" count in the answer)");
        }
        return counted(effects.asLong(), evidence);
    }
}
