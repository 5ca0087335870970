package dev.redrive.cli;

import dev.redrive.config.RedriveConfig;
import picocli.CommandLine.Option;

/**
 * The connection settings every command shares; each defaults to its REDRIVE_* variable. The URLs' help shows the
 * built-in default, not ${DEFAULT-VALUE}: that would print the variable's value, and with it a password it may hold.
 */
public final class ConnectionOptions {
    @Option(names = "--pg-url", paramLabel = "JDBC_URL",
            description = "PostgreSQL JDBC URL (env REDRIVE_PG_URL, default " + RedriveConfig.DEFAULT_PG_URL + ")",
            defaultValue = "${env:REDRIVE_PG_URL:-" + RedriveConfig.DEFAULT_PG_URL + "}")
    String pgUrl;

    @Option(names = "--pg-user", paramLabel = "USER", description = "PostgreSQL user (env REDRIVE_PG_USER, default ${DEFAULT-VALUE})",
            defaultValue = "${env:REDRIVE_PG_USER:-" + RedriveConfig.DEFAULT_PG_USER + "}")
    String pgUser;

    @Option(names = "--pg-password", paramLabel = "PASSWORD", description = "PostgreSQL password (env REDRIVE_PG_PASSWORD)",
            defaultValue = "${env:REDRIVE_PG_PASSWORD:-}")
    String pgPassword;

    @Option(names = "--redis-uri", paramLabel = "URI",
            description = "Redis URI (env REDRIVE_REDIS_URI, default " + RedriveConfig.DEFAULT_REDIS_URI + ")",
            defaultValue = "${env:REDRIVE_REDIS_URI:-" + RedriveConfig.DEFAULT_REDIS_URI + "}")
    String redisUri;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NS", description = "namespace: schema and Redis key prefix (env REDRIVE_NAMESPACE, default ${DEFAULT-VALUE})",
            defaultValue = "${env:REDRIVE_NAMESPACE:-" + RedriveConfig.DEFAULT_NAMESPACE + "}")
    String namespace;

    public RedriveConfig config() {
        return new RedriveConfig(pgUrl, pgUser, pgPassword, redisUri, namespace);
    }
}
