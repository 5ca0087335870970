package dev.redrive.cli;

import dev.redrive.config.ConfigurationException;
import dev.redrive.config.PasswordFile;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.TlsSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.util.Map;

/**
 * The connection settings every command shares; each defaults to its REDRIVE_* variable. The URLs' help shows the
 * built-in default, not ${DEFAULT-VALUE}: that would print the variable's value, and with it a password it may hold.
 * <p>
 * The top command mixes them in too, so they may come before the command ({@code redrive -n foo dlq list}) as well as
 * after it; an option given after the command wins over the same option given before it.
 */
public final class ConnectionOptions {
    /** Each variable and the option that stands in for it. */
    private static final Map<String, String> OPTIONS = Map.of("REDRIVE_PG_URL", "--pg-url",
            "REDRIVE_PG_USER", "--pg-user", "REDRIVE_REDIS_URI", "--redis-uri", "REDRIVE_NAMESPACE", "--namespace",
            "REDRIVE_TLS_CA", "--tls-ca", "REDRIVE_TLS", "--tls");

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

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

    @Option(names = "--pg-password-file", paramLabel = "FILE",
            description = "file whose first line is the PostgreSQL password; unlike --pg-password it never shows in "
                    + "ps (env REDRIVE_PG_PASSWORD_FILE)",
            defaultValue = "${env:REDRIVE_PG_PASSWORD_FILE:-}")
    String pgPasswordFile;

    @Option(names = "--redis-uri", paramLabel = "URI",
            description = "Redis URI (env REDRIVE_REDIS_URI, default " + RedriveConfig.DEFAULT_REDIS_URI + ")",
            defaultValue = "${env:REDRIVE_REDIS_URI:-" + RedriveConfig.DEFAULT_REDIS_URI + "}")
    String redisUri;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NS", description = "namespace: schema and Redis key prefix (env REDRIVE_NAMESPACE, default ${DEFAULT-VALUE})",
            defaultValue = "${env:REDRIVE_NAMESPACE:-" + RedriveConfig.DEFAULT_NAMESPACE + "}")
    String namespace;

    @Option(names = "--tls", paramLabel = "MODE",
            description = "TLS to PostgreSQL and Redis: require (encrypted, any certificate), verify-ca (signed by a "
                    + "trusted CA) or verify-full (and issued for the host); default: as the URLs say (env REDRIVE_TLS)",
            defaultValue = "${env:REDRIVE_TLS:-}")
    String tls;

    @Option(names = "--tls-ca", paramLabel = "FILE",
            description = "PEM file of the CAs that sign the servers' certificates, instead of the JVM's; alone it "
                    + "means --tls verify-full (env REDRIVE_TLS_CA)",
            defaultValue = "${env:REDRIVE_TLS_CA:-}")
    String tlsCa;

    /** A password typed at the prompt after the server asked for one (see {@link PasswordPrompt}). */
    private String typedPassword = "";
    private boolean warned;

    public RedriveConfig config() {
        try {
            return new RedriveConfig(given("--pg-url", pgUrl), given("--pg-user", pgUser), password(),
                    given("--redis-uri", redisUri), given("--namespace", namespace),
                    TlsSettings.parse(given("--tls", tls), given("--tls-ca", tlsCa)));
        } catch (ConfigurationException e) {
            throw typedOption(e);
        }
    }

    /**
     * The settings' checks name the variable ("REDRIVE_NAMESPACE must match ..."); a value typed as an option is named
     * as typed, so that the operator looks at the command line, not at the environment.
     */
    private ConfigurationException typedOption(ConfigurationException e) {
        String message = e.getMessage();
        for (Map.Entry<String, String> setting : OPTIONS.entrySet()) {
            if (message.startsWith(setting.getKey() + " ") && commandGiving(setting.getValue()) != null) {
                // Some lines name both already: "REDRIVE_TLS (--tls) must be ...".
                String rest = message.substring(setting.getKey().length());
                String named = " (" + setting.getValue() + ")";
                return new ConfigurationException(setting.getValue()
                        + (rest.startsWith(named) ? rest.substring(named.length()) : rest));
            }
        }
        return e;
    }

    /**
     * The settings for a benchmark, which fills its namespace with generated work: left at the default namespace, where
     * an operator's work may be, it runs in {@code throwAway} instead.
     */
    RedriveConfig benchConfig(String throwAway) {
        RedriveConfig config = config();
        return config.namespace().equals(RedriveConfig.DEFAULT_NAMESPACE) ? config.withNamespace(throwAway) : config;
    }

    /**
     * As given (a value or a file), else as typed at the prompt. A value on the command line works, but any user of
     * the machine sees it in {@code ps} for as long as the command runs: stderr says so, once.
     */
    private String password() {
        String file = given("--pg-password-file", pgPasswordFile);
        String password = RedriveConfig.password(given("--pg-password", pgPassword), file);
        if (!warned) {
            warned = true;
            if (commandGiving("--pg-password") != null) {
                warn("warning: --pg-password shows the password to every user of this machine (ps); prefer "
                        + "REDRIVE_PG_PASSWORD_FILE (--pg-password-file), ~/.pgpass or the prompt");
            }
            if (!file.isEmpty()) {
                PasswordFile.looseness(file).ifPresent(this::warn);
            }
        }
        return password.isEmpty() ? typedPassword : password;
    }

    private void warn(String line) {
        if (command != null && command.commandLine() != null) {
            command.commandLine().getErr().println(line);
            command.commandLine().getErr().flush();
        }
    }

    /** Whether the settings give no password at all, so that asking for one may help. */
    boolean passwordMissing() {
        return given("--pg-password", pgPassword).isEmpty() && given("--pg-password-file", pgPasswordFile).isEmpty()
                && typedPassword.isEmpty();
    }

    void typedPassword(String password) {
        typedPassword = password;
    }

    /** Whether any setting names a server: REDRIVE_PG_URL or REDRIVE_REDIS_URI, or --pg-url or --redis-uri. */
    boolean serversGiven() {
        return set("REDRIVE_PG_URL") || set("REDRIVE_REDIS_URI") || commandGiving("--pg-url") != null
                || commandGiving("--redis-uri") != null;
    }

    private static boolean set(String variable) {
        String value = System.getenv(variable);
        return value != null && !value.isBlank();
    }

    /** Whether {@code -n} was given, before the command or after it (else the namespace is REDRIVE_NAMESPACE's). */
    boolean namespaceGiven() {
        return commandGiving("--namespace") != null;
    }

    /** The value given on the nearest command line, this command's first, then the commands before it; else ours. */
    private String given(String option, String own) {
        CommandSpec giving = commandGiving(option);
        return giving == null ? own : giving.commandLine().getParseResult().matchedOptionValue(option, own);
    }

    private CommandSpec commandGiving(String option) {
        for (CommandSpec spec = command; spec != null; spec = spec.parent()) {
            ParseResult parsed = spec.commandLine() == null ? null : spec.commandLine().getParseResult();
            if (parsed != null && parsed.hasMatchedOption(option)) {
                return spec;
            }
        }
        return null;
    }
}
