package io.xferbench.nativeio;

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
 * Directories named by their owner, {@code <prefix><pid>.<start-millis>} with an optional {@code -<suffix>}
 * ({@link ProcessOwner}): what a killed process left is removed by the next one, never what a live one still uses.
 */
public final class OwnedDirectories {
    private OwnedDirectories() {
    }

    /** Removes the directories under {@code parent} named {@code prefix<pid>.<start-millis>[-…]} whose owner is gone. */
    public static List<Path> removeStale(Path parent, String prefix) throws IOException {
        List<Path> stale = stale(parent, prefix);
        for (Path d : stale) {
            delete(d);
        }
        return stale;
    }

    /**
     * The directories under {@code parent} named {@code prefix<pid>.<start-millis>[-…]} whose owner is gone, left as
     * they are: for a caller that must stop what still runs from them first.
     */
    public static List<Path> stale(Path parent, String prefix) throws IOException {
        Pattern owned = Pattern.compile("^" + Pattern.quote(prefix) + "(\\d+)\\.(\\d+)(-.+)?$");
        List<Path> stale = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, prefix + "*")) {
            for (Path d : dirs) {
                Matcher m = owned.matcher(d.getFileName().toString());
                if (m.matches() && Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)
                        && ProcessOwner.isGone(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))) {
                    stale.add(d);
                }
            }
        }
        return stale;
    }

    /**
     * Removes the directory and everything in it (symbolic links themselves, not their targets); what vanishes
     * meanwhile (another process sweeping the same directory) is not an error.
     */
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
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
