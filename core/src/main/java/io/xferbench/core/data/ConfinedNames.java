package io.xferbench.core.data;

import io.xferbench.nativeio.EntryStat;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.OpenRegularFile;
import io.xferbench.nativeio.RegularFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a client-supplied name into what it may reach inside the data directory, and nothing else. It owns the
 * directory's real path and a descriptor of the directory held for the server's life: names are checked before any
 * system call ({@code ..}, absolute paths, NUL bytes, hidden names, segments over NAME_MAX, generated names where a new
 * file or a deletion would take one: {@link GeneratedNames}), resolved against the real path, and must stay inside it
 * and off hidden names whatever symlinks say. A name of one component is opened relative to the held descriptor (one
 * lookup, no walk of the directory's path, and confined to the directory whatever happens to its path); a symlink
 * there, or a name of several components, takes the real-path route, whose result is then opened through directories
 * not followed. Every other part of the data directory reaches files through here, so confinement is decided once.
 */
final class ConfinedNames implements AutoCloseable {
    private final Path root;
    /** The directory itself, open: single names are looked up in it (the JDK closes it when this is collected). */
    private final FileChannel rootDir;
    /** The directory's device and inode, to tell when {@link #root} stops leading to {@link #rootDir}. */
    private final Object rootKey;

    /** A client-supplied name opened as a regular file, and the path its record lives beside. */
    record ByName(Path path, OpenRegularFile opened) {
    }

    /** Makes {@code dir} if missing and holds it. */
    ConfinedNames(Path dir) throws IOException {
        Files.createDirectories(dir);
        this.root = dir.toRealPath();
        this.rootDir = FileChannel.open(root, StandardOpenOption.READ);
        this.rootKey = Files.readAttributes(root, BasicFileAttributes.class).fileKey();
    }

    /** Releases the held descriptor; opening files through this afterwards fails. */
    @Override
    public void close() throws IOException {
        rootDir.close();
    }

    Path root() {
        return root;
    }

    /** The descriptor of the directory as opened at start: single entries are looked up in it, wherever it moved. */
    int directoryFd() {
        return Fds.of(rootDir);
    }

    /** Rejects what is never a valid name before touching the file system. */
    static String checkName(String name) throws AccessDeniedException {
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
            // Refused before any system call.
            if (segment.getBytes(StandardCharsets.UTF_8).length > NameMax.BYTES) {
                throw new AccessDeniedException(name, null, "a path segment longer than " + NameMax.BYTES + " bytes (NAME_MAX)");
            }
        }
        return name;
    }

    /** Whether {@code name} is a valid client-supplied name of one entry of the directory (no '/'). */
    static boolean isSingleEntry(String name) {
        try {
            return checkName(name).indexOf('/') < 0;
        } catch (AccessDeniedException e) {
            return false;
        }
    }

    /** The entry {@code entry} of the held directory opened as a regular file (never a FIFO's wait, never a final symlink). */
    OpenRegularFile openIn(String entry) throws IOException {
        return RegularFiles.openIn(rootDir, entry);
    }

    /**
     * A single name is opened in the held directory (openat, no walk of the path); a symlink there or a name with
     * '/' takes the real-path route.
     */
    ByName openByName(String name) throws IOException {
        if (checkName(name).indexOf('/') < 0) {
            try {
                return new ByName(root.resolve(name), RegularFiles.openIn(rootDir, name));
            } catch (NoSuchFileException e) {
                throw new NoSuchFileException(name, null, "no such file in the data directory");
            } catch (RegularFiles.SymbolicLinkException e) {
                // A symlink may still lead inside the directory: the real-path route decides.
            }
        }
        return openResolved(name, resolveExisting(name));
    }

    /**
     * Opens {@code real}, the real path {@code name} was checked by, in its directory reached from the held one through
     * directories not followed ({@link RegularFiles#openBeneath}). By path, a directory on the way swapped for a symlink
     * leading out since was followed, and the file out there served.
     */
    ByName openResolved(String name, Path real) throws IOException {
        return new ByName(real, RegularFiles.openBeneath(directoryFd(), directoriesOf(real.getParent()),
                real.getFileName().toString(), name));
    }

    /**
     * Resolves a client-supplied name of an existing regular file inside the directory.
     *
     * @throws AccessDeniedException if the name or its real path leaves the directory
     * @throws NoSuchFileException   if there is no such file
     */
    Path resolveExisting(String name) throws IOException {
        Path real = realPathOf(name);
        regularEntry(name, real);
        return real;
    }

    /** The real path of an existing name, inside the directory and not hidden; of any type. */
    Path realPathOf(String name) throws IOException {
        Path candidate = root.resolve(checkName(name));
        Path real;
        try {
            real = candidate.toRealPath();
        } catch (NoSuchFileException e) {
            // Absent, unless what exists of the name leaves the directory: out there, absence is not told apart.
            IOException why = ResolutionFailure.ofName(root, name);
            throw why != null ? why : new NoSuchFileException(name, null, "no such file in the data directory");
        } catch (AccessDeniedException e) {
            throw e;
        } catch (FileSystemException e) {
            // ENOTDIR: which component is not a directory, or that the name leads out (a symlink to a file outside).
            IOException why = ResolutionFailure.ofName(root, name);
            throw why != null ? why : e;
        }
        if (!real.startsWith(root) || real.equals(root)) {
            throw new AccessDeniedException(name, null, "resolves outside the data directory");
        }
        if (reserved(real)) {
            throw new AccessDeniedException(name, null, "resolves to a hidden name, reserved for the server");
        }
        return real;
    }

    /**
     * What is at {@code real} (a {@link #realPathOf} result) now, which must be a regular file: one statx of the entry,
     * without following it, in its directory reached from the held one through directories not followed either. A
     * second look by path went through a directory swapped for a symlink since, and told a file outside.
     *
     * @throws NoSuchFileException   if it is gone (deleted since the real path was taken)
     * @throws AccessDeniedException if it is not a regular file, or a directory on the way is no longer one
     */
    EntryStat regularEntry(String name, Path real) throws IOException {
        EntryStat st;
        try {
            st = EntryStat.beneath(directoryFd(), directoriesOf(real.getParent()), real.getFileName().toString(), name);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "no such file in the data directory");
        }
        if (!st.regular()) {
            throw new AccessDeniedException(name, null, "not a regular file");
        }
        return st;
    }

    /**
     * Resolves a client-supplied name for a file to be created: its parent must be a directory inside the directory
     * (real path) and the name itself must be neither a symlink nor a directory, nor a generated file's name in the
     * directory itself. A single name's parent is the held directory, where its temp file, rename and record go by
     * descriptor ({@link UploadLanding}): one statx of the name there, no {@code readlink} per component of
     * {@code toRealPath} and no look at where the directory's path leads.
     */
    Path resolveNew(String name) throws IOException {
        if (checkName(name).indexOf('/') < 0) {
            return newSingleEntry(name);
        }
        Path candidate = root.resolve(name);
        Path parent;
        try {
            parent = candidate.getParent().toRealPath();
        } catch (AccessDeniedException e) {
            throw e;
        } catch (FileSystemException e) {
            // Absent or ENOTDIR somewhere up: told in the client's terms where a component explains it.
            IOException why = ResolutionFailure.ofParent(root, name);
            throw why != null ? why : e;
        }
        if (!parent.startsWith(root)) {
            throw new AccessDeniedException(name, null, "resolves outside the data directory");
        }
        if (reserved(parent)) {
            throw new AccessDeniedException(name, null, "resolves to a hidden name, reserved for the server");
        }
        if (parent.equals(root)) {
            GeneratedNames.refuse(name, candidate.getFileName().toString());
        }
        Path target = parent.resolve(candidate.getFileName());
        // One lstat for both refusals (Files.isSymbolicLink and isDirectory would take one each).
        BasicFileAttributes there;
        try {
            there = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            checkParentIsDirectory(name, target.getParent());
            return target;
        }
        if (there.isSymbolicLink()) {
            throw new AccessDeniedException(name, null, "is a symbolic link");
        }
        if (there.isDirectory()) {
            throw new AccessDeniedException(name, null, "is a directory");
        }
        return target;
    }

    /** {@link #resolveNew} of a single name: one statx of it in the held directory. */
    private Path newSingleEntry(String name) throws IOException {
        GeneratedNames.refuse(name, name);
        EntryStat there;
        try {
            there = EntryStat.beneath(directoryFd(), List.of(), name, name);
        } catch (NoSuchFileException e) {
            return root.resolve(name);
        }
        if (there.symbolicLink()) {
            throw new AccessDeniedException(name, null, "is a symbolic link");
        }
        if (there.directory()) {
            throw new AccessDeniedException(name, null, "is a directory");
        }
        return root.resolve(name);
    }

    /**
     * The JDK reports the lstat of {@code base/x} under a regular file {@code base} (ENOTDIR) as absence, and the
     * upload then failed at its temp file, whose name it told ({@code base/.tmp-…: Not a directory}). Refused here
     * instead, naming what the client asked; a FileSystemException, as STAT and DELETE get for that path. The
     * directory itself is one (checked as unmoved); only a new target in a subdirectory costs this stat.
     */
    private void checkParentIsDirectory(String name, Path parent) throws IOException {
        if (parent.equals(root)) {
            return;
        }
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(parent, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "its directory is gone");
        }
        if (!a.isDirectory()) {
            throw new FileSystemException(name, null, name.substring(0, name.lastIndexOf('/')) + " is not a directory");
        }
    }

    /**
     * Single names are opened in {@link #rootDir}, but records and generated files are read and written by path: before
     * that, the path must still lead to the directory opened (one statx, on a cache miss only), or a record could be
     * read from or written to wherever the path was redirected.
     */
    void checkRootUnmoved() throws IOException {
        Object now;
        try {
            now = Files.readAttributes(root, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            now = null;
        }
        if (!rootKey.equals(now)) {
            throw new AccessDeniedException(root.toString(), null, "the data directory's path no longer leads to the directory the server opened");
        }
    }

    /**
     * Whether a real path inside the directory passes through a hidden name (a symlink can lead there although no
     * client may name it): the uploads' temp directory, checksum records.
     */
    boolean reserved(Path real) {
        for (Path part : root.relativize(real)) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** The components of {@code dir}, a real path inside the directory (or the directory), below the directory. */
    List<String> directoriesOf(Path dir) {
        List<String> names = new ArrayList<>(dir.getNameCount());
        for (Path part : root.relativize(dir)) {
            if (!part.toString().isEmpty()) {
                names.add(part.toString());
            }
        }
        return names;
    }

    /** {@code path}, inside the directory, as the client names it. */
    String shown(Path path) {
        return root.relativize(path).toString();
    }
}
