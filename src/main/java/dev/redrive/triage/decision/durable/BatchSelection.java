package dev.redrive.triage.decision.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.query.DlqFilter;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a durable batch takes, kept as data in its row: a list of operation ids (walked in the order given), or every
 * open entry matching a DLQ filter (a fingerprint group is a filter on the fingerprint), walked newest first in keyset
 * order. Exactly one of the two is set.
 */
public record BatchSelection(List<String> operationIds, DlqFilter filter) {
    /** How many entry ids a line names before it says "…". */
    static final int NAMED_ENTRIES = 10;

    public BatchSelection {
        if ((operationIds == null) == (filter == null)) {
            throw new IllegalArgumentException("a batch takes either operation ids or a DLQ filter");
        }
        operationIds = operationIds == null ? null : List.copyOf(operationIds);
    }

    public static BatchSelection operations(List<String> operationIds) {
        return new BatchSelection(operationIds, null);
    }

    public static BatchSelection matching(DlqFilter filter) {
        return new BatchSelection(null, filter);
    }

    /** The open entries of one fingerprint group. */
    public static BatchSelection group(String fingerprint) {
        return matching(DlqFilter.builder().fingerprint(fingerprint).build());
    }

    /** "3 operation(s)", "fingerprint fp-1, tool demo.charge": a short line for lists. */
    public String describe() {
        if (operationIds != null) {
            return operationIds.size() + " operation(s)";
        }
        StringBuilder line = new StringBuilder();
        JsonNode fields = filterJson(filter);
        fields.fields().forEachRemaining(field -> line.append(line.isEmpty() ? "" : ", ")
                .append(field.getKey().replace('_', ' ')).append(' ').append(field.getValue().asText()));
        return line.isEmpty() ? "every open entry" : line.toString();
    }

    /**
     * The line refusing a batch whose selection holds no open entry (a misspelt group, a filter that matches nothing):
     * recording it would leave a batch of nothing, DONE at once, in every list.
     */
    public String nothingToTake(DecisionKind kind) {
        String verb = kind.name().toLowerCase(Locale.ROOT);
        if (operationIds != null) {
            return "a " + verb + " batch needs at least one operation id";
        }
        boolean groupAlone = filter.fingerprint() != null
                && filter.equals(DlqFilter.builder().fingerprint(filter.fingerprint()).build());
        return groupAlone
                ? "no open entries in group " + filter.fingerprint() + ": nothing to " + verb
                        + "; redrive dlq groups lists the groups and their open entries"
                : "no open entry matches " + describe() + ": nothing to " + verb
                        + "; redrive dlq list with the same filters shows what they match";
    }

    /** As {@link #onlyEntriesWithoutOperation(DecisionKind, long, List)}, from every such entry's id. */
    public String onlyEntriesWithoutOperation(DecisionKind kind, List<Long> ids) {
        return onlyEntriesWithoutOperation(kind, ids.size(), ids.subList(0, Math.min(NAMED_ENTRIES, ids.size())));
    }

    /**
     * The line refusing a batch whose open entries all lack an operation of their own: a batch leaves those out, so it
     * would take nothing.
     */
    public String onlyEntriesWithoutOperation(DecisionKind kind, long entries, List<Long> firstIds) {
        String ids = firstIds.stream().map(String::valueOf).collect(Collectors.joining(", "))
                + (entries > firstIds.size() ? ", …" : "");
        return (entries == 1 ? "the one open entry matching " + describe() + " has no operation of its own (entry "
                : "the " + entries + " open entries matching " + describe() + " have no operation of their own (entries ")
                + ids + "): nothing to " + kind.name().toLowerCase(Locale.ROOT) + " as a batch; decide "
                + (entries == 1 ? "it" : "each") + " with --entry ID";
    }

    String toJson() {
        ObjectNode json = TriageJson.mapper().createObjectNode();
        if (operationIds != null) {
            operationIds.forEach(json.putArray("operation_ids")::add);
        } else {
            json.set("filter", filterJson(filter));
        }
        return TriageJson.compact(json);
    }

    static BatchSelection fromJson(String text) {
        JsonNode json = TriageJson.parse(text);
        if (json.has("operation_ids")) {
            return operations(TriageJson.mapper().convertValue(json.get("operation_ids"),
                    TriageJson.mapper().getTypeFactory().constructCollectionType(List.class, String.class)));
        }
        JsonNode f = json.get("filter");
        return matching(DlqFilter.builder()
                .errorClass(value(f, "error_class", FailureClass::valueOf))
                .tool(value(f, "tool", Function.identity()))
                .runId(value(f, "run_id", Function.identity()))
                .traceOrCorrelationId(value(f, "trace_or_correlation_id", Function.identity()))
                .enteredBetween(value(f, "entered_from", Instant::parse), value(f, "entered_to", Instant::parse))
                .sideEffect(value(f, "side_effect", SideEffectState::valueOf))
                .decisionState(value(f, "decision_state", DecisionState::valueOf))
                .text(value(f, "text", Function.identity()))
                .fingerprint(value(f, "fingerprint", Function.identity()))
                .build());
    }

    private static ObjectNode filterJson(DlqFilter filter) {
        ObjectNode json = TriageJson.mapper().createObjectNode();
        put(json, "fingerprint", filter.fingerprint());
        put(json, "error_class", filter.errorClass());
        put(json, "tool", filter.tool());
        put(json, "run_id", filter.runId());
        put(json, "trace_or_correlation_id", filter.traceOrCorrelationId());
        put(json, "entered_from", filter.enteredFrom());
        put(json, "entered_to", filter.enteredTo());
        put(json, "side_effect", filter.sideEffect());
        put(json, "decision_state", filter.decisionState());
        put(json, "text", filter.text());
        return json;
    }

    private static void put(ObjectNode json, String name, Object value) {
        if (value != null) {
            json.put(name, value.toString());
        }
    }

    private static <T> T value(JsonNode json, String name, Function<String, T> parse) {
        JsonNode value = json.get(name);
        return value == null || value.isNull() ? null : parse.apply(value.asText());
    }
}
