package io.xferbench.core.netty;

import io.xferbench.nativeio.OwnedDirectories;
import io.xferbench.nativeio.ProcessOwner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where Netty extracts its native transport libraries in this suite's JVMs: {@code <tmp>/xferbench-netty-<pid>.<start-millis>}
 * rather than {@code <tmp>} itself. Netty writes each {@code .so} there, loads it and unlinks it at once, but a JVM
 * killed in between (SIGKILL, a parent's death signal) left the library in /tmp under a random name nobody owns. In a
 * directory named by its owner ({@link ProcessOwner}) the leftover is this suite's to remove: once both natives are
 * loaded ({@link #loadNatives}) the emptied directory goes, a shutdown hook removes it on a normal exit, and every claim
 * first removes those whose owner is gone. Netty reads {@value #PROPERTY} once, when its {@code NativeLibraryLoader}
 * initialises, so the classes that ask Netty about its native transports ({@link NettyTransport}, the server's
 * event-loop transports) claim in their static initialisers and load before they ask. A workdir the user set is kept.
 */
public final class NettyNativeWorkdir {
    static final String PROPERTY = "io.netty.native.workdir";
    static final String PREFIX = "xferbench-netty-";

    private static boolean claimed;
    private static boolean loaded;
    private static Path own;

    private NettyNativeWorkdir() {
    }

    /**
     * Points Netty at this process's own directory (created by Netty when it loads a library), removes it at exit and
     * removes dead processes' ones; once per JVM, later calls do nothing. Returns the workdir in force, or null when
     * the user set one.
     */
    public static synchronized Path claim() {
        if (claimed) {
            return own;
        }
        claimed = true;
        Path parent = parent();
        sweepQuietly(parent);
        if (System.getProperty(PROPERTY) != null) {
            return null;
        }
        Path dir = parent.resolve(PREFIX + ProcessOwner.current());
        System.setProperty(PROPERTY, dir.toString());
        own = dir;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                OwnedDirectories.delete(dir);
            } catch (IOException | UncheckedIOException e) {
                // The next claim in any JVM of the suite removes it (its owner gone by then).
            }
        }, "netty-native-workdir"));
        return own;
    }

    /**
     * Loads the suite's Netty natives (epoll, io_uring, netty-tcnative), once (Netty unlinks each {@code .so} as it loads it), and removes the
     * emptied directory, so that a kill later in the process's life leaves nothing: only one during these loads leaves
     * the directory, for the next claim to sweep. The gates call it before they ask Netty about a transport, not at
     * class initialisation, so a program that never asks (a {@code platform} server before its first INFO) loads
     * nothing. Netty creates the workdir only when its loader initialises, so a native library extracted after this
     * would fail to load (reported unavailable, which CI's XFERBENCH_REQUIRE_ALL_METHODS=1 fails on): a new Netty
     * native dependency must be loaded here too. A directory still holding libraries (the user kept them with
     * {@code -Dio.netty.native.deleteLibAfterLoading=false}) stays until the shutdown hook.
     */
    public static synchronized void loadNatives() {
        if (loaded) {
            return;
        }
        loaded = true;
        Path dir = claim();
        io.netty.channel.epoll.Epoll.isAvailable();
        io.netty.channel.uring.IoUring.isAvailable();
        // netty-tcnative (BoringSSL) for the OpenSSL TLS engine: extracted here like the transports, or not at all.
        io.netty.handler.ssl.OpenSsl.isAvailable();
        if (dir == null) {
            return;
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // Not empty (libraries kept) or not removable now: the shutdown hook or the next claim removes it.
        }
    }

    /** Removes the directories {@code xferbench-netty-<pid>.<start-millis>} under {@code parent} whose owner is gone. */
    public static List<Path> sweep(Path parent) throws IOException {
        return OwnedDirectories.removeStale(parent, PREFIX);
    }

    /** The directory Netty would extract into without a workdir: {@code io.netty.tmpdir}, else {@code java.io.tmpdir}. */
    public static Path parent() {
        return Path.of(System.getProperty("io.netty.tmpdir", System.getProperty("java.io.tmpdir")));
    }

    private static void sweepQuietly(Path parent) {
        try {
            sweep(parent);
        } catch (IOException | UncheckedIOException e) {
            // Another JVM sweeping the same directory at once, or an unreadable tmp: the next claim tries again.
        }
    }
}
