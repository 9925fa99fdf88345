package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checksum record describes exactly the bytes it was computed from, whatever happens to the name. */
class ChecksumRecordTest {
    @TempDir
    Path dir;

    private static int crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return (int) c.getValue();
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static int crcOfChannel(OpenedFile f) throws Exception {
        ByteBuffer b = ByteBuffer.allocate((int) f.size());
        while (b.hasRemaining() && f.channel().read(b, b.position()) >= 0) {
            // read on
        }
        CRC32C c = new CRC32C();
        c.update(b.flip());
        return (int) c.getValue();
    }

    /**
     * The old record was keyed by size and mtime read from the path: a file renamed over the name with the same size
     * and mtime (an upload in the same clock tick, or this deliberate copy of the mtime) inherited the old checksum.
     */
    @Test
    void aFileRenamedOverTheNameWithTheSameSizeAndMtimeIsNotGivenTheOldChecksum() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        byte[] a = random(100_000, 1);
        byte[] b = random(100_000, 2);
        Files.write(dir.resolve("f.bin"), a);
        assertThat(data.existing("f.bin").crc32c()).isEqualTo(crc(a));

        FileTime mtime = Files.getLastModifiedTime(dir.resolve("f.bin"));
        Path staged = Files.write(dir.resolve("staged.bin"), b);
        Files.setLastModifiedTime(staged, mtime);
        Files.move(staged, dir.resolve("f.bin"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        assertThat(data.existing("f.bin").crc32c()).isEqualTo(crc(b));
    }

    @Test
    void anOpenedFileKeepsItsBytesAndChecksumWhenTheNameMovesOn() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        byte[] a = random(70_000, 3);
        byte[] b = random(70_000, 4);
        Files.write(dir.resolve("g.bin"), a);
        try (OpenedFile held = data.openExisting("g.bin")) {
            Path staged = Files.write(dir.resolve("staged.bin"), b);
            Files.move(staged, dir.resolve("g.bin"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (OpenedFile now = data.openExisting("g.bin")) {
                assertThat(now.crc32c()).isEqualTo(crc(b)).isEqualTo(crcOfChannel(now));
            }
            assertThat(held.crc32c()).isEqualTo(crc(a)).isEqualTo(crcOfChannel(held));
            // The reopen path is the held file, not the name.
            assertThat(Files.readAllBytes(Path.of("/proc/self/fd", Integer.toString(io.xferbench.nativeio.Fds.of(held.channel())))))
                    .isEqualTo(a);
        }
    }

    @Test
    void aRecordOfTheOldFormatIsNotTrusted() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        byte[] a = random(4096, 5);
        Path f = Files.write(dir.resolve("h.bin"), a);
        long mtimeNanos = Files.getLastModifiedTime(f).to(TimeUnit.NANOSECONDS);
        Files.writeString(dir.resolve(".h.bin.crc32c"), "4096 " + mtimeNanos + " deadbeef\n");
        assertThat(data.existing("h.bin").crc32c()).isEqualTo(crc(a));
    }

    /**
     * A FIFO has size 0: at the name of the generated empty file, with a record of the old format matching its size
     * and mtime, the old server handed it to a sender whose open blocked forever.
     */
    @Test
    void aFifoAtAGeneratedNameIsRefusedWithoutBlocking() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        TestFile real = data.generated(0);
        Files.delete(real.path());
        Process mkfifo = new ProcessBuilder("mkfifo", real.path().toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        long mtime = Files.getLastModifiedTime(real.path()).to(TimeUnit.NANOSECONDS);
        Files.writeString(dir.resolve(".xferbench-0.dat.crc32c"), "0 " + mtime + " " + Integer.toHexString(real.crc32c()) + "\n");
        assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
                assertThatThrownBy(() -> data.openGenerated(0))
                        .isInstanceOf(AccessDeniedException.class).hasMessageContaining("not a regular file"));
    }

    @Test
    void aSymlinkAtAGeneratedNameIsNotFollowed() throws Exception {
        Path outside = Files.write(dir.resolve("outside.bin"), random(1000, 6));
        Path root = Files.createDirectories(dir.resolve("data"));
        Files.createSymbolicLink(root.resolve("xferbench-1000.dat"), outside);
        DataDirectory data = new DataDirectory(root);
        assertThatThrownBy(() -> data.openGenerated(1000)).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("symbolic link");
    }

