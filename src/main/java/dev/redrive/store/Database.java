package dev.redrive.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.config.UrlCredentials;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The one connection pool to the operation store, bound to the namespace's schema. Every store class borrows
 * connections from here through {@link Jdbc}.
 */
public final class Database implements AutoCloseable {
    private final HikariDataSource dataSource;
    private final String schema;
    private final Jdbc jdbc;

    private Database(HikariDataSource dataSource, String schema) {
        this.dataSource = dataSource;
        this.schema = schema;
        this.jdbc = new Jdbc(dataSource);
    }

    /** Opens a pool of at most {@code maxPoolSize} connections; fails with one clear line if the server is not there. */
    public static Database open(RedriveConfig config, int maxPoolSize) {
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(config.pgUrl());
        hikari.setUsername(config.pgUser());
        hikari.setPassword(config.pgPassword());
        hikari.setSchema(config.namespace());
        hikari.setMaximumPoolSize(maxPoolSize);
        hikari.setMinimumIdle(1);
        hikari.setPoolName("redrive-" + config.namespace());
        hikari.setConnectionTimeout(5_000);
        hikari.setInitializationFailTimeout(5_000);
        hikari.addDataSourceProperty("connectTimeout", "5");
        hikari.addDataSourceProperty("ApplicationName", "redrive");
        hikari.addDataSourceProperty("reWriteBatchedInserts", "true");
        try {
            return new Database(new HikariDataSource(hikari), config.namespace());
        } catch (RuntimeException e) {
            // The driver's own words may quote the URL too, so the whole line is masked.
            throw new ServiceUnavailableException(UrlCredentials.mask("PostgreSQL at " + config.pgUrl() + " (user "
                    + config.pgUser() + ") is not reachable: " + ServiceUnavailableException.rootMessage(e)), e);
        }
    }

    public static Database open(RedriveConfig config) {
        return open(config, 10);
    }

    /** Creates or upgrades the namespace's schema; running it again on an up-to-date schema changes nothing. */
    public MigrateResult migrate() {
        return flyway().migrate();
    }

    /**
     * Drops the namespace's schema with everything in it, and its viewer role (logins lose their membership); used by
     * tests and by re-seeding the sandbox.
     */
    public void dropSchema() {
        jdbc.update("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        try {
            jdbc.update("DROP ROLE IF EXISTS \"" + viewerRole() + "\"");
        } catch (StoreException e) {
            // Not ours to drop (no CREATEROLE, or it holds grants in another database): with the schema gone it
            // grants nothing here, so leaving it is harmless.
        }
    }

    /** The read-only role the migrations create for this namespace: members may read everything and decide nothing. */
    public String viewerRole() {
        return schema + "_viewer";
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

    @Override
    public void close() {
        dataSource.close();
    }

    private Flyway flyway() {
        return Flyway.configure()
                .dataSource(dataSource)
                .schemas(schema)
                .defaultSchema(schema)
                .createSchemas(true)
                .locations("classpath:db/migration")
                .loggers("slf4j")
                .load();
    }
}
