package dev.redrive.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where Redrive finds its operation store and its broker, which namespace it works in and how it verifies the
 * servers' TLS certificates. The console, the CLI, the worker and the tests all read the same {@code REDRIVE_*}
 * variables.
 */
public record RedriveConfig(String pgUrl, String pgUser, String pgPassword, String redisUri, String namespace,
                            TlsSettings tls) {

    public static final String DEFAULT_PG_URL = "jdbc:postgresql://127.0.0.1:5432/postgres";
    public static final String DEFAULT_PG_USER = "postgres";
    public static final String DEFAULT_REDIS_URI = "redis://127.0.0.1:6379";
    public static final String DEFAULT_NAMESPACE = "redrive";

    /**
     * The PostgreSQL driver reads no {@code user:password@} in a URL: it takes it for part of the host name, and
     * would then print the password as the host it could not find.
     */
    private static final Pattern PG_USERINFO = Pattern.compile("jdbc:postgresql://[^/?#]*@");

    /** A namespace names a PostgreSQL schema and prefixes Redis keys, so it must be safe for both. */
    private static final Pattern NAMESPACE = Pattern.compile("[a-z][a-z0-9_]{0,47}");

    /** A JDBC URL parameter the TLS settings would contradict: the driver lets the URL win, silently. */
    private static final Pattern PG_SSL_PARAMETER = Pattern.compile("(?i)[?&](sslmode|sslrootcert|sslfactory)=([^&#]*)");

    public RedriveConfig {
        pgUrl = requireText(pgUrl, "REDRIVE_PG_URL");
        pgUser = requireText(pgUser, "REDRIVE_PG_USER");
        pgPassword = pgPassword == null ? "" : pgPassword;
        redisUri = requireText(redisUri, "REDRIVE_REDIS_URI");
        namespace = requireText(namespace, "REDRIVE_NAMESPACE");
        tls = tls == null ? TlsSettings.AS_URLS : tls;
        if (!pgUrl.startsWith("jdbc:postgresql:") || unreadable(pgUrl) != null) {
            throw new ConfigurationException("REDRIVE_PG_URL must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db), got"
                    + shown(pgUrl));
        }
        if (PG_USERINFO.matcher(pgUrl).lookingAt()) {
            throw new ConfigurationException("REDRIVE_PG_URL must not hold user:password@ (the PostgreSQL driver does not "
                    + "read it): give REDRIVE_PG_USER and REDRIVE_PG_PASSWORD, or ?user=...&password=..., got"
                    + shown(pgUrl));
        }
        checkRedisUri(redisUri);
        checkPgTlsAgrees(pgUrl, tls);
        checkNamespace(namespace);
    }

    /** A namespace names a schema and prefixes Redis keys: refused with a line naming the rule unless safe for both. */
    public static void checkNamespace(String namespace) {
        if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
            throw new ConfigurationException("REDRIVE_NAMESPACE must match [a-z][a-z0-9_]{0,47} (it names a schema and prefixes Redis keys), got: " + namespace);
        }
        if (isPostgresSchema(namespace)) {
            throw new ConfigurationException("REDRIVE_NAMESPACE must not be " + namespace + ": pg_*, information_schema "
                    + "and public are PostgreSQL's system and shared schemas, not Redrive's to fill or drop; expected a "
                    + "name of its own, e.g. " + DEFAULT_NAMESPACE);
        }
    }

    /** Without TLS settings of its own: TLS as the URLs say. */
    public RedriveConfig(String pgUrl, String pgUser, String pgPassword, String redisUri, String namespace) {
        this(pgUrl, pgUser, pgPassword, redisUri, namespace, TlsSettings.AS_URLS);
    }

    public static RedriveConfig defaults() {
        return fromEnvironment(Map.of());
    }

    public static RedriveConfig fromEnvironment(Map<String, String> env) {
        return new RedriveConfig(
                env.getOrDefault("REDRIVE_PG_URL", DEFAULT_PG_URL),
                env.getOrDefault("REDRIVE_PG_USER", DEFAULT_PG_USER),
                password(env.getOrDefault("REDRIVE_PG_PASSWORD", ""), env.getOrDefault("REDRIVE_PG_PASSWORD_FILE", "")),
                env.getOrDefault("REDRIVE_REDIS_URI", DEFAULT_REDIS_URI),
                env.getOrDefault("REDRIVE_NAMESPACE", DEFAULT_NAMESPACE),
                TlsSettings.parse(env.get("REDRIVE_TLS"), env.get("REDRIVE_TLS_CA")));
    }

    /** The password given as a value or in a file (see {@link PasswordFile}), never both: which one would win? */
    public static String password(String value, String file) {
        if (!value.isEmpty() && !file.isEmpty()) {
            throw new ConfigurationException("the PostgreSQL password is given twice, as REDRIVE_PG_PASSWORD "
                    + "(--pg-password) and in " + PasswordFile.SETTING + "; expected one of them");
        }
        return file.isEmpty() ? value : PasswordFile.read(file);
    }

    public RedriveConfig withNamespace(String otherNamespace) {
        return new RedriveConfig(pgUrl, pgUser, pgPassword, redisUri, otherNamespace, tls);
    }

    public RedriveConfig withTls(TlsSettings otherTls) {
        return new RedriveConfig(pgUrl, pgUser, pgPassword, redisUri, namespace, otherTls);
    }

    /** For logs and error lines: never shows a password, neither the separate one nor one inside a URL. */
    @Override
    public String toString() {
        return "RedriveConfig[pg=" + UrlCredentials.mask(pgUrl) + " user=" + pgUser + ", redis=" + UrlCredentials.mask(redisUri)
                + ", namespace=" + namespace + (tls.enabled() ? ", " + tls : "") + "]";
    }

    /**
     * A schema PostgreSQL owns or every database user shares: migrating into it mixes Redrive's tables with others',
     * and re-seeding the sandbox or a test's clean-up would drop it with CASCADE.
     */
    private static boolean isPostgresSchema(String namespace) {
        return namespace.startsWith("pg_") || namespace.equals("information_schema") || namespace.equals("public");
    }

    /** The TLS settings set sslmode, sslrootcert and the socket factory; a URL that sets them too must not differ. */
    private static void checkPgTlsAgrees(String pgUrl, TlsSettings tls) {
        if (!tls.enabled()) {
            return;
        }
        Matcher parameter = PG_SSL_PARAMETER.matcher(pgUrl);
        while (parameter.find()) {
            String name = parameter.group(1).toLowerCase(Locale.ROOT);
            if (!name.equals("sslmode") || !parameter.group(2).equalsIgnoreCase(tls.mode().option())) {
                throw new ConfigurationException("REDRIVE_PG_URL sets " + name + "=" + parameter.group(2)
                        + " and REDRIVE_TLS (--tls) says " + tls.mode().option()
                        + ": give TLS in one place, expected the URL without " + name + "=, got" + shown(pgUrl));
            }
        }
    }

    private static void checkRedisUri(String uri) {
        String unreadable = unreadable(uri);
        if (unreadable != null) {
            throw new ConfigurationException("REDRIVE_REDIS_URI is not a redis:// or rediss:// URI: " + unreadable);
        }
        URI parsed = URI.create(uri);
        String scheme = Objects.toString(parsed.getScheme(), "");
        if (!scheme.equals("redis") && !scheme.equals("rediss") || !hasHosts(scheme, parsed)) {
            throw new ConfigurationException("REDRIVE_REDIS_URI must look like redis://host:port (or rediss:// for TLS; "
                    + "several cluster nodes as redis://host:port,host:port), got" + shown(uri));
        }
    }

    /**
     * A connection string for an error line, after "got": {@code ": "} and the value with its passwords masked when it
     * reads as {@code scheme://...}, where {@link UrlCredentials} can find them; else only what is wrong with it. A
     * value that does not parse may hold a password anywhere ({@code redis//:PASSWORD@host}), so it is never echoed.
     */
    static String shown(String value) {
        String unreadable = unreadable(value);
        return unreadable == null ? ": " + UrlCredentials.mask(value) : " a value that is not one: " + unreadable;
    }

    /** What keeps a connection string from reading as {@code scheme://...}, or null when it does. */
    private static String unreadable(String value) {
        int separator = value.indexOf("://");
        if (separator < 0) {
            return "missing '://' after the scheme (the value is not shown: it may hold a password)";
        }
        char first = value.charAt(0);
        if (separator == 0 || !(first >= 'a' && first <= 'z' || first >= 'A' && first <= 'Z')) {
            return "it does not start with a scheme such as redis:// (the value is not shown: it may hold a password)";
        }
        try {
            new URI(value);
            return null;
        } catch (URISyntaxException e) {
            return e.getReason().toLowerCase(Locale.ROOT) + " at character " + e.getIndex()
                    + " (the value is not shown: it may hold a password)";
        }
    }

    /** One host, or the comma-separated seed nodes of a cluster, each a host with an optional port. */
    private static boolean hasHosts(String scheme, URI parsed) {
        if (parsed.getHost() != null) {
            return true;
        }
        String authority = parsed.getRawAuthority();
        if (authority == null) {
            return false;
        }
        String hosts = authority.substring(authority.lastIndexOf('@') + 1);
        for (String node : hosts.split(",", -1)) {
            try {
                if (node.isEmpty() || URI.create(scheme + "://" + node).getHost() == null) {
                    return false;
                }
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return true;
    }

    private static String requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new ConfigurationException(name + " must not be empty");
        }
        return value.trim();
    }
}
