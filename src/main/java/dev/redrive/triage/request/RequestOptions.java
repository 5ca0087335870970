package dev.redrive.triage.request;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How the decision a request asks for is to be taken, as the requester gave it.
 *
 * @param schemaVersion  redrive and correction: the newer tool schema version declared compatible; null = keep
 * @param itemsPerSecond a batch's pace; 0 = as fast as possible
 * @param result         resolve: the result to resolve with; null = each operation's APPLIED reconciliation's
 * @param payload        correction: the corrected payload as typed (a masked value keeps the stored secret)
 */
public record RequestOptions(String schemaVersion, double itemsPerSecond, JsonNode result, String payload) {
    public static final RequestOptions NONE = new RequestOptions(null, 0, null, null);

    public static RequestOptions redrive(String schemaVersion, double itemsPerSecond) {
        return new RequestOptions(schemaVersion, itemsPerSecond, null, null);
    }

    public static RequestOptions resolve(JsonNode result) {
        return new RequestOptions(null, 0, result, null);
    }

    public static RequestOptions correction(String payload, String schemaVersion) {
        return new RequestOptions(schemaVersion, 0, null, payload);
    }
}
