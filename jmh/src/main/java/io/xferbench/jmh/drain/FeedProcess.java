package io.xferbench.jmh.drain;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's side of a {@link FeedServer}: starts it as a child JVM (same JDK, same class path) and connects to
 * it over loopback. From then on the socket delivers one copy of the file per {@link #request}.
 */
public final class FeedProcess implements AutoCloseable {
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final Process process;
    private final Path dir;
    private final SharedCounters shared;
    private final SocketChannel socket;

    private FeedProcess(Process process, Path dir, SharedCounters shared, SocketChannel socket) {
        this.process = process;
        this.dir = dir;
        this.shared = shared;
        this.socket = socket;
    }

    /** Starts a feeder of {@code file} and returns once connected (blocking socket, TCP_NODELAY). */
    public static FeedProcess start(Path file) throws IOException {
        Path dir = Files.createTempDirectory(sharedMemoryDir(), "xferbench-feed");
        Path counters = dir.resolve("counters");
        Files.write(counters, new byte[SharedCounters.SIZE]);
        SharedCounters shared = SharedCounters.map(counters);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-Xms64m", "-Xmx64m", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), FeedServer.class.getName()));
        cmd.addAll(List.of(counters.toString(), file.toString(), Long.toString(ProcessHandle.current().pid())));
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("feed.log").toFile()).start();
        try {
            long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
            long port;
            while ((port = shared.getAcquire(SharedCounters.PORT)) == 0) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException("feed process did not start listening (" + (process.isAlive() ? "timeout" : "exit " + process.exitValue())
                            + "): " + log(dir));
                }
                Thread.sleep(5);
            }
            SocketChannel socket = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), (int) port));
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            return new FeedProcess(process, dir, shared, socket);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            deleteQuietly(dir);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the feed process", e);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            deleteQuietly(dir);
            throw e;
        }
    }

    /** The connected socket the file arrives on, repeated. */
    public SocketChannel socket() {
        return socket;
    }

    /**
     * Asks for the file to be sent until {@code totalBytes} have been sent in all (a whole number
     * of copies). A release store into shared memory: no syscall in this process.
     */
    public void request(long totalBytes) {
        shared.setRelease(FeedServer.REQUESTED, totalBytes);
    }

    /** Why the feeder stopped, if it did: for error messages. */
    public String status() {
        return process.isAlive() ? "feeding" : "exited " + process.exitValue() + ": " + log(dir);
    }

    /** Tells the feeder that the connection is about to end on purpose (before shutting down a socket others use). */
    public void ending() {
        shared.setRelease(SharedCounters.CLOSING, 1);
    }

    /** Ends the feed: the feeder sees the socket closed and exits. Shut the socket down first if others use it. */
    @Override
    public void close() throws IOException {
        ending();
        try {
            socket.close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        } finally {
            deleteQuietly(dir);
        }
    }

    private static Path sharedMemoryDir() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static String log(Path dir) {
        try {
            String s = Files.readString(dir.resolve("feed.log")).strip();
            return s.isEmpty() ? "(feed log empty)" : s;
        } catch (IOException e) {
            return "(no feed log)";
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // temp files only
        }
    }
}
