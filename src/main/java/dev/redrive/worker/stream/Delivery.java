package dev.redrive.worker.stream;

import java.util.List;
import java.util.Map;

/**
 * One delivery of a stream entry to this consumer. The entry id and delivery count are diagnostics: the business
 * identity is the operation id inside the fields.
 *
 * @param fields              the entry's fields as text; a value that was not UTF-8 is decoded with U+FFFD in place
 *                            of its bad bytes, for the evidence only
 * @param undecodableFields   the fields whose bytes were not UTF-8, each with the offset of the first bad byte: such
 *                            a delivery is never run, whatever the lenient decoding makes of it
 */
public record Delivery(String stream, String entryId, Map<String, String> fields, long deliveryCount, String consumer,
                       List<String> undecodableFields) {

    public Delivery(String stream, String entryId, Map<String, String> fields, long deliveryCount, String consumer) {
        this(stream, entryId, fields, deliveryCount, consumer, List.of());
    }
}
