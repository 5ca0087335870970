package dev.redrive.store.operation;

import java.util.UUID;

/**
 * One operation a worker wants to lease for the attempt a dispatch carries.
 *
 * @param deliveryId       the stream entry the lease is taken for
 * @param redriveCommandId the command the dispatch carries, null for an ordinary dispatch
 */
public record ClaimRequest(String operationId, int attempt, String deliveryId, UUID redriveCommandId) {
}
