package io.xferbench.nativeio.uring;

import com.sun.jna.LastErrorException;
import io.xferbench.nativeio.AlignedBuffers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much memory this process may pin for registered buffers: without CAP_IPC_LOCK the kernel counts their pages
 * against RLIMIT_MEMLOCK and refuses IORING_REGISTER_BUFFERS with ENOMEM past it. Knowing that before a ring is set up
 * turns what would be a failure mid-run into a skip with the reason.
 *
 * @param ipcLock      whether the process has CAP_IPC_LOCK in its effective set (then no limit applies)
 * @param memlockLimit RLIMIT_MEMLOCK's soft limit in bytes, {@link #UNLIMITED} when none
 */
public record PinnedMemory(boolean ipcLock, long memlockLimit) {
    public static final long UNLIMITED = -1L;
    private static final int CAP_IPC_LOCK = 14;

    /** This process's capability and limit, read now (CapEff from /proc/self/status; getrlimit). */
    public static PinnedMemory here() {
        long[] limit = new long[2];
        long soft;
        try {
            UringCalls.getrlimit(UringCalls.RLIMIT_MEMLOCK, limit);
            soft = limit[0];
        } catch (LastErrorException | UnsatisfiedLinkError e) {
            soft = UNLIMITED; // unknown: let the kernel decide, its ENOMEM still says why
        }
        return new PinnedMemory(hasIpcLock(), soft);
    }

    /** Bytes {@code count} buffers of {@code bytes} each pin: whole pages each. */
    public static long pinnedBytes(int count, long bytes) {
        long page = AlignedBuffers.pageSize();
        return count * ((bytes + page - 1) / page * page);
    }

    /** Null when {@code count} buffers of {@code bytes} each can be registered here, else why not. */
    public String refusal(int count, long bytes) {
        long need = pinnedBytes(count, bytes);
        if (ipcLock || memlockLimit == UNLIMITED || need <= memlockLimit) {
            return null;
        }
        return "registering " + count + " buffers of " + bytes + " bytes pins " + need + " bytes, more than RLIMIT_MEMLOCK "
                + memlockLimit + " bytes (ulimit -l " + memlockLimit / 1024 + ") without CAP_IPC_LOCK";
    }

    private static boolean hasIpcLock() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    long caps = Long.parseUnsignedLong(line.substring("CapEff:".length()).trim(), 16);
                    return (caps & (1L << CAP_IPC_LOCK)) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // unknown: assume the limit applies, the stricter answer
        }
        return false;
    }
}
