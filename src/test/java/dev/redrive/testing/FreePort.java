package dev.redrive.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** A TCP port nothing listens on right now: for a server a test starts, or an address that must refuse. */
public final class FreePort {
    private FreePort() {
    }

    public static int next() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
