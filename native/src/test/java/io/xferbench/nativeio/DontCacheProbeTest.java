package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DontCacheProbeTest {
    @TempDir
    Path dir;

    @Test
    void theKernelHasTheFlagFromLinux614On() {
        assertThat(DontCacheProbe.kernelReason("6.13.12-200.fc41.x86_64"))
                .isEqualTo("kernel 6.13.12-200.fc41.x86_64 predates RWF_DONTCACHE (Linux 6.14)");
        assertThat(DontCacheProbe.kernelReason("5.15.0-91-generic")).startsWith("kernel 5.15.0-91-generic predates");
        assertThat(DontCacheProbe.kernelReason("6.14.0")).isNull();
        assertThat(DontCacheProbe.kernelReason("6.18.44-fc-v1300")).isNull();
        assertThat(DontCacheProbe.kernelReason("7.0.1")).isNull();
        assertThat(DontCacheProbe.kernelReason("weird")).as("unparsable: the probe read decides").isNull();
    }

    /** EOPNOTSUPP means an old kernel or a file system that has not opted in: the release tells which. */
    @Test
    void theReasonNamesTheKernelOrTheFileSystem() {
        assertThat(DontCacheProbe.reason(Errno.EOPNOTSUPP, "6.8.0-49-generic", "ext4 (f_type 0xef53)"))
                .isEqualTo("kernel 6.8.0-49-generic predates RWF_DONTCACHE (Linux 6.14) (preadv2 with RWF_DONTCACHE: EOPNOTSUPP)");
        assertThat(DontCacheProbe.reason(Errno.EOPNOTSUPP, "6.18.44", "tmpfs (f_type 0x1021994)"))
                .isEqualTo("file system tmpfs (f_type 0x1021994) does not support RWF_DONTCACHE (preadv2 with RWF_DONTCACHE: EOPNOTSUPP)");
        assertThat(DontCacheProbe.reason(Errno.EINVAL, "6.18.44", "xfs (f_type 0x58465342)"))
                .isEqualTo("kernel 6.18.44 refused RWF_DONTCACHE on file system xfs (f_type 0x58465342) (preadv2 with RWF_DONTCACHE: EINVAL)");
    }

    /** Whatever the probe says of a file, a dontcache read of it agrees: it works, or fails with the errno the probe read. */
    @Test
    void theProbeAgreesWithARealReadHereAndOnTmpfs() throws Exception {
        assertAgrees(TestData.file(dir.resolve("f"), 5000, 1));
        Path shm = Path.of("/dev/shm");
        NativeAssumptions.assumeAvailable("/dev/shm", Files.isDirectory(shm) && Files.isWritable(shm), "no writable /dev/shm");
        Path onShm = Files.createTempFile(shm, "xferbench-dontcache", ".bin");
        try {
            Files.write(onShm, new byte[5000]);
            String reason = assertAgrees(onShm);
            if (reason != null && DontCacheProbe.kernelUnsupportedReason() == null) {
                assertThat(reason).startsWith("file system tmpfs").endsWith("(preadv2 with RWF_DONTCACHE: EOPNOTSUPP)");
            }
        } finally {
            Files.delete(onShm);
        }
    }

    /**
     * The probe reads at the file's end: it fetches nothing of an evicted file from the device (this thread's
     * read_bytes, which counts what its reads made the block layer fetch, stays put), not even the first page.
     */
    @Test
    void theProbeReadsNothing() throws Exception {
        Path file = TestData.file(dir.resolve("f"), 1 << 20, 2);
        PageCache.evict(file);
        long before = threadReadBytes();
        DontCacheProbe.unsupportedReason(file);
        assertThat(threadReadBytes() - before).isZero();
        assertThat(PageCache.residency(file).residentPages()).isZero();
        // The counter does count a read of the same evicted file, so the zero above means something.
        Preadv2Test.Fd fd = Preadv2Test.Fd.open(file);
        try (fd) {
            Preadv2.read(fd.fd(), ByteBuffer.allocateDirect(1), 0, 0);
        }
        assertThat(threadReadBytes() - before).isPositive();
        Path empty = Files.createFile(dir.resolve("empty"));
        assertThat(DontCacheProbe.unsupportedReason(empty)).isEqualTo(DontCacheProbe.unsupportedReason(file));
    }

    /** A download's check must not probe (nor allocate) per file: one probe read per file system, then its verdict. */
    @Test
    void eachFileSystemIsProbedOnce() throws Exception {
        Path first = TestData.file(dir.resolve("a"), 5000, 3);
        Path second = TestData.file(dir.resolve("b"), 7000, 4);
        String verdict = DontCacheProbe.unsupportedReason(first);
        long probes = DontCacheProbe.probes();
        for (int i = 0; i < 5; i++) {
            assertThat(DontCacheProbe.unsupportedReason(second)).isEqualTo(verdict);
            assertThat(DontCacheProbe.unsupportedReason(first)).isEqualTo(verdict);
        }
        assertThat(DontCacheProbe.probes()).as("probe reads after the first of this file system").isEqualTo(probes);
    }

    @Test
    void aMissingFileIsAnErrorNotAReason() {
        assertThatThrownBy(() -> DontCacheProbe.unsupportedReason(dir.resolve("missing")))
                .isInstanceOfSatisfying(NativeException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT));
    }

    /** read_bytes of /proc/thread-self/io: bytes this thread caused to be fetched from storage. */
    private static long threadReadBytes() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/io"))) {
            if (line.startsWith("read_bytes: ")) {
                return Long.parseLong(line.substring("read_bytes: ".length()).trim());
            }
        }
        throw new AssertionError("no read_bytes in /proc/thread-self/io");
    }

    private static String assertAgrees(Path file) throws Exception {
        String reason = DontCacheProbe.unsupportedReason(file);
        try (Preadv2Test.Fd fd = Preadv2Test.Fd.open(file)) {
            ByteBuffer dst = ByteBuffer.allocateDirect(8192);
            if (reason == null) {
                assertThat(Preadv2.read(fd.fd(), dst, 0, Preadv2.RWF_DONTCACHE)).as(file.toString()).isEqualTo(Files.size(file));
            } else {
                assertThatThrownBy(() -> Preadv2.read(fd.fd(), dst, 0, Preadv2.RWF_DONTCACHE)).as(file + ": " + reason)
                        .isInstanceOfSatisfying(NativeException.class, e -> assertThat(reason).contains(e.errnoName()));
            }
        }
        return reason;
    }
}
