package io.xferbench.core.data;

import io.xferbench.nativeio.ProcessOwner;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's temporary files: {@code .tmp-<pid>.<start-millis>-<label>-<random>}, next to what they become. The
 * owner in the name (pid and that process's start time, so a reused pid is not mistaken for the owner) lets a
 * restarted server remove what a killed one left, while a second live server on the same directory keeps its own.
 * Hidden names are reserved for the server, so no client file ever matches. A label too long for the whole name to
 * stay within NAME_MAX is cut (see {@link #fitted}): the temp name of a 255-byte client name must still be creatable.
 */
public final class TempFiles {
    static final String PREFIX = ".tmp-";
    private static final Pattern OWNED = Pattern.compile("^\\.tmp-(\\d+)\\.(\\d+)-.*");
    /** The label of a DELETE's private name ({@link AsideUnlink}), before the name it deletes. */
    static final String DELETING = "deleting-";
    private static final Pattern DELETING_ASIDE = Pattern.compile("^\\.tmp-\\d+\\.\\d+-" + DELETING + ".*");
    /** Names of the old pattern ({@code .tmp-<label>-<random>}) carry no owner: removed once surely abandoned. */
    static final Duration LEGACY_AGE = Duration.ofHours(1);
    /**
     * The bytes left for the label: NAME_MAX less the prefix, the widest owner (two longs of 19 digits and a dot), two
     * dashes and 16 hex digits. The widest owner, not this one: every process cuts a label alike, so a later run finds
     * what a dead one left for the same label.
     */
    static final int LABEL_MAX_BYTES = NameMax.BYTES - PREFIX.length() - (19 + 1 + 19) - 2 - 16;

    private TempFiles() {
    }

    /** A fresh temporary name in {@code dir} for something that will become {@code label}. */
    public static Path next(Path dir, String label) {
        return dir.resolve(PREFIX + ProcessOwner.current() + "-" + fitted(label) + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    }

    /**
     * {@code label}, or its longest start of whole characters within {@link #LABEL_MAX_BYTES} UTF-8 bytes (the
     * random part keeps cut names apart).
     */
    static String fitted(String label) {
        return NameMax.cut(label, LABEL_MAX_BYTES);
    }

    /** One removed file: where, and how many bytes it held. */
    public record Removed(Path path, long bytes) {
    }

    /**
     * Removes every temporary file under {@code root} whose owner is gone (symlinks are not followed). Under a dead
     * owner's DELETE private name ({@link AsideUnlink}) a regular file is removed (the DELETE was under way) and anything
     * else (FIFO, socket, symlink, directory: the DELETE was to put it back) is moved back to its name when that is free
     * ({@link AbandonedAside}), else left there and logged with both names.
     */
    public static List<Removed> removeStale(Path root) throws IOException {
        List<Removed> removed = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                String name = file.getFileName().toString();
                if (!isTempName(name) || !abandoned(name, attrs)) {
                    return FileVisitResult.CONTINUE;
                }
                if (attrs.isRegularFile()) {
                    if (Files.deleteIfExists(file)) {
                        removed.add(new Removed(file, attrs.size()));
                    }
                } else if (DELETING_ASIDE.matcher(name).matches()) {
                    AbandonedAside.restore(file);
                }
                return FileVisitResult.CONTINUE;
            }

            /** A directory a DELETE moved aside goes back after what is in it was swept (the walk is done with it). */
            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                if (!dir.equals(root) && DELETING_ASIDE.matcher(name).matches() && isTempName(name) && abandoned(name, null)) {
                    AbandonedAside.restore(dir);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        return removed;
    }

    /**
     * Removes the temporary files directly in {@code dir} that were to become {@code label} and whose owner is gone:
     * what a killed run of any program left while making that file (only the server sweeps its whole tree).
     */
    public static List<Removed> removeStale(Path dir, String label) throws IOException {
        List<Removed> removed = new ArrayList<>();
        String suffix = "-" + fitted(label) + "-";
        try (DirectoryStream<Path> candidates = Files.newDirectoryStream(dir, PREFIX + "*")) {
            for (Path file : candidates) {
                String name = file.getFileName().toString();
                BasicFileAttributes attrs;
                try {
                    attrs = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException gone) {
                    continue;
                }
                if (attrs.isRegularFile() && isTempName(name) && name.contains(suffix) && OWNED.matcher(name).matches()
                        && abandoned(name, attrs) && Files.deleteIfExists(file)) {
                    removed.add(new Removed(file, attrs.size()));
                }
            }
        }
        return removed;
    }

    /**
     * Whether {@code name} has a temp name's start and is not the checksum record of a client's file named
     * {@code tmp-…} ({@code .tmp-….crc32c}): no temp name ends in {@code .crc32c}, its random part is hex digits.
     */
    static boolean isTempName(String name) {
        return name.startsWith(PREFIX) && !ChecksumRecordName.isRecordName(name);
    }

    /** Whether {@code name}'s owner is gone; a name without one, once {@link #LEGACY_AGE} old ({@code attrs} needed then). */
    static boolean abandoned(String name, BasicFileAttributes attrs) {
        Matcher m = OWNED.matcher(name);
        if (!m.matches()) {
            return attrs.lastModifiedTime().toInstant().isBefore(Instant.now().minus(LEGACY_AGE));
        }
        return ProcessOwner.isGone(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
    }
}
