package io.xferbench.nativeio.uring;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/** What the ring tests share: the probe's skips, pseudo-random content, CRC32C, and the process's open descriptors. */
final class UringTesting {
    private UringTesting() {
    }

    static void assumeRing() {
        NativeAssumptions.assumeAvailable("io_uring", UringProbe.here().ring() == null, UringProbe.here().ring());
    }

    static byte[] bytes(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    static long crc32c(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data);
        return crc.getValue();
    }

    /** Copies a completed block into {@code into} at its file offset (minus {@code base}). */
    static void place(byte[] into, long base, long offset, ByteBuffer data) {
        data.get(0, into, (int) (offset - base), data.remaining());
    }

    static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /** Threads of this process named as the kernel names SQPOLL threads ("iou-sqp-PID"). */
    static long sqPollThreads() throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).startsWith("iou-sqp");
                } catch (IOException e) {
                    return false; // the thread has exited
                }
            }).count();
        }
    }
}
