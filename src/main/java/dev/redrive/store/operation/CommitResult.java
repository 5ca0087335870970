package dev.redrive.store.operation;

import dev.redrive.store.deadletter.DeadLetterEvent;

/**
 * What became of one {@link AttemptCommit}.
 *
 * @param committed false when the fencing token no longer matched: another worker took the operation over
 * @param deadLetter the DLQ entry written, for a committed dead letter
 */
public record CommitResult(AttemptCommit commit, boolean committed, DeadLetterEvent deadLetter) {
}
