package dev.redrive.triage.decision;

import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditLog;
import dev.redrive.store.command.DecisionLocks;
import dev.redrive.store.command.RedriveCommandLog;
import dev.redrive.store.deadletter.EntryDecisionStore;
import dev.redrive.store.operation.OperationDecisionStore;

/**
 * The table writers every decision and every correction uses, over one connection source so that they all take part
 * in the caller's one transaction: the operations and entries a decision changes, the command it issues, its audit
 * line and the locks it takes first.
 */
public record DecisionWriters(Jdbc jdbc, OperationDecisionStore operations, EntryDecisionStore entries,
                              RedriveCommandLog commands, AuditLog auditLog, DecisionLocks locks) {

    public static DecisionWriters on(Database database) {
        Jdbc jdbc = database.jdbc();
        return new DecisionWriters(jdbc, new OperationDecisionStore(jdbc), new EntryDecisionStore(jdbc),
                new RedriveCommandLog(jdbc), new AuditLog(jdbc), new DecisionLocks(jdbc));
    }
}
