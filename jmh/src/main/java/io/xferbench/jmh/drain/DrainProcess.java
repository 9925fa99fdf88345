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
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's side of a {@link DrainServer}: starts it as a child JVM (same JDK, same class path),
 * connects to it over loopback and waits, without syscalls, until it has received a given number of bytes.
 */
public final class DrainProcess implements AutoCloseable {
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** A receiver that makes no progress for this long is dead or wedged; the op fails instead of hanging. */
    private static final long STALL_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final Process process;
    private final Path dir;
    private final SharedCounters shared;
    private final SocketChannel socket;

    private DrainProcess(Process process, Path dir, SharedCounters shared, SocketChannel socket) {
        this.process = process;
        this.dir = dir;
        this.shared = shared;
        this.socket = socket;
    }

    /** Starts a drain for bodies of {@code size} bytes and returns once connected (blocking socket, TCP_NODELAY). */
    public static DrainProcess start(long size) throws IOException {
        Path dir = Files.createTempDirectory(sharedMemoryDir(), "xferbench-drain");
        Path counters = dir.resolve("counters");
        Files.write(counters, new byte[SharedCounters.SIZE]);
        SharedCounters shared = SharedCounters.map(counters);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Small and quick to start; the drain loop is read(2) into one buffer, it needs no tuning.
        cmd.addAll(List.of("-Xms64m", "-Xmx64m", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), DrainServer.class.getName()));
        cmd.addAll(List.of(counters.toString(), Long.toString(size), Long.toString(ProcessHandle.current().pid())));
        Process process = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("drain.log").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
            long port;
            while ((port = shared.getAcquire(SharedCounters.PORT)) == 0) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException("drain process did not start listening (" + (process.isAlive() ? "timeout" : "exit " + process.exitValue())
                            + "): " + log(dir));
                }
                Thread.sleep(5);
            }
            SocketChannel socket = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), (int) port));
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            return new DrainProcess(process, dir, shared, socket);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            deleteQuietly(dir);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the drain process", e);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            deleteQuietly(dir);
            throw e;
        }
    }

    /** The connected socket the benchmark sends on. */
    public SocketChannel socket() {
        return socket;
    }

    /**
     * Spins until the drain has received {@code total} bytes in all. No syscall on the way: an acquire load and
     * {@link Thread#onSpinWait()}; the clock and the child's liveness are looked at only every 64 Ki spins.
     */
    public void awaitReceived(long total) throws IOException {
        long seen = shared.getAcquire(SharedCounters.RECEIVED);
        if (seen >= total) {
            return;
        }
        long lastSeen = seen;
        long progressAt = System.nanoTime();
        int spins = 0;
        while ((seen = shared.getAcquire(SharedCounters.RECEIVED)) < total) {
            Thread.onSpinWait();
            if ((++spins & 0xFFFF) == 0) {
                long now = System.nanoTime();
                if (seen != lastSeen) {
                    lastSeen = seen;
                    progressAt = now;
                }
                if (shared.getAcquire(SharedCounters.STATUS) < 0 || !process.isAlive()) {
                    throw new IOException("drain process failed after " + seen + " of " + total + " bytes: " + log(dir));
                }
                if (now - progressAt > STALL_TIMEOUT_NANOS) {
                    throw new IOException("drain process made no progress for 60 s at " + seen + " of " + total + " bytes: " + log(dir));
                }
            }
        }
    }

    /** CRC32C of the first body the drain received, or empty if it has not received one yet. */
    public OptionalInt firstCrc32c() {
        long v = shared.getAcquire(SharedCounters.FIRST_CRC);
        return v == 0 ? OptionalInt.empty() : OptionalInt.of((int) (v - 1));
    }

    @Override
    public void close() throws IOException {
        shared.setRelease(SharedCounters.CLOSING, 1);
        try {
            socket.close();
            // The drain sees EOF and exits; don't wait long for it.
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
            String s = Files.readString(dir.resolve("drain.log")).strip();
            return s.isEmpty() ? "(drain log empty)" : s;
        } catch (IOException e) {
            return "(no drain log)";
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
