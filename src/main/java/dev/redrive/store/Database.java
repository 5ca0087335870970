package dev.redrive.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.redrive.config.AccessRefusedException;
import dev.redrive.config.PasswordRequiredException;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.config.TlsSettings;
import dev.redrive.config.UrlCredentials;
import dev.redrive.tls.CertificateProbe;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.postgresql.Driver;
import org.postgresql.ssl.DefaultJavaSSLFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The one connection pool to the operation store, bound to the namespace's schema. Every store class borrows
 * connections from here through {@link Jdbc}.
 */
public final class Database implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    /** Where the namespace's migrations are on the classpath: a location of Redrive's own, apart from a host's. */
    public static final String MIGRATIONS = "classpath:dev/redrive/db/migration";
    private final DataSource dataSource;
    /** The pool this opened, closed with it; null for a host's pool, which stays the host's to close. */
    private final HikariDataSource ownPool;
    private final String schema;
    private final Jdbc jdbc;

    private Database(DataSource dataSource, HikariDataSource ownPool, String schema) {
        this.dataSource = dataSource;
        this.ownPool = ownPool;
        this.schema = schema;
        this.jdbc = new Jdbc(dataSource);
    }

    /**
     * Opens a pool of at most {@code maxPoolSize} connections; fails with one clear line if the server is not there
     * ({@link ServiceUnavailableException}) or refuses the login ({@link AccessRefusedException}).
     */
    public static Database open(RedriveConfig config, int maxPoolSize) {
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(config.pgUrl());
        hikari.setUsername(config.pgUser());
        hikari.setPassword(config.pgPassword());
        hikari.setSchema(config.namespace());
        hikari.setConnectionInitSql(MaskedReads.connectionInitSql(config.namespace()));
        hikari.setMaximumPoolSize(maxPoolSize);
        hikari.setMinimumIdle(1);
        hikari.setPoolName("redrive-" + config.namespace());
        hikari.setConnectionTimeout(5_000);
        hikari.setInitializationFailTimeout(5_000);
        hikari.addDataSourceProperty("connectTimeout", "5");
        hikari.addDataSourceProperty("ApplicationName", "redrive");
        hikari.addDataSourceProperty("reWriteBatchedInserts", "true");
        applyTls(config.tls(), hikari);
        try {
            HikariDataSource pool = new HikariDataSource(hikari);
            return new Database(pool, pool, config.namespace());
        } catch (RuntimeException e) {
            // The driver's own words may quote the URL too, so the whole line is masked.
            String server = "PostgreSQL at " + config.pgUrl() + " (user " + config.pgUser() + ")";
            String why = ServiceUnavailableException.rootMessage(e);
            if (config.pgPassword().isEmpty() && passwordAsked(e)) {
                throw new PasswordRequiredException(UrlCredentials.mask(server), e);
            }
            if (loginRefused(e)) {
                throw new AccessRefusedException(UrlCredentials.mask(server + " refused the login: " + why), e);
            }
            Optional<String> certificate = certificateProblem(config, e);
            if (certificate.isPresent()) {
                throw new ServiceUnavailableException(UrlCredentials.mask(server + " failed TLS verification: "
                        + certificate.get()), e);
            }
            throw new ServiceUnavailableException(UrlCredentials.mask(server + " is not reachable: " + why), e);
        }
    }

    /**
     * pgjdbc's own names for the settings: {@code sslmode}, {@code sslrootcert} for a CA file, and without one the
     * JVM's trusted CAs (its default would be {@code ~/.postgresql/root.crt}, which Redis's side does not read).
     */
    private static void applyTls(TlsSettings tls, HikariConfig hikari) {
        if (!tls.enabled()) {
            return;
        }
        hikari.addDataSourceProperty("sslmode", tls.mode().option());
        if (tls.caFile() != null) {
            hikari.addDataSourceProperty("sslrootcert", tls.caFile().toString());
        } else if (tls.mode().verifiesCertificate()) {
            hikari.addDataSourceProperty("sslfactory", DefaultJavaSSLFactory.class.getName());
        }
    }

    /** When the settings verify certificates and the driver's failure may be a refused one: what is wrong with it. */
    private static Optional<String> certificateProblem(RedriveConfig config, RuntimeException failure) {
        if (!config.tls().mode().verifiesCertificate() || !CertificateProbe.mayBeCertificateFailure(failure)) {
            return Optional.empty();
        }
        Properties parsed = Driver.parseURL(config.pgUrl(), null);
        if (parsed == null) {
            return Optional.empty();
        }
        String[] hosts = parsed.getProperty("PGHOST").split(",");
        String[] ports = parsed.getProperty("PGPORT").split(",");
        for (int i = 0; i < hosts.length; i++) {
            Optional<String> problem = CertificateProbe.problem(CertificateProbe.Protocol.POSTGRESQL, hosts[i],
                    Integer.parseInt(ports[Math.min(i, ports.length - 1)]), config.tls().mode(), config.tls());
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    /**
     * The driver's "the server requested password-based (or SCRAM) authentication, but no password was provided":
     * 08004 is also its state for a server that refuses TLS, hence the word as well.
     */
    private static boolean passwordAsked(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql && "08004".equals(sql.getSQLState()) && sql.getMessage() != null
                    && sql.getMessage().toLowerCase(Locale.ROOT).contains("password")) {
                return true;
            }
        }
        return false;
    }

    /** 42501: the login lacks a privilege the statement needs. */
    private static boolean refusedPrivilege(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql && "42501".equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** Class 28 (invalid authorization: no such role, wrong password, no pg_hba.conf entry) or 42501 (no CONNECT). */
    private static boolean loginRefused(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("28") || sql.getSQLState().equals("42501"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The namespace in a host application's own pool: each connection Redrive borrows has the namespace's schema as
     * its search path while Redrive holds it, and gets the host's back when returned ({@link NamespaceDataSource}).
     * {@link #close} leaves the host's pool open.
     */
    public static Database using(DataSource hostPool, String namespace) {
        RedriveConfig.checkNamespace(namespace);
        return new Database(new NamespaceDataSource(hostPool, namespace), null, namespace);
    }

    public static Database open(RedriveConfig config) {
        return open(config, 10);
    }

    /**
     * Creates or upgrades the namespace's schema; running it again on an up-to-date schema changes nothing. A history
     * kept under Flyway's default name is adopted first ({@link MigrationHistory}), one written before the demo tables
     * left the namespace's migrations is realigned ({@link RetiredMigrations}).
     */
    public MigrateResult migrate() {
        MigrateResult result;
        try {
            MigrationHistory.adopt(jdbc, schema);
            RetiredMigrations.realign(jdbc, schema);
            result = flyway().migrate();
        } catch (RuntimeException e) {
            if (!refusedPrivilege(e)) {
                throw e;
            }
            // Flyway wraps the refusal in pages of its own; the line says who may migrate instead.
            String owner = jdbc.queryOne("SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = ?",
                    row -> row.getString(1), schema).orElse(null);
            throw new AccessRefusedException("user " + jdbc.queryOne("SELECT session_user", row -> row.getString(1))
                    .orElse("?") + " may not migrate namespace " + schema + " (" + ServiceUnavailableException.rootMessage(e)
                    + "): migrate as " + (owner == null ? "a login that may create schemas in the database"
                    : "the namespace's owner, " + owner), e);
        }
        for (String role : List.of(viewerRole(), operatorRole())) {
            if (jdbc.queryLong("SELECT count(*) FROM pg_roles WHERE rolname = ?", role) == 0) {
                // The migrations go on without the role when the migrating user may not create it (no CREATEROLE).
                LOG.warn("no role {} for namespace {}: grant CREATEROLE to the migrating user and migrate again, or "
                        + "create it by hand (see README, Roles and logins)", role, schema);
            }
        }
        return result;
    }

    /**
     * Drops the namespace's schema with everything in it, the schema of its masked views, and its operator and viewer
     * roles (logins lose their membership); used by tests and by re-seeding the sandbox.
     */
    public void dropSchema() {
        jdbc.update("DROP SCHEMA IF EXISTS \"" + MaskedReads.schema(schema) + "\" CASCADE");
        jdbc.update("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        for (String role : List.of(operatorRole(), viewerRole())) {
            try {
                jdbc.update("DROP ROLE IF EXISTS \"" + role + "\"");
            } catch (StoreException e) {
                // Not ours to drop (no CREATEROLE, or it holds grants in another database): with the schema gone it
                // grants nothing here, so leaving it is harmless.
            }
        }
    }

    /** What the connected role finds of the namespace's schema. */
    public enum SchemaPresence {
        /** There is no such schema: the namespace was never migrated. */
        MISSING,
        /** The schema is there but the role has no USAGE on it, so PostgreSQL shows it none of its tables. */
        NOT_USABLE,
        /** The schema is there and usable (a statement that found no table then met an older version of it). */
        PRESENT
    }

    /** Tells a never-migrated namespace from one the role may not use; both make a statement find no table. */
    public SchemaPresence schemaPresence() {
        return jdbc.queryOne("""
                SELECT n.oid IS NOT NULL, COALESCE(has_schema_privilege(n.oid, 'USAGE'), false)
                  FROM (SELECT 1) AS one LEFT JOIN pg_namespace n ON n.nspname = ?""",
                row -> !row.getBoolean(1) ? SchemaPresence.MISSING
                        : row.getBoolean(2) ? SchemaPresence.PRESENT : SchemaPresence.NOT_USABLE,
                schema).orElseThrow();
    }

    /** The read-only role the migrations create for this namespace: members may read everything and decide nothing. */
    public String viewerRole() {
        return schema + "_viewer";
    }

    /**
     * The role the migrations create for operators who may decide: members read what viewers read and write what a
     * decision, a reconciliation or an approval writes. Each operator's own login is a member, so the audit names them.
     */
    public String operatorRole() {
        return schema + "_operator";
    }

    /**
     * Whether this login reads payloads, raw messages, results and free text masked by the database (a viewer) rather
     * than as stored; see {@link MaskedReads}.
     */
    public boolean readsMasked() {
        return jdbc.queryOne("SELECT (current_schemas(false))[1] = ?", row -> row.getBoolean(1), MaskedReads.schema(schema))
                .orElse(false);
    }

    public String schema() {
        return schema;
    }

    public Jdbc jdbc() {
        return jdbc;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public Connection connection() throws SQLException {
        return dataSource.getConnection();
    }

    /** Closes the pool this opened; a host's pool ({@link #using}) stays open. */
    @Override
    public void close() {
        if (ownPool != null) {
            ownPool.close();
        }
    }

    private Flyway flyway() {
        return Flyway.configure()
                .dataSource(dataSource)
                .schemas(schema)
                .defaultSchema(schema)
                .createSchemas(true)
                // A location and a history table of Redrive's own: a host application's Flyway, scanning the default
                // classpath:db/migration, never sees these files, and Redrive's never runs the host's.
                .locations(MIGRATIONS)
                .table(MigrationHistory.TABLE)
                .callbacks(new QuietMigrationNotices())
                .loggers("slf4j")
                .load();
    }
}
