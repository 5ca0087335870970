package dev.redrive.report;

import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.query.DlqCount;
import dev.redrive.triage.query.DlqCursor;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqOrder;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import dev.redrive.triage.query.PageDirection;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * DLQ queries whose answers are fit to show: each row's error message and each group's sample error masked by the
 * redactor. Filtering runs over the text the login reads: the stored text for an operator, so a search finds an entry
 * by what its error really says; the text the database masked for a viewer, so a secret cannot be found by search.
 */
public final class RedactedDlqQueries implements DlqQueries {
    private final DlqQueries queries;
    private final Redactor redactor;

    public RedactedDlqQueries(DlqQueries queries, Redactor redactor) {
        this.queries = queries;
        this.redactor = redactor;
    }

    @Override
    public DlqPage page(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit) {
        DlqPage page = queries.page(filter, order, cursor, direction, limit);
        return new DlqPage(page.rows().stream().map(redactor::redact).toList(), page.next(), page.previous(),
                page.hasMore());
    }

    @Override
    public List<DlqRow> rows(Collection<Long> ids) {
        return queries.rows(ids).stream().map(redactor::redact).toList();
    }

    @Override
    public Set<Long> matching(DlqFilter filter, Collection<Long> ids) {
        return queries.matching(filter, ids);
    }

    @Override
    public Set<String> startedBy(Collection<String> fingerprints, Collection<Long> ids) {
        return queries.startedBy(fingerprints, ids);
    }

    @Override
    public List<FingerprintGroup> groups(DlqFilter filter) {
        return queries.groups(filter).stream().map(redactor::redact).toList();
    }

    @Override
    public DlqCount count(DlqFilter filter) {
        return queries.count(filter);
    }

    @Override
    public Set<String> tools(DlqFilter filter) {
        return queries.tools(filter);
    }

    @Override
    public boolean anyOwnEntry(DlqFilter filter) {
        return queries.anyOwnEntry(filter);
    }

    @Override
    public long exactCount(DlqFilter filter) {
        return queries.exactCount(filter);
    }
}
