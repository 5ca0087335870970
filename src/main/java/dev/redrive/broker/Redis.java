package dev.redrive.broker;

import dev.redrive.config.ConfigurationException;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.config.TlsSettings;
import dev.redrive.config.UrlCredentials;
import dev.redrive.tls.CertificateProbe;
import dev.redrive.tls.TrustedCas;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.RedisClusterURIUtil;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One Redis client and a shared connection for a namespace, on a standalone server or a Redis Cluster. The URI
 * decides: several seed nodes ({@code redis://127.0.0.1:7001,127.0.0.1:7002}) or one node that reports
 * {@code cluster_enabled:1} connect with the cluster client, which follows MOVED/ASK and refreshes its view of the
 * slots; anything else is a standalone server. Every key of a namespace shares one hash tag ({@link StreamKeys}), so
 * callers use the same commands on both. Blocking reads should open their own connection.
 */
public final class Redis implements AutoCloseable {
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);
    /** What {@link #uri()} says of a host application's client, whose URI is not Redrive's to show. */
    private static final String HOST_CLIENT = "the host application's Redis client";
    private static final RedisCodec<String, byte[]> BINARY_VALUES = RedisCodec.of(StringCodec.UTF8,
            ByteArrayCodec.INSTANCE);

    /** The client this opened, shut down with it; null for a host's client, which stays the host's to shut down. */
    private final AbstractRedisClient ownClient;
    private final StatefulConnection<String, String> connection;
    private final RedisClusterCommands<String, String> sync;
    private final RedisClusterAsyncCommands<String, String> async;
    private final Opener opener;
    private final StreamKeys keys;
    private final String uri;

    /** Opens connections of another codec on the same client; standalone and cluster clients do it differently. */
    private interface Opener {
        BinaryConnection binary();
    }

    private Redis(AbstractRedisClient client, StatefulConnection<String, String> connection,
                  RedisClusterCommands<String, String> sync, RedisClusterAsyncCommands<String, String> async,
                  Opener opener, StreamKeys keys, String uri) {
        this.ownClient = client;
        this.connection = connection;
        this.sync = sync;
        this.async = async;
        this.opener = opener;
        this.keys = keys;
        this.uri = uri;
    }

    public static Redis connect(RedriveConfig config) {
        StreamKeys keys = new StreamKeys(config.namespace());
        try {
            List<RedisURI> seeds = seeds(config.redisUri(), config.tls());
            Optional<SslOptions> ssl = sslOptions(seeds, config.tls());
            if (seeds.size() > 1) {
                return cluster(seeds, ssl, keys, config.redisUri());
            }
            RedisClient client = RedisClient.create(seeds.get(0));
            ssl.ifPresent(options -> client.setOptions(ClientOptions.builder().sslOptions(options).build()));
            StatefulRedisConnection<String, String> connection;
            boolean clusterNode;
            try {
                connection = client.connect();
                clusterNode = isClusterNode(connection);
            } catch (RuntimeException e) {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
                throw e;
            }
            if (!clusterNode) {
                return new Redis(client, connection, connection.sync(), connection.async(),
                        () -> binary(client.connect(BINARY_VALUES)), keys, config.redisUri());
            }
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            return cluster(seeds, ssl, keys, config.redisUri());
        } catch (ConfigurationException e) {
            throw e;
        } catch (RuntimeException e) {
            Optional<String> certificate = certificateProblem(config, e);
            if (certificate.isPresent()) {
                throw new ServiceUnavailableException(UrlCredentials.mask("Redis at " + config.redisUri()
                        + " failed TLS verification: " + certificate.get()), e);
            }
            // The client's own words may quote the URI too, so the whole line is masked.
            throw new ServiceUnavailableException(UrlCredentials.mask("Redis at " + config.redisUri() + " is not reachable: "
                    + ServiceUnavailableException.rootMessage(e)), e);
        }
    }

    /** The URI's nodes; TLS settings of their own make every node TLS, verified as their mode says. */
    private static List<RedisURI> seeds(String uri, TlsSettings tls) {
        List<RedisURI> seeds = uri.contains(",") ? RedisClusterURIUtil.toRedisURIs(URI.create(uri))
                : List.of(RedisURI.create(uri));
        for (RedisURI seed : seeds) {
            seed.setTimeout(COMMAND_TIMEOUT);
            if (tls.enabled()) {
                seed.setSsl(true);
                seed.setVerifyPeer(switch (tls.mode()) {
                    case VERIFY_FULL -> SslVerifyMode.FULL;
                    case VERIFY_CA -> SslVerifyMode.CA;
                    default -> SslVerifyMode.NONE;
                });
            }
        }
        return seeds;
    }

    /** Over TLS, trust exactly the CAs of the settings (Lettuce's default is the JVM's, which a CA file replaces). */
    private static Optional<SslOptions> sslOptions(List<RedisURI> seeds, TlsSettings tls) {
        if (tls.caFile() == null || !seeds.get(0).isSsl()) {
            return Optional.empty();
        }
        return Optional.of(SslOptions.builder().jdkSslProvider().trustManager(TrustedCas.trustManagers(tls)).build());
    }

    /** When the node's certificate was to be verified and may have been refused: what is wrong with it. */
    private static Optional<String> certificateProblem(RedriveConfig config, RuntimeException failure) {
        if (!CertificateProbe.mayBeCertificateFailure(failure)) {
            return Optional.empty();
        }
        for (RedisURI seed : seeds(config.redisUri(), config.tls())) {
            TlsSettings.Mode mode = !seed.isSsl() ? TlsSettings.Mode.AS_URLS : switch (seed.getVerifyMode()) {
                case FULL -> TlsSettings.Mode.VERIFY_FULL;
                case CA -> TlsSettings.Mode.VERIFY_CA;
                case NONE -> TlsSettings.Mode.REQUIRE;
            };
            if (mode.verifiesCertificate()) {
                Optional<String> problem = CertificateProbe.problem(CertificateProbe.Protocol.REDIS, seed.getHost(),
                        seed.getPort(), mode, config.tls());
                if (problem.isPresent()) {
                    return problem;
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isClusterNode(StatefulRedisConnection<String, String> connection) {
        return connection.sync().info("cluster").contains("cluster_enabled:1");
    }

    private static Redis cluster(List<RedisURI> seeds, Optional<SslOptions> ssl, StreamKeys keys, String uri) {
        RedisClusterClient client = RedisClusterClient.create(seeds);
        // Adaptive refresh follows a failover or resharding as soon as a MOVED or a reconnect hints at one; the
        // periodic refresh catches what no command has run into yet.
        ClusterClientOptions.Builder options = ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .enablePeriodicRefresh(Duration.ofSeconds(30))
                        .build());
        ssl.ifPresent(options::sslOptions);
        client.setOptions(options.build());
        StatefulRedisClusterConnection<String, String> connection;
        try {
            connection = client.connect();
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            throw e;
        }
        return new Redis(client, connection, connection.sync(), connection.async(),
                () -> {
                    StatefulRedisClusterConnection<String, byte[]> binary = client.connect(BINARY_VALUES);
                    return new BinaryConnection(binary, binary.sync());
                }, keys, uri);
    }

    /**
     * The namespace on a host application's Lettuce client (standalone): a connection of its own on it, and more for
     * blocking reads. {@link #close} closes those connections and leaves the client running.
     */
    public static Redis using(RedisClient hostClient, String namespace) {
        RedriveConfig.checkNamespace(namespace);
        StatefulRedisConnection<String, String> connection = hostClient.connect();
        return new Redis(null, connection, connection.sync(), connection.async(),
                () -> binary(hostClient.connect(BINARY_VALUES)), new StreamKeys(namespace), HOST_CLIENT);
    }

    /** As {@link #using(RedisClient, String)}, on a host application's Redis Cluster client. */
    public static Redis using(RedisClusterClient hostClient, String namespace) {
        RedriveConfig.checkNamespace(namespace);
        StatefulRedisClusterConnection<String, String> connection = hostClient.connect();
        return new Redis(null, connection, connection.sync(), connection.async(),
                () -> {
                    StatefulRedisClusterConnection<String, byte[]> binary = hostClient.connect(BINARY_VALUES);
                    return new BinaryConnection(binary, binary.sync());
                }, new StreamKeys(namespace), HOST_CLIENT);
    }

    private static BinaryConnection binary(StatefulRedisConnection<String, byte[]> connection) {
        return new BinaryConnection(connection, connection.sync());
    }

    public RedisClusterCommands<String, String> sync() {
        return sync;
    }

    /** The shared connection's asynchronous commands, for a command whose answer nobody waits for. */
    public RedisClusterAsyncCommands<String, String> async() {
        return async;
    }

    /**
     * A new connection of its own, for blocking reads that must not stall the shared one. Values come as bytes, so
     * that the reader can tell text that is not UTF-8 from text that is.
     */
    public BinaryConnection newBinaryConnection() {
        return opener.binary();
    }

    public StreamKeys keys() {
        return keys;
    }

    public String uri() {
        return uri;
    }

    /** Deletes every key of the namespace (tests and sandbox re-seeding). */
    public void deleteNamespaceKeys() {
        for (String key : sync.keys(keys.pattern())) {
            sync.del(key);
        }
    }

    /** Closes the shared connection, and the client if this opened it (a host's client stays running). */
    @Override
    public void close() {
        connection.close();
        if (ownClient != null) {
            ownClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
