package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether {@link Preadv2#RWF_DONTCACHE} reads work here, and if not, why. The kernel answers EOPNOTSUPP both when it
 * predates the flag (Linux 6.14: any unknown RWF bit is EOPNOTSUPP) and when the file's file system has not opted in
 * (tmpfs, say, on 6.18), so the errno alone cannot tell the two apart; the kernel's release does. A file is probed with
 * one preadv2 of one byte at its end: the kernel checks the flags before it looks at the offset, so the probe reads
 * nothing, starts no read-ahead and leaves the page cache as it was. The verdict is kept per device (st_dev), so a
 * download's check costs one statx after the first file of its file system.
 */
public final class DontCacheProbe {
    static final int SINCE_MAJOR = 6;
    static final int SINCE_MINOR = 14;
    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");
    /** The flag is a file system's to support: one verdict per mounted device (st_dev), probed once. */
    private static final Map<Long, Verdict> VERDICTS = new ConcurrentHashMap<>();
    private static final ByteBuffer PROBE_BYTE = ByteBuffer.allocateDirect(1);
    private static final AtomicLong probes = new AtomicLong();

    /** A file system's answer: null when it takes the flag. */
    private record Verdict(String reason) {
    }

    private DontCacheProbe() {
    }

    /** Null when this kernel has RWF_DONTCACHE (by its release) and the shim runs, else why not. */
    public static String kernelUnsupportedReason() {
        String shim = NativeSupport.unavailableReason();
        return shim != null ? shim : kernelReason(System.getProperty("os.version", ""));
    }

    /** Null when a kernel of this release ({@code uname -r}) has RWF_DONTCACHE, else why not. */
    static String kernelReason(String release) {
        Matcher m = RELEASE.matcher(release);
        if (!m.find()) {
            return null; // unparsable: let the probe read answer
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        boolean has = major > SINCE_MAJOR || major == SINCE_MAJOR && minor >= SINCE_MINOR;
        return has ? null : "kernel " + release + " predates RWF_DONTCACHE (Linux " + SINCE_MAJOR + "." + SINCE_MINOR + ")";
    }

    /**
     * Null when a RWF_DONTCACHE read of {@code file} works, else why not: the shim, the kernel, or the file system.
     *
     * @throws NativeException when the file cannot be opened, or the probe fails for another reason than the flag
     */
    public static String unsupportedReason(Path file) throws NativeException {
        String shim = NativeSupport.unavailableReason();
        if (shim != null) {
            return shim;
        }
        int fd;
        try {
            fd = Libc.open(Libc.path(file), Libc.O_RDONLY | Libc.O_CLOEXEC, 0);
        } catch (LastErrorException e) {
            throw NativeException.of("open(" + file + ", O_RDONLY)", e);
        }
        try {
            return unsupportedReason(fd, Statx.of(fd, Libc.STATX_SIZE).size(), file);
        } catch (LastErrorException e) {
            throw NativeException.of("statx(" + file + ", STATX_SIZE)", e);
        } finally {
            try {
                Libc.close(fd);
            } catch (LastErrorException ignored) {
                // read-only: a failed close loses nothing
            }
        }
    }

    /**
     * The same for a file already open for reading as {@code fd}, {@code size} bytes long (the probe reads at that
     * offset); {@code shown} names it, and its file system, in the reason.
     */
    public static String unsupportedReason(int fd, long size, Path shown) throws NativeException {
        String shim = NativeSupport.unavailableReason();
        if (shim != null) {
            return shim;
        }
        long device;
        try {
            Statx st = Statx.of(fd, 0);
            device = (long) st.devMajor() << 32 | Integer.toUnsignedLong(st.devMinor());
        } catch (LastErrorException e) {
            throw NativeException.of("statx(" + shown + ")", e);
        }
        Verdict known = VERDICTS.get(device);
        if (known != null) {
            return known.reason();
        }
        String reason;
        try {
            probes.incrementAndGet();
            // duplicate(): one shared byte of direct memory, its position private to this call
            Preadv2.read(fd, PROBE_BYTE.duplicate(), size, Preadv2.RWF_DONTCACHE);
            reason = null;
        } catch (NativeException e) {
            if (e.errno() != Errno.EOPNOTSUPP && e.errno() != Errno.EINVAL) {
                throw e;
            }
            reason = reason(e.errno(), System.getProperty("os.version", ""), FileSystemType.of(shown));
        }
        VERDICTS.putIfAbsent(device, new Verdict(reason));
        return reason;
    }

    /** Probe reads made so far in this JVM (the rest answered from a file system's cached verdict). */
    static long probes() {
        return probes.get();
    }

    /** Why a probe read failed with {@code errno}, on a kernel of {@code release}, of a file on {@code fileSystem}. */
    static String reason(int errno, String release, String fileSystem) {
        String call = "preadv2 with RWF_DONTCACHE: " + Errno.name(errno);
        String kernel = kernelReason(release);
        if (kernel != null) {
            return kernel + " (" + call + ")";
        }
        if (errno == Errno.EOPNOTSUPP) {
            return "file system " + fileSystem + " does not support RWF_DONTCACHE (" + call + ")";
        }
        return "kernel " + release + " refused RWF_DONTCACHE on file system " + fileSystem + " (" + call + ")";
    }
}
