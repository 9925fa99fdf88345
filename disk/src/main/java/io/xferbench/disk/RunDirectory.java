package io.xferbench.disk;

import io.xferbench.core.data.ProcessOwner;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run's scratch directory under --dir, {@code <prefix><pid>.<start-millis>-<random>}: named by its owner so that a
 * run first removes what a SIGKILLed run of the same program left (its owner gone) and never a live run's. Cleanup
 * removes the run's own on every other exit path.
 */
public final class RunDirectory {
    private RunDirectory() {
    }

    /** A fresh directory for this run, after removing the dead runs' ones. */
    public static Path create(Path parent, String prefix) throws IOException {
        removeStale(parent, prefix);
        return Files.createTempDirectory(parent, prefix + ProcessOwner.current() + "-");
    }

    /** Removes the directories under {@code parent} named {@code prefix…} whose owner is gone. */
    public static List<Path> removeStale(Path parent, String prefix) throws IOException {
        Pattern owned = Pattern.compile("^" + Pattern.quote(prefix) + "(\\d+)\\.(\\d+)-.+");
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, prefix + "*")) {
            for (Path d : dirs) {
                Matcher m = owned.matcher(d.getFileName().toString());
                if (m.matches() && Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)
                        && ProcessOwner.isGone(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))) {
                    delete(d);
                    removed.add(d);
                }
            }
        }
        return removed;
    }

    /** Removes the directory and everything in it (symbolic links themselves, not their targets). */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
