package dev.redrive.health;

import dev.redrive.broker.Redis;
import dev.redrive.config.AccessRefusedException;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.config.UrlCredentials;
import dev.redrive.store.Database;

import java.util.ArrayList;
import java.util.List;

/**
 * Tries a connection setting step by step and says which step failed: PostgreSQL reachable and the credentials
 * accepted, the namespace's schema migrated, Redis reachable.
 */
public final class ConnectionCheck {
    private static final String SCHEMA_TABLES = """
            SELECT count(*) FROM information_schema.tables
             WHERE table_schema = ? AND table_name IN ('operations', 'dlq_entries', 'audit_log')
            """;

    private ConnectionCheck() {
    }

    /** One step of the check: its name, whether it passed and what was found. */
    public record Step(String name, boolean passed, String detail) {
    }

    public static List<Step> run(RedriveConfig config) {
        List<Step> steps = new ArrayList<>();
        try (Database database = Database.open(config, 1)) {
            steps.add(new Step("PostgreSQL", true, "connected to " + UrlCredentials.mask(config.pgUrl()) + " as " + config.pgUser()));
            long tables = database.jdbc().queryLong(SCHEMA_TABLES, config.namespace());
            steps.add(tables == 3
                    ? new Step("Schema", true, "schema " + config.namespace() + " is migrated")
                    : new Step("Schema", false, "schema " + config.namespace()
                    + " is missing or not migrated (run: redrive migrate -n " + config.namespace() + ")"));
        } catch (ServiceUnavailableException | AccessRefusedException e) {
            steps.add(new Step("PostgreSQL", false, e.getMessage()));
        } catch (RuntimeException e) {
            steps.add(new Step("Schema", false, "could not read schema " + config.namespace() + ": "
                    + ServiceUnavailableException.rootMessage(e)));
        }
        try (Redis redis = Redis.connect(config)) {
            String pong = redis.sync().ping();
            steps.add(new Step("Redis", "PONG".equals(pong), "connected to " + UrlCredentials.mask(config.redisUri()) + " (" + pong + ")"));
        } catch (ServiceUnavailableException e) {
            steps.add(new Step("Redis", false, e.getMessage()));
        } catch (RuntimeException e) {
            steps.add(new Step("Redis", false, UrlCredentials.mask("Redis at " + config.redisUri() + " refused: "
                    + ServiceUnavailableException.rootMessage(e))));
        }
        return steps;
    }

    public static boolean allPassed(List<Step> steps) {
        return steps.stream().allMatch(Step::passed);
    }
}
