package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens files a server serves to clients. {@code FileChannel.open} blocks forever on a FIFO with no writer and
 * follows a symlink swapped in after a check; this opens with {@code O_NONBLOCK | O_NOFOLLOW}, then refuses
 * anything but a regular file by looking at the descriptor it got (a check of the path first would race a rename).
 * The one {@code statx} that checks the type also reads everything of the file's {@link FileIdentity} but the
 * generation (see {@link OpenRegularFile}).
 */
public final class RegularFiles {
    private static final int AT_FDCWD = -100;
    /** The open(2) flags of every open here; public for an open submitted elsewhere (an io_uring OPENAT) and adopted. */
    public static final int FLAGS = Libc.O_RDONLY | Libc.O_NONBLOCK | Libc.O_NOFOLLOW | Libc.O_CLOEXEC;

    private RegularFiles() {
    }

    /** A symbolic link where a file was to be opened ({@code ELOOP} under {@code O_NOFOLLOW}). */
    public static final class SymbolicLinkException extends AccessDeniedException {
        SymbolicLinkException(String file) {
            super(file, null, "is a symbolic link");
        }
    }

    /**
     * @throws NoSuchFileException   if there is nothing at {@code path}
     * @throws AccessDeniedException if it is not a regular file (FIFO, device, socket, directory), is a symbolic
     *                               link ({@link SymbolicLinkException}), or may not be read
     */
    public static FileChannel openRead(Path path) throws IOException {
        return open(path).channel();
    }

    /** {@link #openRead(Path)}, keeping the statx of the descriptor. */
    public static OpenRegularFile open(Path path) throws IOException {
        return open(AT_FDCWD, Libc.path(path), path.toString());
    }

    /**
     * The entry {@code name} of the directory open as {@code directory}, opened like {@link #openRead(Path)}. One
     * component, looked up in that directory alone: no path walk from the root, and wherever the directory has been
     * renamed or whatever its path now leads to, the file is one of its entries.
     *
     * @throws IllegalArgumentException if {@code name} is empty, {@code .}, {@code ..} or has a {@code /}
     */
    public static OpenRegularFile openIn(FileChannel directory, String name) throws IOException {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a single entry name: '" + name + "'");
        }
        return open(Fds.of(directory), Libc.path(name), name);
    }

    /**
     * The entry {@code name} of the directory reached from {@code dirfd} through {@code directories} ({@link DirectoryWalk}:
     * none followed if a symlink now), opened like {@link #openRead(Path)}: a path checked earlier is opened where it
     * led then, or refused, never through a directory swapped for a symlink since ({@code O_NOFOLLOW} covers only the
     * last component of a path).
     *
     * @throws AccessDeniedException also if a directory on the way is no longer one
     */
    public static OpenRegularFile openBeneath(int dirfd, List<String> directories, String name, String shown) throws IOException {
        DirectoryWalk.checkEntry(name);
        int at = DirectoryWalk.open(dirfd, directories, shown);
        try {
            return open(at, Libc.path(name), shown);
        } finally {
            DirectoryWalk.close(at, dirfd);
        }
    }

    /**
     * A file this process already has open as {@code channel} (one it created, say), described by one {@code statx}
     * of its descriptor as {@link #open} describes what it opens; closing the result closes {@code channel}.
     *
     * @throws AccessDeniedException if it is not a regular file
     */
    public static OpenRegularFile describe(FileChannel channel) throws IOException {
        NativeSupport.check();
        int fd = Fds.of(channel);
        Statx st;
        try {
            st = Statx.of(fd, FileIdentity.MASK);
        } catch (LastErrorException e) {
            throw NativeException.of("statx(fd " + fd + ")", e);
        }
        if (!st.regular()) {
            throw new AccessDeniedException("fd " + fd, null, "not a regular file");
        }
        return new OpenRegularFile(channel, fd, st);
    }

    private static OpenRegularFile open(int dirfd, byte[] path, String shown) throws IOException {
        NativeSupport.check();
        int fd;
        try {
            fd = Libc.openat(dirfd, path, FLAGS, 0);
        } catch (LastErrorException e) {
            throw openFailure(shown, e);
        }
        return adopt(fd, shown);
    }

    private static IOException openFailure(String shown, LastErrorException e) {
        return switch (e.getErrorCode()) {
            case Errno.ENOENT -> new NoSuchFileException(shown);
            case Errno.ELOOP -> new SymbolicLinkException(shown);
            case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
            case Errno.ENXIO -> new AccessDeniedException(shown, null, "not a regular file");
            default -> NativeException.of("open(" + shown + ")", e);
        };
    }

    /**
     * Takes over {@code fd}, a descriptor of {@code shown} opened with {@link #FLAGS} by other means (an io_uring
     * OPENAT): refused unless a regular file, as {@link #openRead(Path)} refuses, and closed on every failure.
     */
    public static OpenRegularFile adopt(int fd, String shown) throws IOException {
        NativeSupport.check();
        try {
            Statx st = Statx.of(fd, FileIdentity.MASK);
            if (!st.regular()) {
                throw new AccessDeniedException(shown, null, "not a regular file");
            }
            return new OpenRegularFile(wrap(fd), fd, st);
        } catch (LastErrorException e) {
            closeQuietly(fd);
            throw NativeException.of("statx(" + shown + ")", e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd);
            throw e;
        }
    }

    /** A JDK channel that owns {@code fd}: closing the channel closes it. */
    private static FileChannel wrap(int fd) {
        FileDescriptor descriptor = Fds.descriptor(fd);
        return new FileInputStream(descriptor).getChannel();
    }

    private static void closeQuietly(int fd) {
        try {
            Libc.close(fd);
        } catch (LastErrorException ignored) {
            // Nothing was handed out; the descriptor is gone either way.
        }
    }
}
