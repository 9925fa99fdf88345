package io.xferbench.client.load.target;

import io.xferbench.nativeio.OwnedDirectories;
import io.xferbench.nativeio.ProcessOwner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Temporary directories a bench owns: removed on close or, if the bench is stopped by a signal, by a shutdown
 * hook; each is named after the bench that made it, {@code <prefix><pid>.<start-millis>-<random>}
 * ({@link ProcessOwner}), so a later bench can remove what a SIGKILLed one left (and stop any process still running
 * from it) without touching a bench running beside it, even one that has the dead bench's pid now.
 */
public final class OwnedTempDirs {
    /** Where directories made before names carried their owner ({@code <prefix><random>}) hold their owner's pid. */
    static final String OWNER_FILE = "owner.pid";
    private static final long UNOWNED_GRACE_MILLIS = 60_000;

    private OwnedTempDirs() {
    }

    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

    static {
        // SIGTERM or Ctrl-C: the servers first (they may still write here), then the directories.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            ChildProcesses.stopAll();
            LIVE.forEach(OwnedTempDirs::delete);
        }, "xferbench-cleanup"));
    }

    /** The JVM's temporary directory, where benches make their directories unless told otherwise. */
    public static Path defaultParent() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    public static Path create(String prefix) throws IOException {
        return create(defaultParent(), prefix);
    }

    public static Path create(Path parent, String prefix) throws IOException {
        Path dir = Files.createTempDirectory(parent, prefix + ProcessOwner.current() + "-");
        LIVE.add(dir);
        return dir;
    }

    /** Removes directories of this prefix whose owner is gone, killing processes that still name them. */
    public static void removeStale(String prefix) {
        removeStale(defaultParent(), prefix);
    }

    /**
     * The same in {@code parent}. A name from before names carried the owner's start time ({@code <prefix><random>},
     * with {@value #OWNER_FILE} inside) is judged by that file's pid alone, as it was then: stale once no process
     * has it.
     */
    public static void removeStale(Path parent, String prefix) {
        Pattern oldStyle = Pattern.compile(Pattern.quote(prefix) + "\\d+");
        try (Stream<Path> dirs = Files.list(parent)) {
            List<Path> stale = new ArrayList<>(OwnedDirectories.stale(parent, prefix));
            dirs.filter(d -> oldStyle.matcher(d.getFileName().toString()).matches() && !oldStyleOwnerAlive(d))
                    .forEach(stale::add);
            for (Path d : stale) {
                ProcessHandle.allProcesses()
                        .filter(h -> commandLine(h).contains(d.toString()))
                        .forEach(ProcessHandle::destroyForcibly);
                System.err.println("xferbench: removing " + d + ", left by a bench that was killed");
                delete(d);
            }
        } catch (IOException e) {
            System.err.println("xferbench: could not clean earlier " + prefix + "* directories: " + e.getMessage());
        }
    }

    /**
     * A process's command line as the kernel shows it: nginx rewrites its argv into a title ("nginx: master
     * process /usr/sbin/nginx -p DIR ..."), which ProcessHandle.Info does not always report.
     */
    public static String commandLine(ProcessHandle h) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(h.pid()), "cmdline"), StandardCharsets.ISO_8859_1)
                    .replace('\0', ' ');
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static boolean oldStyleOwnerAlive(Path dir) {
        try {
            long owner = Long.parseLong(Files.readString(dir.resolve(OWNER_FILE)).trim());
            return ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            // No owner yet: a bench may be creating it this instant; only an old one is abandoned.
            try {
                return Files.getLastModifiedTime(dir).toMillis() > System.currentTimeMillis() - UNOWNED_GRACE_MILLIS;
            } catch (IOException gone) {
                return true;
            }
        }
    }

    public static void delete(Path dir) {
        LIVE.remove(dir);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("xferbench: could not remove " + dir + ": " + e.getMessage());
        }
    }
}
