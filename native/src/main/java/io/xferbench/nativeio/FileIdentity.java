package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.nio.channels.FileChannel;

/**
 * What says an open file is the one a checksum was computed from, read from the descriptor itself
 * ({@code statx(fd, "", AT_EMPTY_PATH)}), never from a path that a rename may have pointed elsewhere in between:
 * device and inode; the inode's generation ({@code FS_IOC_GETVERSION}: file systems draw a new one for every inode
 * they create, so a freed inode number reused for a new file does not look like the old one; 0 where the file
 * system has none); size; mtime; and ctime, which no user can set (changing mtime or renaming sets it to now).
 */
public record FileIdentity(int devMajor, int devMinor, long inode, long generation, long size, long mtimeNanos,
                           long ctimeNanos) {
    /** What one statx of the descriptor must ask for: the type (a regular file?) and every field but the generation. */
    static final int MASK = Libc.STATX_TYPE | Libc.STATX_MODE | Libc.STATX_INO | Libc.STATX_SIZE
            | Libc.STATX_MTIME | Libc.STATX_CTIME;

    public static FileIdentity of(FileChannel channel) throws NativeException {
        return of(Fds.of(channel));
    }

    public static FileIdentity of(int fd) throws NativeException {
        NativeSupport.check();
        try {
            return of(fd, Statx.of(fd, MASK));
        } catch (LastErrorException e) {
            throw NativeException.of("statx(fd " + fd + ")", e);
        }
    }

    /** The identity of {@code fd} from a statx of it already taken with {@link #MASK}, plus its generation. */
    static FileIdentity of(int fd, Statx st) {
        return new FileIdentity(st.devMajor(), st.devMinor(), st.inode(), generation(fd, st), st.size(), st.mtimeNanos(),
                st.ctimeNanos());
    }

    /** Whether {@code st} (a statx taken with {@link #MASK}) shows this identity in everything but the generation. */
    boolean matchesExceptGeneration(Statx st) {
        return devMajor == st.devMajor() && devMinor == st.devMinor() && inode == st.inode() && size == st.size()
                && mtimeNanos == st.mtimeNanos() && ctimeNanos == st.ctimeNanos();
    }

    /**
     * The inode's generation, or 0 where the file system has none (tmpfs answers ENOTTY). Such a device is
     * remembered: a failed ioctl through JNA costs two exceptions, and an upload to tmpfs asked on every identity.
     */
    static long generation(int fd, Statx st) {
        long device = ((long) st.devMajor() << 32) | (st.devMinor() & 0xffffffffL);
        if (NO_GENERATION.contains(device)) {
            return 0;
        }
        int[] version = new int[2];
        try {
            Libc.ioctl(fd, Libc.FS_IOC_GETVERSION, version);
            return Integer.toUnsignedLong(version[0]);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == Errno.ENOTTY || e.getErrorCode() == Errno.EOPNOTSUPP) {
                NO_GENERATION.add(device);
            }
            return 0;
        }
    }

    /** Devices (major << 32 | minor) whose file system answered that it has no generation ioctl. */
    private static final Set<Long> NO_GENERATION = ConcurrentHashMap.newKeySet();

    /** Whether the device of this identity is known to have no generation (for tests). */
    static boolean deviceWithoutGeneration(FileIdentity id) {
        return NO_GENERATION.contains(((long) id.devMajor() << 32) | (id.devMinor() & 0xffffffffL));
    }

    /** The same inode (device, number, generation), whatever happened to its size, times or names since. */
    public boolean sameInode(FileIdentity other) {
        return devMajor == other.devMajor && devMinor == other.devMinor && inode == other.inode && generation == other.generation;
    }

    /** The record's text form: {@code major:minor inode generation size mtime-nanos ctime-nanos}. */
    public String encode() {
        return devMajor + ":" + devMinor + " " + inode + " " + generation + " " + size + " " + mtimeNanos + " " + ctimeNanos;
    }

    /** @throws IllegalArgumentException when {@code text} is not what {@link #encode()} writes */
    public static FileIdentity decode(String text) {
        String[] f = text.trim().split(" ");
        String[] dev = f.length == 6 ? f[0].split(":") : new String[0];
        if (dev.length != 2) {
            throw new IllegalArgumentException("not a file identity: " + text);
        }
        return new FileIdentity(Integer.parseInt(dev[0]), Integer.parseInt(dev[1]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]));
    }
}
