package dev.redrive.cli;

import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.query.DlqFilter;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The DLQ filters as command-line options, shared by {@code dlq list} and {@code dlq groups}. */
final class DlqFilterOptions {
    @Option(names = "--class", paramLabel = "CLASS", description = "failure class: ${COMPLETION-CANDIDATES} (any case)")
    FailureClass errorClass;

    @Option(names = "--tool", paramLabel = "TOOL", description = "tool name")
    String tool;

    @Option(names = "--run", paramLabel = "RUN_ID", description = "run id")
    String runId;

    @Option(names = "--trace", paramLabel = "ID",
            description = "trace id or correlation id, or the W3C trace id (32 hex digits) or traceparent a dispatch carried")
    String traceOrCorrelationId;

    @Option(names = "--from", paramLabel = "TIME", converter = InstantInput.Converter.class,
            description = "entered at or after: 2026-11-30T10:00:00Z, 2026-11-30 10:00[:ss] or 2026-11-30 (local time), "
                    + "or before now: -30m, -2h, -7d")
    Instant from;

    @Option(names = "--to", paramLabel = "TIME", converter = InstantInput.Converter.class,
            description = "entered before, in the same forms as --from (a date is its first moment)")
    Instant to;

    @Option(names = "--side-effect", paramLabel = "STATE", description = "side-effect state: ${COMPLETION-CANDIDATES} (any case)")
    SideEffectState sideEffect;

    @Option(names = "--state", paramLabel = "STATE", description = "decision state: ${COMPLETION-CANDIDATES} (any case)")
    DecisionState decisionState;

    @Option(names = "--text", paramLabel = "WORDS", description = "words of the normalized error message (\"quoted phrase\", -exclude)")
    String text;

    @Option(names = "--fingerprint", paramLabel = "FP", description = "error fingerprint")
    String fingerprint;

    /** @throws IllegalArgumentException naming a filter given an empty value, which would otherwise filter nothing */
    DlqFilter filter() {
        options().forEach((name, value) -> {
            if (value instanceof String typed) {
                requireValue(name, typed);
            }
        });
        return DlqFilter.builder().errorClass(errorClass).tool(tool).runId(runId)
                .traceOrCorrelationId(traceOrCorrelationId).enteredBetween(from, to).sideEffect(sideEffect)
                .decisionState(decisionState).text(text).fingerprint(fingerprint).build();
    }

    /**
     * Refuses an option given an empty or blank value: it would match everything, which a batch must never take from
     * a typo or an unset shell variable.
     */
    static void requireValue(String option, String value) {
        if (value != null && value.isBlank()) {
            throw new IllegalArgumentException(option + " was given an empty value; expected a value, or leave "
                    + option + " out");
        }
    }

    /** The filters given, as they were typed: "--tool demo.charge --class TRANSIENT". */
    String describe() {
        List<String> given = new ArrayList<>();
        options().forEach((name, value) -> {
            if (value != null) {
                given.add(name + " " + value);
            }
        });
        return String.join(" ", given);
    }

    /** Every filter option by its name, with its value as given (null where it was not). */
    private Map<String, Object> options() {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("--class", errorClass);
        options.put("--tool", tool);
        options.put("--run", runId);
        options.put("--trace", traceOrCorrelationId);
        options.put("--from", from);
        options.put("--to", to);
        options.put("--side-effect", sideEffect);
        options.put("--state", decisionState);
        options.put("--text", text);
        options.put("--fingerprint", fingerprint);
        return options;
    }
}
