package dev.redrive.store;

/**
 * Versions whose files changed after namespaces had applied them. V003, V040 and V041 created the demo tools' tables
 * in every namespace and now create nothing (the demo tool server creates those tables itself where the demo runs),
 * and V120 no longer lists those tables among the masked ones. Flyway refuses a history whose checksums differ from
 * the files, so before migrating, the history entry of exactly these versions is set to the checksum of the file now,
 * and only where it holds exactly the checksum of the file as it was: any other difference (a file edited by hand, a
 * history written by another build) is still refused by Flyway's validation.
 *
 * <p>Realigning was chosen over keeping the old files and dropping the tables in a later migration: dropping needs to
 * tell whether the demo still uses a namespace, which no row says for sure, and every new namespace would create
 * tables only to drop them. A namespace upgraded this way keeps its demo tables and their rows; the demo tool
 * server's own migration adopts them as they are.
 */
final class RetiredMigrations {
    /** Version, checksum of the file namespaces applied, checksum of the file now (MigrationTest checks the last). */
    private static final String REALIGN = """
            UPDATE "%s".%s h SET checksum = r.now
              FROM (VALUES ('003', 320672776, 303948259),
                           ('040', -494251959, 303948259),
                           ('041', -699884363, 303948259),
                           ('120', 4558319, 818748032)) AS r (version, applied, now)
             WHERE h.version = r.version AND h.checksum = r.applied""";

    private RetiredMigrations() {
    }

    /** Realigns the retired versions' checksums of the schema's history, if it has one; one statement. */
    static int realign(Jdbc jdbc, String schema) {
        boolean hasHistory = jdbc.queryOne("SELECT to_regclass(?) IS NOT NULL", row -> row.getBoolean(1),
                "\"" + schema + "\"." + MigrationHistory.TABLE).orElse(false);
        return hasHistory ? jdbc.update(REALIGN.formatted(schema, MigrationHistory.TABLE)) : 0;
    }
}
