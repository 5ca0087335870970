package dev.redrive.triage.request;

import dev.redrive.model.TypedDuration;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The namespace's four-eyes policy: which decisions wait for a second operator's approval. Switched on without any
 * rule it covers every decision; with rules, a decision is covered when any of them says so.
 *
 * @param batchOver   a decision on more than this many items is covered; null = not by its size
 * @param corrections every correct-and-redrive is covered
 * @param tools       a redrive, resolve or discard of an operation of one of these tools is covered; empty = not by tool
 * @param expireAfter how long a request waits for its approval before it expires
 * @param changedBy   the name typed by whoever changed it last (null: never changed); {@code changedLogin} is their login
 */
public record FourEyesPolicy(boolean enabled, Integer batchOver, boolean corrections, List<String> tools,
                             Duration expireAfter, String changedBy, String changedLogin, Instant changedAt) {
    public static final Duration DEFAULT_EXPIRY = Duration.ofHours(24);

    public FourEyesPolicy {
        tools = List.copyOf(tools);
        if (batchOver != null && batchOver < 0) {
            throw new IllegalArgumentException("--batch-over must be 0 or more items, got " + batchOver);
        }
        if (expireAfter == null || expireAfter.isNegative() || expireAfter.toSeconds() < 1) {
            throw new IllegalArgumentException("a request must be given at least one second before it expires, got "
                    + expireAfter);
        }
    }

    /** The policy as an operator sets it; who changed it and when is recorded by the store. */
    public static FourEyesPolicy of(boolean enabled, Integer batchOver, boolean corrections, Collection<String> tools,
                                    Duration expireAfter) {
        return new FourEyesPolicy(enabled, batchOver, corrections, List.copyOf(tools),
                expireAfter == null ? DEFAULT_EXPIRY : expireAfter, null, null, null);
    }

    private boolean coversEverything() {
        return batchOver == null && !corrections && tools.isEmpty();
    }

    /**
     * Whether a decision waits for approval, and which rule says so.
     *
     * @param items the number of items it decides
     * @param tools the tools of their operations
     * @return the rule in a few words ("four-eyes covers tool demo.charge"); empty when it is taken at once
     */
    public Optional<String> covers(RequestKind kind, int items, Collection<String> tools) {
        if (!enabled) {
            return Optional.empty();
        }
        if (coversEverything()) {
            return Optional.of("four-eyes covers every decision");
        }
        if (kind == RequestKind.CORRECT && corrections) {
            return Optional.of("four-eyes covers corrections");
        }
        if (batchOver != null && items > batchOver) {
            return Optional.of("four-eyes covers decisions on more than " + batchOver + " item(s); this one takes "
                    + items);
        }
        if (kind != RequestKind.CORRECT) {
            Optional<String> tool = tools.stream().filter(this.tools::contains).sorted().findFirst();
            if (tool.isPresent()) {
                return Optional.of("four-eyes covers tool " + tool.get());
            }
        }
        return Optional.empty();
    }

    /** One line: "four-eyes on: every decision, requests expire after 24h" or "four-eyes off". */
    public String describe() {
        if (!enabled) {
            return "four-eyes off";
        }
        StringBuilder rules = new StringBuilder();
        if (coversEverything()) {
            rules.append("every decision");
        } else {
            if (batchOver != null) {
                rules.append("decisions on more than ").append(batchOver).append(" item(s)");
            }
            if (corrections) {
                rules.append(rules.isEmpty() ? "" : "; ").append("corrections");
            }
            if (!tools.isEmpty()) {
                rules.append(rules.isEmpty() ? "" : "; ").append("tools ").append(String.join(", ", tools));
            }
        }
        return "four-eyes on: " + rules + "; requests expire after " + TypedDuration.text(expireAfter);
    }
}
