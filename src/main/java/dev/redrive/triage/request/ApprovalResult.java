package dev.redrive.triage.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.json.TriageJson;

import java.util.List;

/**
 * What became of an approval or a rejection.
 *
 * @param outcome     for an approval of one item, the decision's own outcome (a blocked decision leaves the request
 *                    PENDING); for a batch, DONE once approved, each item telling its own; REFUSED when the database
 *                    refused (the login that asked, a viewer); ALREADY_DECIDED when someone decided the request first, or
 *                    another path its items (the request is then OBSOLETE);
 *                    BLOCKED when it expired
 * @param message     one line for the operator
 * @param items       the decision's results, item by item (empty for a correction, a rejection or a refusal)
 * @param correction  the correction's result, for a correct-and-redrive request
 */
public record ApprovalResult(long requestId, DecisionOutcome outcome, String message, List<DecisionResult> items,
                             CorrectionResult correction) {
    public ApprovalResult {
        items = List.copyOf(items);
    }

    static ApprovalResult of(long requestId, DecisionOutcome outcome, String message) {
        return new ApprovalResult(requestId, outcome, message, List.of(), null);
    }

    public ApprovalResult withMessage(String line) {
        return new ApprovalResult(requestId, outcome, line, items, correction);
    }

    /** Every outcome in it: the items' (or the correction's), else its own. */
    public List<DecisionOutcome> outcomes() {
        if (correction != null) {
            return List.of(correction.outcome());
        }
        return items.isEmpty() ? List.of(outcome) : items.stream().map(DecisionResult::outcome).toList();
    }

    /** What the request keeps of its approval: the outcome, the message and each item's. */
    JsonNode toJson() {
        ObjectNode json = TriageJson.mapper().createObjectNode();
        json.put("outcome", outcome.name());
        json.put("message", message);
        if (correction != null) {
            json.put("corrected_by", correction.correctionId());
        }
        ArrayNode lines = json.putArray("items");
        for (DecisionResult item : items) {
            ObjectNode line = lines.addObject();
            line.put("subject", item.subject());
            line.put("outcome", item.outcome().name());
            line.put("message", item.message());
            if (item.commandId() != null) {
                line.put("command_id", item.commandId().toString());
            }
        }
        return json;
    }
}
