package io.xferbench.jmh.drain;

import io.xferbench.core.process.ChildCommand;
import io.xferbench.nativeio.JvmFlags;
import io.xferbench.nativeio.OwnedDirectories;
import io.xferbench.nativeio.ProcessOwner;
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
 * A helper process of a benchmark ({@link DrainServer}, {@link FeedServer}): started as a child JVM with the same
 * JDK and class path, given a {@link SharedCounters} file it publishes its port and progress in, and connected to
 * over loopback once it listens. Owns the process, its temp directory (counters + log) and the connection.
 */
final class HelperJvm implements AutoCloseable {
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final String name;
    private final Process process;
    private final Path dir;
    private final SharedCounters shared;
    private final SocketChannel socket;
    /** A fork ended by a signal or by System.exit skips close(): the process and its directory go here instead. */
    private final Thread onExit;

    private HelperJvm(String name, Process process, Path dir, SharedCounters shared, SocketChannel socket) {
        this.name = name;
        this.process = process;
        this.dir = dir;
        this.shared = shared;
        this.socket = socket;
        this.onExit = new Thread(() -> {
            process.destroyForcibly();
            deleteQuietly(dir);
        }, "xferbench-" + name + "-cleanup");
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    /**
     * Runs {@code mainClass <counters-file> args... <this pid>} and returns once connected to the port it publishes
     * (blocking socket, TCP_NODELAY). {@code name} names the temp directory, the log and the errors.
     */
    static HelperJvm start(String name, Class<?> mainClass, String... args) throws IOException {
        Path parent = sharedMemoryDir();
        removeStale(parent, name);
        Path dir = Files.createTempDirectory(parent, prefix(name) + ProcessOwner.current() + "-");
        Path counters = dir.resolve("counters");
        Files.write(counters, new byte[SharedCounters.SIZE]);
        SharedCounters shared = SharedCounters.map(counters);
        List<String> helperArgs = new ArrayList<>(List.of(counters.toString()));
        helperArgs.addAll(List.of(args));
        helperArgs.add(Long.toString(ProcessHandle.current().pid()));
        // Small and quick to start; the helpers loop on one socket with one buffer and need no tuning.
        List<String> cmd = ChildCommand.plain().java(List.of("-Xms64m", "-Xmx64m", "-XX:+UseSerialGC", JvmFlags.NATIVE_ACCESS),
                mainClass.getName(), helperArgs);
        Process process = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
            long port;
            while ((port = shared.getAcquire(SharedCounters.PORT)) == 0) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException(name + " process did not start listening ("
                            + (process.isAlive() ? "timeout" : "exit " + process.exitValue()) + "): " + log(name, dir));
                }
                Thread.sleep(5);
            }
            SocketChannel socket = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), (int) port));
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            return new HelperJvm(name, process, dir, shared, socket);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            deleteQuietly(dir);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the " + name + " process", e);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            deleteQuietly(dir);
            throw e;
        }
    }

    SocketChannel socket() {
        return socket;
    }

    SharedCounters shared() {
        return shared;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** How the process ended and what it logged, for error messages. */
    String status() {
        return process.isAlive() ? "running" : "exited " + process.exitValue() + ": " + log(name, dir);
    }

    /** What the process logged, for error messages. */
    String log() {
        return log(name, dir);
    }

    /**
     * Marks the end as intended (an EOF after this is normal for the child), closes the connection, gives the
     * child 10 s to see EOF and exit, then removes the temp directory.
     */
    @Override
    public void close() throws IOException {
        shared.setRelease(SharedCounters.CLOSING, 1);
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
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or ran: it finds nothing left
            }
        }
    }

    /** {@code xferbench-<name>-}: the directory is {@code <prefix><pid>.<start-millis>-<random>}, named by its owner. */
    static String prefix(String name) {
        return "xferbench-" + name + "-";
    }

    /**
     * Removes the directories a fork killed outright (SIGKILL, no shutdown hook) left under {@code parent}: those of
     * {@code name} whose owner is gone, never a running fork's.
     */
    static List<Path> removeStale(Path parent, String name) {
        try {
            return OwnedDirectories.removeStale(parent, prefix(name));
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of(); // another fork sweeping at once: the next start tries again
        }
    }

    private static Path sharedMemoryDir() {
        // The counters are spun on: keep them in memory, not on a disk that writes them back.
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static String log(String name, Path dir) {
        try {
            String s = Files.readString(dir.resolve(name + ".log")).strip();
            return s.isEmpty() ? "(" + name + " log empty)" : s;
        } catch (IOException e) {
            return "(no " + name + " log)";
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
