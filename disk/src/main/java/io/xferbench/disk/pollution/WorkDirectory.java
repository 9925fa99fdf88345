package io.xferbench.disk.pollution;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The run's directory {@code xferbench-pollution-<pid>-<n>} under --dir: the served hot set, the big file and the
 * server's checksum records. Named by owner pid so a run removes what a killed run left (owner dead) and never a live
 * run's.
 */
final class WorkDirectory {
    static final String PREFIX = "xferbench-pollution-";

    private WorkDirectory() {
    }

    static Path create(Path parent) throws IOException {
        removeStale(parent);
        return Files.createTempDirectory(parent, PREFIX + ProcessHandle.current().pid() + "-");
    }

    static void removeStale(Path parent) throws IOException {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path d : dirs) {
                String rest = d.getFileName().toString().substring(PREFIX.length());
                long pid;
                try {
                    pid = Long.parseLong(rest.substring(0, Math.max(0, rest.indexOf('-'))));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    delete(d);
                }
            }
        }
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
