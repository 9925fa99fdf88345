package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;

/**
 * What a {@code statx(2)} of a directory entry says of its type, size and modification time, for a statx submitted
 * by other means (an io_uring {@code STATX} with {@link #MASK} and {@link #FLAGS}) into a buffer of {@link #BYTES}.
 * A symlink is described, not followed. {@link #beneath} makes that statx itself.
 */
public record EntryStat(int mode, long size, long mtimeNanos) {
    /** Size of the {@code struct statx} the kernel fills. */
    public static final int BYTES = Libc.STATX_BYTES;
    /** The fields asked for: type, size, mtime. */
    public static final int MASK = Libc.STATX_TYPE | Libc.STATX_SIZE | Libc.STATX_MTIME;
    /** Describe a symlink itself, as a path check must. */
    public static final int FLAGS = Libc.AT_SYMLINK_NOFOLLOW;

    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFLNK = 0120000;

    /** The fields of the {@code struct statx} at {@code statx}'s position (its byte order is the machine's). */
    public static EntryStat parse(ByteBuffer statx) {
        ByteBuffer b = statx.duplicate().order(ByteOrder.nativeOrder());
        int at = statx.position();
        long mtime = b.getLong(at + Libc.STATX_MTIME_OFFSET) * 1_000_000_000L
                + Integer.toUnsignedLong(b.getInt(at + Libc.STATX_MTIME_OFFSET + 8));
        return new EntryStat(Short.toUnsignedInt(b.getShort(at + Libc.STATX_MODE_OFFSET)),
                b.getLong(at + Libc.STATX_SIZE_OFFSET), mtime);
    }

    /**
     * The entry {@code name} of the directory reached from {@code dirfd} through {@code directories}
     * ({@link DirectoryWalk}: none followed if a symlink now), by one {@code statx} with {@link #FLAGS}: what is at
     * that name now, wherever a path checked earlier leads by now.
     *
     * @param shown how failures name the entry
     * @throws NoSuchFileException   if it, or a directory on the way, is gone
     * @throws AccessDeniedException if a directory on the way is no longer one, or may not be searched
     */
    public static EntryStat beneath(int dirfd, List<String> directories, String name, String shown) throws IOException {
        DirectoryWalk.checkEntry(name);
        int at = DirectoryWalk.open(dirfd, directories, shown);
        try {
            ByteBuffer raw = ByteBuffer.allocate(BYTES);
            Libc.statx(at, Libc.path(name), FLAGS, MASK, raw.array());
            return parse(raw);
        } catch (LastErrorException e) {
            throw switch (e.getErrorCode()) {
                case Errno.ENOENT -> new NoSuchFileException(shown);
                case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
                default -> DirectoryWalk.failure(shown, e.getErrorCode());
            };
        } finally {
            DirectoryWalk.close(at, dirfd);
        }
    }

    public boolean regular() {
        return (mode & S_IFMT) == S_IFREG;
    }

    public boolean directory() {
        return (mode & S_IFMT) == S_IFDIR;
    }

    public boolean symbolicLink() {
        return (mode & S_IFMT) == S_IFLNK;
    }
}
