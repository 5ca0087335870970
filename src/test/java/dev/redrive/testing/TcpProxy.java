package dev.redrive.testing;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy in front of a PostgreSQL server (127.0.0.1, an ephemeral port; plain sockets, one thread pair per
 * connection) that can cut a connection at a chosen statement, so that a test decides whether that statement reached
 * the server while the client cannot know. It reads the frontend/backend protocol (version 3) as it forwards: a
 * statement is found by a fragment of its SQL text in a Parse or Query message, and also when it runs again by the
 * name of its prepared statement only (the JDBC driver sends a Bind without the text once it has prepared the
 * statement on the server, from its fifth execution on a connection). It answers the driver's SSL and GSS encryption
 * requests with "no" itself, so that what passes stays readable whatever the URL asks for.
 *
 * <p>A cut also freezes the proxy: the messages every other connection sends afterwards (new ones included) are held
 * until {@link #thaw()}, so that a test sees the world as the cut left it before the client can act on the server
 * again, with no race against the client's timers.
 */
public final class TcpProxy implements AutoCloseable {
    private static final int SSL_REQUEST = 80877103;
    private static final int GSSENC_REQUEST = 80877104;
    private static final long ANSWER_WAIT_SECONDS = 10;

    /** Where a connection is cut. */
    public enum Cut {
        /** The statement never reaches the server: the connection is dropped instead of forwarding it. */
        BEFORE_STATEMENT,
        /**
         * The statement and everything up to its Sync reach the server, which runs them to the end (its ReadyForQuery
         * is read); the answer is dropped with the connection, so the client never hears it.
         */
        AFTER_SERVER_ANSWERED
    }

    /**
     * What a cut did.
     *
     * @param message           the type of the message that was found: 'P' Parse, 'B' Bind (of a statement the
     *                          server has prepared, without its text), 'Q' simple Query
     * @param statement         the first line of the statement's text
     * @param commandTags       the server's CommandComplete tags held back from the client (e.g. {@code SELECT 1})
     * @param transactionStatus from the ReadyForQuery held back: 'I' idle (an autocommit statement has committed),
     *                          'T' inside a transaction block, 'E' in a failed one; null when the server never answered
     */
    public record CutReport(Cut cut, char message, String statement, List<String> commandTags,
                            Character transactionStatus) {
    }

    private record Armed(String sqlFragment, Cut cut, CompletableFuture<CutReport> report) {
    }

    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    /** What follows host and port in the JDBC URLs of the proxied server: the database and the parameters. */
    private final String urlRest;
    private final AtomicReference<Armed> armed = new AtomicReference<>();
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private final Object gate = new Object();
    private boolean frozen;
    private volatile boolean open = true;

    private TcpProxy(ServerSocket listener, String targetHost, int targetPort, String urlRest) {
        this.listener = listener;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.urlRest = urlRest;
        this.acceptor = new Thread(this::accept, "tcp-proxy-" + listener.getLocalPort());
        this.acceptor.setDaemon(true);
    }

    /**
     * Listens on 127.0.0.1 on a free port and forwards every connection to the (single) server of
     * {@code jdbcUrl}, e.g. {@code jdbc:postgresql://127.0.0.1:5432/postgres}.
     */
    public static TcpProxy inFrontOf(String jdbcUrl) {
        URI server = URI.create(jdbcUrl.substring("jdbc:".length()));
        String rest = server.getRawPath() + (server.getRawQuery() == null ? "" : "?" + server.getRawQuery());
        try {
            TcpProxy proxy = new TcpProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), server.getHost(),
                    server.getPort() < 0 ? 5432 : server.getPort(), rest);
            proxy.acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** The JDBC URL of the proxied server through this proxy: the same database and parameters. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + urlRest;
    }

    /**
     * Cuts the connection that next sends a statement whose text contains {@code sqlFragment}, once; the future
     * completes when both of its sockets are closed, with the proxy frozen. Statements prepared before the call are
     * found too.
     */
    public CompletableFuture<CutReport> cutAt(String sqlFragment, Cut cut) {
        Armed next = new Armed(sqlFragment, cut, new CompletableFuture<>());
        if (!armed.compareAndSet(null, next)) {
            throw new IllegalStateException("a cut is already armed");
        }
        return next.report();
    }

    /** Lets the messages held since the cut go on to the server. */
    public void thaw() {
        synchronized (gate) {
            frozen = false;
            gate.notifyAll();
        }
    }

    private void freeze() {
        synchronized (gate) {
            frozen = true;
        }
    }

    private void awaitThawed() throws IOException {
        synchronized (gate) {
            while (frozen && open) {
                try {
                    gate.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while frozen", e);
                }
            }
        }
    }

    private void accept() {
        while (open) {
            try {
                Socket client = listener.accept();
                Socket server;
                try {
                    server = new Socket(targetHost, targetPort);
                } catch (IOException e) {
                    client.close();
                    continue;
                }
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Link link = new Link(client, server);
                links.add(link);
                link.start();
            } catch (IOException e) {
                if (open) {
                    throw new UncheckedIOException("the proxy stopped accepting", e);
                }
            }
        }
    }

    @Override
    public void close() {
        open = false;
        try {
            listener.close();
        } catch (IOException e) {
            // Closing anyway.
        }
        links.forEach(Link::close);
        thaw();
        Armed left = armed.getAndSet(null);
        if (left != null) {
            left.report().completeExceptionally(new IllegalStateException("the proxy closed before the statement came"));
        }
    }

    /** One proxied connection: a thread per direction, each reading whole protocol messages. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        /** Named prepared statements of this connection and their text, as the client's Parse messages defined them. */
        private final Map<String, String> prepared = new HashMap<>();
        private final List<String> heldTags = new ArrayList<>();
        private final CompletableFuture<Character> heldReady = new CompletableFuture<>();
        private volatile boolean holdAnswers;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            daemon(this::clientToServer, "proxy-c2s-" + client.getPort()).start();
            daemon(this::serverToClient, "proxy-s2c-" + client.getPort()).start();
        }

        private void clientToServer() {
            try {
                DataInputStream in = new DataInputStream(client.getInputStream());
                OutputStream toServer = server.getOutputStream();
                startup(in, toServer);
                while (true) {
                    int type = in.read();
                    if (type < 0) {
                        break;
                    }
                    byte[] body = body(in);
                    String text = statementText((char) type, body);
                    Armed cut = text == null ? null : take(text);
                    if (cut != null) {
                        cut(cut, text, type, body, in, toServer);
                        return;
                    }
                    awaitThawed();
                    send(toServer, type, body);
                }
            } catch (IOException e) {
                // The other side closed, or this link was cut.
            } finally {
                close();
            }
        }

        /** The untyped first messages: encryption requests are refused here, the startup message is forwarded. */
        private void startup(DataInputStream in, OutputStream toServer) throws IOException {
            while (true) {
                int length = in.readInt();
                byte[] rest = in.readNBytes(length - 4);
                if (rest.length != length - 4) {
                    throw new EOFException();
                }
                int code = ByteBuffer.wrap(rest).getInt();
                if (code == SSL_REQUEST || code == GSSENC_REQUEST) {
                    client.getOutputStream().write('N');
                    continue;
                }
                awaitThawed();
                toServer.write(ByteBuffer.allocate(length).putInt(length).put(rest).array());
                return;
            }
        }

        /**
         * The text of the statement this message runs or prepares (for a Bind of a statement prepared earlier, the text
         * its Parse gave), or null.
         */
        private String statementText(char type, byte[] body) {
            return switch (type) {
                case 'Q' -> cString(body, 0);
                case 'P' -> {
                    String name = cString(body, 0);
                    String query = cString(body, utf8Length(name) + 1);
                    if (!name.isEmpty()) {
                        prepared.put(name, query);
                    }
                    yield query;
                }
                case 'B' -> {
                    String statement = cString(body, utf8Length(cString(body, 0)) + 1);
                    yield statement.isEmpty() ? null : prepared.get(statement);
                }
                case 'C' -> {
                    if (body[0] == 'S') {
                        prepared.remove(cString(body, 1));
                    }
                    yield null;
                }
                default -> null;
            };
        }

        /** The armed cut, taken (it fires once), when {@code text} is the statement it waits for; else null. */
        private Armed take(String text) {
            Armed current = armed.get();
            if (current == null || !text.contains(current.sqlFragment()) || !armed.compareAndSet(current, null)) {
                return null;
            }
            return current;
        }

        private void cut(Armed armedCut, String text, int type, byte[] body, DataInputStream in,
                         OutputStream toServer) throws IOException {
            Character status = null;
            if (armedCut.cut() == Cut.AFTER_SERVER_ANSWERED) {
                holdAnswers = true;
                send(toServer, type, body);
                // Everything up to the Sync that ends the statement's round trip (a simple Query is its own end).
                int next = type;
                while (type != 'Q' && next != 'S') {
                    next = in.read();
                    if (next < 0) {
                        break;
                    }
                    send(toServer, next, body(in));
                }
                try {
                    status = heldReady.get(ANSWER_WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    status = null;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            freeze();
            close();
            List<String> tags;
            synchronized (heldTags) {
                tags = List.copyOf(heldTags);
            }
            armedCut.report().complete(new CutReport(armedCut.cut(), (char) type,
                    text.strip().lines().findFirst().orElse(""), tags, status));
        }

        private void serverToClient() {
            try {
                DataInputStream in = new DataInputStream(server.getInputStream());
                OutputStream toClient = client.getOutputStream();
                while (true) {
                    int type = in.read();
                    if (type < 0) {
                        break;
                    }
                    byte[] body = body(in);
                    if (!holdAnswers) {
                        send(toClient, type, body);
                    } else if (type == 'C') {
                        synchronized (heldTags) {
                            heldTags.add(cString(body, 0));
                        }
                    } else if (type == 'Z') {
                        heldReady.complete((char) body[0]);
                    }
                }
            } catch (IOException e) {
                // The other side closed, or this link was cut.
            } finally {
                heldReady.complete(null);
                close();
            }
        }

        void close() {
            closeQuietly(client);
            closeQuietly(server);
            links.remove(this);
        }
    }

    /** A message's body after its type byte: the length (which counts itself) and what follows. */
    private static byte[] body(DataInputStream in) throws IOException {
        int length = in.readInt();
        byte[] body = in.readNBytes(length - 4);
        if (body.length != length - 4) {
            throw new EOFException();
        }
        return body;
    }

    /** Writes one whole message in one call, so that no peer ever sees half of it when a link is cut. */
    private static void send(OutputStream out, int type, byte[] body) throws IOException {
        out.write(ByteBuffer.allocate(5 + body.length).put((byte) type).putInt(4 + body.length).put(body).array());
    }

    private static String cString(byte[] body, int from) {
        int end = from;
        while (end < body.length && body[end] != 0) {
            end++;
        }
        return new String(body, from, end - from, StandardCharsets.UTF_8);
    }

    private static int utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }
}
