package dev.redrive.triage.decision;

import dev.redrive.store.Database;
import dev.redrive.store.StoreException;

import java.sql.Array;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What the connected database role may do with decisions. A member of the namespace's viewer role reads everything
 * and decides nothing; the database refuses its writes whatever the client does, and this tells the operator before
 * they try and explains the refusal when they do.
 *
 * @param role           the role the connection runs as
 * @param viewer         whether it is a member of the namespace's viewer role
 * @param missingGrants  the grants a decision needs that the role lacks, e.g. "UPDATE on dlq_entries"
 */
public record DecisionAccess(String role, boolean viewer, List<String> missingGrants) {
    private static final String READ = """
            SELECT current_user,
                   COALESCE((SELECT bool_or(pg_has_role(current_user, oid, 'MEMBER')) FROM pg_roles WHERE rolname = ?), false),
                   ARRAY(SELECT g.privilege || ' on ' || g.table_name
                           FROM (VALUES ('operations', 'UPDATE'), ('dlq_entries', 'UPDATE'), ('redrive_commands', 'INSERT'),
                                        ('reconciliations', 'INSERT'), ('audit_log', 'INSERT')) AS g (table_name, privilege)
                          WHERE NOT has_table_privilege(g.table_name, g.privilege))""";

    public DecisionAccess {
        missingGrants = List.copyOf(missingGrants);
    }

    /** Reads the connected role's grants on the tables every decision writes. */
    public static DecisionAccess of(Database database) {
        return database.jdbc().queryOne(READ, row -> {
            Array missing = row.getArray(3);
            return new DecisionAccess(row.getString(1), row.getBoolean(2),
                    Arrays.asList((String[]) missing.getArray()));
        }, database.viewerRole()).orElseThrow();
    }

    /**
     * A write the database refused, in the operator's terms: which role, whether it is a viewer, what it lacks; then
     * the database's first line.
     */
    public static String whyRefused(Database database, StoreException refused) {
        String said = Objects.toString(refused.getMessage(), "permission denied").lines().findFirst().orElse("");
        DecisionAccess access = of(database);
        return access.canDecide() ? said : access.readOnlyReason() + ": " + said;
    }

    public boolean canDecide() {
        return missingGrants.isEmpty();
    }

    /** One line for the operator: why this role cannot decide; empty when it can. */
    public String readOnlyReason() {
        if (canDecide()) {
            return "";
        }
        return "read-only: role " + role + (viewer ? " is a viewer: it" : "") + " may look but not decide (no "
                + String.join(", ", missingGrants) + ")";
    }
}