    /** A record once read is kept in memory, matched against the descriptor as the one on disk: no re-read per request. */
    @Test
    void aKnownRecordIsServedFromMemoryAndStillMatchedToTheFile() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        byte[] a = random(10_000, 8);
        Path f = Files.write(dir.resolve("k.bin"), a);
        assertThat(data.existing("k.bin").crc32c()).isEqualTo(crc(a));
        Files.delete(dir.resolve(".k.bin.crc32c"));
        assertThat(data.existing("k.bin").crc32c()).as("from memory").isEqualTo(crc(a));
        assertThat(dir.resolve(".k.bin.crc32c")).doesNotExist();
        byte[] b = random(10_000, 9);
        Files.write(f, b);
        assertThat(data.existing("k.bin").crc32c()).as("changed file, cached record not trusted").isEqualTo(crc(b));
    }

    /**
     * An upload's record: a small file is remembered in memory only (no second file per upload), a large one also
     * gets its record file; either way a server started afresh on the directory serves the right checksum.
     */
    @Test
    void aPlacedUploadIsRecordedInMemoryWhenSmallAndOnDiskWhenLarge() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        byte[] small = random(50 * 1024, 10);
        byte[] large = random((int) ChecksumRecordCache.PIN_MAX_BYTES + 1, 11);
        for (var upload : java.util.Map.of("small.bin", small, "large.bin", large).entrySet()) {
            place(dir.resolve(upload.getKey()), upload.getValue(), (target, written) ->
                    data.recordPlaced(target, written, upload.getValue().length, crc(upload.getValue())));
        }
        assertThat(dir.resolve(".small.bin.crc32c")).doesNotExist();
        assertThat(dir.resolve(".large.bin.crc32c")).exists();
        try (OpenedFile f = data.openExisting("small.bin")) {
            assertThat(f.crc32c()).isEqualTo(crc(small));
        }
        assertThat(dir.resolve(".small.bin.crc32c")).as("served from memory, nothing hashed or written").doesNotExist();

        DataDirectory restarted = new DataDirectory(dir);
        try (OpenedFile f = restarted.openExisting("small.bin")) {
            assertThat(f.crc32c()).as("hashed after a restart").isEqualTo(crc(small)).isEqualTo(crcOfChannel(f));
        }
        try (OpenedFile f = restarted.openExisting("large.bin")) {
            assertThat(f.crc32c()).isEqualTo(crc(large));
        }
        data.close();
        restarted.close();
    }

    /**
     * A name too long for {@code .NAME.crc32c} to fit in NAME_MAX still gets a record on disk (a deliberately wrong CRC
     * in it shows the answer came from the record, not from hashing), one of its own for each of two names that share
     * all but their last bytes; a DELETE removes it. Its record file once could be neither written nor read
     * (ENAMETOOLONG), which failed the file's every lookup but one from memory.
     */
    @Test
    void longNamesHaveRecordsOfTheirOwnWithinNameMax() throws Exception {
        String ascii = "n".repeat(254);
        String[] names = {ascii + "a", ascii + "b", "\u20ac".repeat(85), "\ud83d\ude00".repeat(63) + "abc"};
        byte[] large = random((int) ChecksumRecordCache.PIN_MAX_BYTES + 1, 16);
        DataDirectory data = new DataDirectory(dir);
        for (int i = 0; i < names.length; i++) {
            int fake = 0x1000 + i;
            place(dir.resolve(names[i]), large, (target, written) -> data.recordPlaced(target, written, large.length, fake));
        }
        DataDirectory restarted = new DataDirectory(dir);
        for (int i = 0; i < names.length; i++) {
            assertThat(data.existing(names[i]).crc32c()).as("remembered").isEqualTo(0x1000 + i);
            assertThat(restarted.existing(names[i]).crc32c()).as("from its own record file").isEqualTo(0x1000 + i);
        }
        for (String name : names) {
            data.delete(name);
        }
        try (var left = Files.list(dir)) {
            assertThat(left).as("every record deleted with its file").isEmpty();
        }
        data.close();
        restarted.close();
    }

    /**
     * A small file's remembered record pins its inode, and its record file stays beside the name: removed behind the
     * server's back, the file kept its blocks and its record until the cache started over or the next start, even after
     * a client's DELETE of it (NOT_FOUND). That DELETE now releases both; the answer stays NOT_FOUND.
     */
    @Test
    void aDeleteOfAFileRemovedBehindTheServersBackReleasesItsPinAndRecord() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        Files.createDirectories(dir.resolve("sub"));
        for (String name : new String[] {"gone.bin", "sub/gone.bin"}) {
            Files.write(dir.resolve(name), random(50 * 1024, 20));
            data.existing(name);
            data.existing(name); // a hit: pinned now
            assertThat(dir.resolve(name).resolveSibling(".gone.bin.crc32c")).exists();
            Files.delete(dir.resolve(name));
        }
        assertThat(deletedFilesHeld()).as("pinned after rm").hasSize(2);

        for (String name : new String[] {"gone.bin", "sub/gone.bin"}) {
            assertThatThrownBy(() -> data.delete(name)).isInstanceOf(java.nio.file.NoSuchFileException.class);
            assertThat(dir.resolve(name).resolveSibling(".gone.bin.crc32c")).as(name).doesNotExist();
        }
        assertThat(deletedFilesHeld()).isEmpty();
        data.close();
    }

    /** Descriptors of this process on deleted files of {@link #dir}. */
    private java.util.List<String> deletedFilesHeld() throws Exception {
        java.util.List<String> held = new java.util.ArrayList<>();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(dir.toRealPath().toString()) && target.endsWith(" (deleted)")) {
                        held.add(target);
                    }
                } catch (java.io.IOException closedMeanwhile) {
                    // The listing's own descriptor, say.
                }
            }
        }
        return held;
    }

    /** What the server does with an upload: written through a temp file's descriptor, renamed, then {@code after}. */
    private Path place(Path target, byte[] bytes, PlacedAction after) throws Exception {
        // Not named after the target: a 255-byte name would not fit.
        Path tmp = target.resolveSibling(".tmp-test-placed");
        try (FileChannel written = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            written.write(ByteBuffer.wrap(bytes));
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            after.run(target, written);
        }
        return target;
    }

    @FunctionalInterface
    private interface PlacedAction {
        void run(Path target, FileChannel written) throws Exception;
    }

    /**
     * An upload is recorded from its own descriptor, not by reopening the name: when another file of the same size is
     * renamed over the name between the upload's rename and its record, the record describes the upload's inode, so
     * the file now there is hashed, never served with the upload's checksum.
     */
    @Test
    void aFileRenamedOverAPlacedUploadBeforeItsRecordIsNotServedWithTheUploadsChecksum() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        byte[] upload = random(50 * 1024, 12);
        byte[] other = random(50 * 1024, 13);
        Path otherTmp = Files.write(dir.resolve("other.tmp"), other);
        place(dir.resolve("raced.bin"), upload, (target, written) -> {
            Files.move(otherTmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            data.recordPlaced(target, written, upload.length, crc(upload));
        });
        try (OpenedFile f = data.openExisting("raced.bin")) {
            assertThat(f.crc32c()).isEqualTo(crc(other)).isEqualTo(crcOfChannel(f));
        }
        data.close();
    }

    /** A descriptor that no longer shows the verified size (truncated behind the server's back) gets no record. */
    @Test
    void aPlacedUploadWhoseSizeChangedIsNotRecorded() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        byte[] upload = random(4096, 14);
        place(dir.resolve("cut.bin"), upload, (target, written) -> {
            written.truncate(100);
            data.recordPlaced(target, written, upload.length, crc(upload));
        });
        try (OpenedFile f = data.openExisting("cut.bin")) {
            assertThat(f.size()).isEqualTo(100);
            assertThat(f.crc32c()).as("hashed, not the verified bytes' CRC").isEqualTo(crcOfChannel(f)).isNotEqualTo(crc(upload));
        }
        data.close();
    }

    /** The record is taken after the rename (which sets the ctime): the very next download is a hit, not a re-hash. */
    @Test
    void aPlacedUploadIsServedFromItsRecordWithoutHashing() throws Exception {
        DataDirectory data = new DataDirectory(dir);
        byte[] upload = random(8192, 15);
        place(dir.resolve("hit.bin"), upload, (target, written) -> data.recordPlaced(target, written, upload.length, 0x1234));
        // A deliberately wrong CRC in the record shows the answer came from it rather than from hashing the file.
        try (OpenedFile f = data.openExistingIfRecorded("hit.bin")) {
            assertThat(f).as("recorded").isNotNull();
            assertThat(f.crc32c()).isEqualTo(0x1234);
        }
        data.close();
    }
}
