package io.xferbench.core.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;

/**
 * The only directory the server reads and writes. Names are resolved against the real path of the
 * directory and the real path of the result must stay inside it: {@code ..}, absolute paths, NUL bytes,
 * hidden names and symlinks that leave the directory are refused.
 *
 * <p>Generated test files ({@code xferbench-<size>.dat}) are created on demand with deterministic content;
 * their CRC32C is kept in a hidden sidecar ({@code .xferbench-<size>.dat.crc32c}) keyed by size and mtime, so
 * no request re-hashes a file.
 */
public final class DataDirectory {
    /** Seed of generated files: fixed, so the same size always has the same bytes on every machine. */
    public static final long SEED = 0x5EEDF11EL;
    private static final int CHUNK = 1 << 20;

    private final Path root;
    private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();

    public DataDirectory(Path dir) throws IOException {
        Files.createDirectories(dir);
        this.root = dir.toRealPath();
    }

    public Path root() {
        return root;
    }

    public static String generatedName(long size) {
        return "xferbench-" + size + ".dat";
    }

    /** The generated test file of {@code size} bytes, written now if missing. */
    public TestFile generated(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size);
        }
        String name = generatedName(size);
        synchronized (locks.computeIfAbsent(name, k -> new Object())) {
            Path path = root.resolve(name);
            TestFile known = readSidecar(path);
            if (known != null && known.size() == size) {
                return known;
            }
            return write(path, size);
        }
    }

    /** An existing file by client-supplied name, resolved safely, with its CRC32C (computed once, then kept). */
    public TestFile existing(String name) throws IOException {
        Path path = resolveExisting(name);
        synchronized (locks.computeIfAbsent(path.getFileName().toString(), k -> new Object())) {
            TestFile known = readSidecar(path);
            return known != null ? known : hashAndRecord(path);
        }
    }

    /**
     * Resolves a client-supplied name of an existing regular file inside the directory.
     *
     * @throws AccessDeniedException if the name or its real path leaves the directory
     * @throws NoSuchFileException   if there is no such file
     */
    public Path resolveExisting(String name) throws IOException {
        Path candidate = root.resolve(checkName(name));
        Path real;
        try {
            real = candidate.toRealPath();
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "no such file in the data directory");
        }
        if (!real.startsWith(root) || real.equals(root)) {
            throw new AccessDeniedException(name, null, "resolves outside the data directory");
        }
        if (!Files.isRegularFile(real)) {
            throw new AccessDeniedException(name, null, "not a regular file");
        }
        return real;
    }

    /**
     * Resolves a client-supplied name for a file to be created: its parent must exist inside the directory
     * (real path) and the name itself must not be a symlink.
     */
    public Path resolveNew(String name) throws IOException {
        Path candidate = root.resolve(checkName(name));
        Path parent = candidate.getParent().toRealPath();
        if (!parent.startsWith(root)) {
            throw new AccessDeniedException(name, null, "resolves outside the data directory");
        }
        Path target = parent.resolve(candidate.getFileName());
        if (Files.isSymbolicLink(target)) {
            throw new AccessDeniedException(name, null, "is a symbolic link");
        }
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new AccessDeniedException(name, null, "is a directory");
        }
        return target;
    }

    /** Rejects what is never a valid name before touching the file system. */
    private static String checkName(String name) throws AccessDeniedException {
        if (name == null || name.isEmpty()) {
            throw new AccessDeniedException("", null, "empty file name");
        }
        if (name.indexOf('\0') >= 0) {
            throw new AccessDeniedException(name.replace('\0', '?'), null, "NUL byte in file name");
        }
        if (name.startsWith("/") || name.contains("\\")) {
            throw new AccessDeniedException(name, null, "absolute paths and backslashes are not allowed");
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new AccessDeniedException(name, null, "empty, '.' or '..' path segment");
            }
            if (segment.startsWith(".")) {
                throw new AccessDeniedException(name, null, "hidden names are reserved for the server");
            }
        }
        return name;
    }

    private TestFile write(Path path, long size) throws IOException {
        Path tmp = root.resolve(".tmp-" + path.getFileName() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        ContentGenerator generator = new ContentGenerator(SEED);
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long pos = 0; pos < size; ) {
                int n = (int) Math.min(CHUNK, size - pos);
                buf.clear().limit(n);
                generator.fill(buf, pos);
                buf.flip();
                crc.update(buf.duplicate());
                while (buf.hasRemaining()) {
                    pos += out.write(buf, pos);
                }
            }
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        TestFile file = new TestFile(path, size, (int) crc.getValue());
        writeSidecar(file);
        return file;
    }

    private TestFile hashAndRecord(Path path) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
        long size = 0;
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ)) {
            int n;
            while ((n = in.read(buf.clear())) >= 0) {
                crc.update(buf.flip());
                size += n;
            }
        }
        TestFile file = new TestFile(path, size, (int) crc.getValue());
        writeSidecar(file);
        return file;
    }

    private static Path sidecar(Path file) {
        return file.resolveSibling("." + file.getFileName() + ".crc32c");
    }

    /** Sidecar line: {@code <size> <mtime-nanos> <crc32c-hex>}; stale (size or mtime changed) means absent. */
    private static TestFile readSidecar(Path file) throws IOException {
        Path side = sidecar(file);
        if (!Files.exists(file) || !Files.exists(side)) {
            return null;
        }
        String[] parts = Files.readString(side, StandardCharsets.US_ASCII).trim().split(" ");
        BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
        if (parts.length != 3) {
            return null;
        }
        try {
            long size = Long.parseLong(parts[0]);
            long mtime = Long.parseLong(parts[1]);
            if (size != attrs.size() || mtime != mtimeNanos(attrs)) {
                return null;
            }
            return new TestFile(file, size, Integer.parseUnsignedInt(parts[2], 16));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private void writeSidecar(TestFile file) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(file.path(), BasicFileAttributes.class);
        String line = file.size() + " " + mtimeNanos(attrs) + " " + Integer.toHexString(file.crc32c()) + "\n";
        Path side = sidecar(file.path());
        Path tmp = root.resolve(".tmp-" + side.getFileName() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        Files.writeString(tmp, line, StandardCharsets.US_ASCII);
        Files.move(tmp, side, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static long mtimeNanos(BasicFileAttributes attrs) {
        return attrs.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
    }
}
