package dev.redrive.console.request;

import dev.redrive.triage.request.ApprovalResult;
import dev.redrive.triage.request.DecisionRequest;
import dev.redrive.triage.request.DecisionRequests;

import java.util.List;

/** What the requests list asks of the triage core. Every call runs off the FX thread. */
public interface RequestsBackend {
    List<DecisionRequest> pending();

    long countPending();

    ApprovalResult approve(long id, String approver);

    ApprovalResult reject(long id, String operator, String reason);

    /** The console's backend: the four-eyes service of the session. */
    static RequestsBackend of(DecisionRequests requests) {
        return new RequestsBackend() {
            @Override
            public List<DecisionRequest> pending() {
                return requests.pending();
            }

            @Override
            public long countPending() {
                return requests.countPending();
            }

            @Override
            public ApprovalResult approve(long id, String approver) {
                return requests.approve(id, approver);
            }

            @Override
            public ApprovalResult reject(long id, String operator, String reason) {
                return requests.reject(id, operator, reason);
            }
        };
    }
}
