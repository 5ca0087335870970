package dev.redrive.triage.decision;

import dev.redrive.triage.precondition.DecisionTarget;

import java.util.List;
import java.util.UUID;

/**
 * Runs last inside a chunk's transaction, so that what a durable batch records about the chunk (its progress, its
 * keyset position) commits with the chunk's decisions or not at all.
 */
@FunctionalInterface
public interface ChunkCommit {
    ChunkCommit NONE = (targets, items, commands) -> { };

    /**
     * @param targets  the items this transaction took (a chunk, or one item of a chunk decided again alone)
     * @param items    what it decided of each of them, in order
     * @param commands the redrive commands it issued, whose dispatches are published after the commit
     */
    void committing(List<DecisionTarget> targets, List<BatchItem> items, List<UUID> commands);
}
