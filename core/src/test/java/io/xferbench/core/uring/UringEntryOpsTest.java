package io.xferbench.core.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.IoEventLoop;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.Errno;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens and stats on an io_uring ring: the descriptor names the entry asked for (its bytes are read back), absence
 * and a symlink come back as the errno a plain openat with the same flags gives, a FIFO opens without blocking and is
 * then refused as not a regular file, and a remembered checksum record is matched against the descriptor; a stat
 * answers STAT as {@link DataDirectory#stat} does for a regular file and absence, and leaves symlinks and other types
 * to it.
 */
@Timeout(60)
class UringEntryOpsTest {
    @TempDir
    Path dir;

    private IoEventLoop loop;
    private UringEntryOps opener;
    private DataDirectory data;

    @BeforeEach
    void ring() throws Exception {
        MethodAssumptions.assumeAvailable("io_uring", NettyTransport.IO_URING.availability());
        loop = NettyTransport.IO_URING.ioLoop();
        opener = UringEntryOps.register(loop, 2);
        data = new DataDirectory(dir);
    }

    /** The open's result: a descriptor or a negated errno. */
    private int open(String name) throws Exception {
        CompletableFuture<Integer> result = new CompletableFuture<>();
        loop.execute(() -> {
            if (!opener.open(data.directoryFd(), name, result::complete)) {
                result.completeExceptionally(new AssertionError("open of " + name + " not submitted"));
            }
        });
        return result.get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void deregister() {
        if (opener != null) {
            opener.deregister();
        }
    }

    /** Whether this process's descriptor {@code fd} is open on {@code file}. */
    private static boolean names(int fd, Path file) throws Exception {
        Path link = Path.of("/proc/self/fd/" + fd);
        return Files.exists(link, LinkOption.NOFOLLOW_LINKS) && Files.readSymbolicLink(link).equals(file.toRealPath());
    }

    @Test
    void aRecordedFileComesBackWithItsChecksumAndItsBytes() throws Exception {
        TestFile generated = data.generated(10_000);
        String name = generated.path().getFileName().toString();
        int fd = open(name);
        assertThat(fd).isNotNegative();
        try (OpenedFile file = data.adoptIfRemembered(name, fd, -1)) {
            assertThat(file).isNotNull();
            assertThat(file.size()).isEqualTo(10_000);
            assertThat(file.crc32c()).isEqualTo(generated.crc32c());
            ByteBuffer bytes = ByteBuffer.allocate(10_000);
            while (bytes.hasRemaining() && file.channel().read(bytes, bytes.position()) > 0) {
                // short reads
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes.flip());
            assertThat((int) crc.getValue()).isEqualTo(generated.crc32c());
        }
        assertThat(opener.submitted()).isEqualTo(1);
    }

    @Test
    void aFileWithoutARememberedRecordOrOfAnotherSizeIsNullAndItsDescriptorClosed() throws Exception {
        Files.write(dir.resolve("plain"), new byte[] {1, 2, 3});
        int fd = open("plain");
        assertThat(data.adoptIfRemembered("plain", fd, -1)).isNull();
        assertThat(names(fd, dir.resolve("plain"))).as("descriptor closed").isFalse();

        String generated = data.generated(4_096).path().getFileName().toString();
        int other = open(generated);
        assertThat(data.adoptIfRemembered(generated, other, 4_097)).isNull();
        assertThat(names(other, dir.resolve(generated))).as("descriptor closed").isFalse();
    }

    @Test
    void absenceAndSymlinksAreTheErrnoOfAPlainOpen() throws Exception {
        assertThat(open("missing")).isEqualTo(-Errno.ENOENT);
        Files.write(dir.resolve("target"), new byte[] {1});
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("target"));
        assertThat(open("link")).isEqualTo(-Errno.ELOOP);
    }

    @Test
    void aFifoOpensWithoutBlockingAndIsRefused() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();
        int fd = open("fifo");
        assertThat(fd).isNotNegative();
        assertThatThrownBy(() -> data.adoptIfRemembered("fifo", fd, -1)).isInstanceOf(AccessDeniedException.class);
        assertThat(names(fd, fifo)).as("descriptor closed").isFalse();
    }

    /** The stat's result: the errno and what it says, as STAT would answer it (null: only the real-path route can). */
    private FileStat stat(String name) throws Exception {
        CompletableFuture<FileStat> result = new CompletableFuture<>();
        loop.execute(() -> {
            if (!opener.stat(data.directoryFd(), name, (res, st) -> result.complete(DataDirectory.statOfEntry(res, st)))) {
                result.completeExceptionally(new AssertionError("stat of " + name + " not submitted"));
            }
        });
        return result.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aStatOnTheRingAnswersAsTheDataDirectoryDoesOrLeavesItToIt() throws Exception {
        String generated = data.generated(12_345).path().getFileName().toString();
        assertThat(stat(generated)).isEqualTo(data.stat(generated)).isEqualTo(new FileStat(true, 12_345,
                Files.getLastModifiedTime(dir.resolve(generated)).to(TimeUnit.NANOSECONDS)));
        assertThat(stat("missing")).isEqualTo(FileStat.ABSENT).isEqualTo(data.stat("missing"));
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve(generated));
        assertThat(stat("link")).as("a symlink is left to the real-path rules").isNull();
        Files.createDirectory(dir.resolve("sub"));
        assertThat(stat("sub")).as("a directory is left to be refused").isNull();
    }

    @Test
    void withEverySlotTakenOrANameTooLongNothingIsSubmitted() throws Exception {
        CompletableFuture<boolean[]> submitted = new CompletableFuture<>();
        CompletableFuture<Integer> first = new CompletableFuture<>();
        CompletableFuture<Integer> second = new CompletableFuture<>();
        loop.execute(() -> submitted.complete(new boolean[] {
                opener.open(data.directoryFd(), "a", first::complete),
                opener.open(data.directoryFd(), "b", second::complete),
                opener.open(data.directoryFd(), "c", fd -> { }),
                opener.open(data.directoryFd(), "x".repeat(UringEntryOps.NAME_BYTES), fd -> { })}));
        assertThat(submitted.get(10, TimeUnit.SECONDS)).containsExactly(true, true, false, false);
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(-Errno.ENOENT);
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(-Errno.ENOENT);
        // Both slots are free again.
        assertThat(open("missing")).isEqualTo(-Errno.ENOENT);
    }
}
