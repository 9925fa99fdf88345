package io.xferbench.jmh.drain;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * The benchmark's side of a {@link FeedServer}: starts it as a child JVM and connects to it over loopback. From then
 * on the socket delivers one copy of the file per {@link #request}.
 */
public final class FeedProcess implements AutoCloseable {
    private final HelperJvm child;

    private FeedProcess(HelperJvm child) {
        this.child = child;
    }

    /** Starts a feeder of {@code file} and returns once connected (blocking socket, TCP_NODELAY). */
    public static FeedProcess start(Path file) throws IOException {
        return new FeedProcess(HelperJvm.start("feed", FeedServer.class, file.toString()));
    }

    /** The connected socket the file arrives on, repeated. */
    public SocketChannel socket() {
        return child.socket();
    }

    /**
     * Asks for the file to be sent until {@code totalBytes} have been sent in all (a whole number
     * of copies). A release store into shared memory: no syscall in this process.
     */
    public void request(long totalBytes) {
        child.shared().setRelease(FeedServer.REQUESTED, totalBytes);
    }

    /** Why the feeder stopped, if it did: for error messages. */
    public String status() {
        return child.isAlive() ? "feeding" : child.status();
    }

    /** Tells the feeder that the connection is about to end on purpose (before shutting down a socket others use). */
    public void ending() {
        child.shared().setRelease(SharedCounters.CLOSING, 1);
    }

    /** Ends the feed: the feeder sees the socket closed and exits. Shut the socket down first if others use it. */
    @Override
    public void close() throws IOException {
        child.close();
    }
}
