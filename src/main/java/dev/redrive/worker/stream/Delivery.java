package dev.redrive.worker.stream;

import java.util.Map;

/**
 * One delivery of a stream entry to this consumer. The entry id and delivery count are diagnostics: the business
 * identity is the operation id inside the fields.
 */
public record Delivery(String stream, String entryId, Map<String, String> fields, long deliveryCount, String consumer) {
}
