package dev.redrive.demo.embedded;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;

/**
 * Whether a redis-server of 127.0.0.1 answers PING, plain or over TLS, without redis-cli (the embedded server comes
 * without one): the sandbox waits for its own server with it, the tests for theirs.
 */
public final class RedisPing {
    private RedisPing() {
    }

    public static boolean answers(int port, boolean tls) {
        try (Socket socket = tls ? trustingAll().getSocketFactory().createSocket() : new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            socket.setSoTimeout(1_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            byte[] answer = in.readNBytes(7);
            return new String(answer, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException | GeneralSecurityException e) {
            return false;
        }
    }

    /** Only to see that the server is up: whoever then speaks to it checks its certificate. */
    private static SSLContext trustingAll() throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[]{new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return context;
    }
}
