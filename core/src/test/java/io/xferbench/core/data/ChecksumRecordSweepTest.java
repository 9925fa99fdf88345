package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records of files removed behind the server's back are swept; nothing else is, and nothing outside is looked at. */
class ChecksumRecordSweepTest {
    @TempDir
    Path tmp;

    private static int crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return (int) c.getValue();
    }

    /** Every entry under {@code root}, symlinks not followed, as relative names. */
    private static Set<String> tree(Path root) throws Exception {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> !p.equals(root)).map(p -> root.relativize(p).toString()).collect(Collectors.toSet());
        }
    }

    /**
     * rm and mv of files with records (in the directory, in a subdirectory, a name long enough for a hashed record),
     * and names that stopped being regular files (a directory, a symlink in their place): their records go, the
     * records of files still there stay, and so does every hidden name that is not a record, whatever is in
     * {@code .uploads} and whatever a symlink leads to. The old server had no sweep: every one of them stayed.
     */
    @Test
    void recordsOfFilesGoneAreRemovedAndNothingElse() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Path sub = Files.createDirectories(root.resolve("sub"));
        String longName = "n".repeat(250);
        String[] served = {"kept.bin", "removed.bin", "sub/kept.bin", "sub/moved.bin", longName, "became-dir", "became-link",
                "sub/" + longName + "-kept"};
        DataDirectory data = new DataDirectory(root);
        for (String name : served) {
            Files.writeString(root.resolve(name), "bytes of " + name);
            data.existing(name);
        }
        data.close();
        assertThat(root.resolve(ChecksumRecordName.of(longName))).as("a hashed record").exists();

        // Behind the server's back:
        Files.delete(root.resolve("removed.bin"));
        Files.move(root.resolve("sub/moved.bin"), root.resolve("sub/renamed.bin"));
        Files.delete(root.resolve(longName));
        Files.delete(root.resolve("became-dir"));
        Files.createDirectory(root.resolve("became-dir"));
        Files.delete(root.resolve("became-link"));
        Files.createSymbolicLink(root.resolve("became-link"), root.resolve("kept.bin"));
        // Not records, or not the sweep's: hidden names of other shapes, the uploads' directory, a tree outside.
        Files.writeString(root.resolve(".tmpish"), "x");
        Files.writeString(root.resolve(".notes.crc32c.bak"), "x");
        Files.writeString(root.resolve("..short-abc.crc32c"), "not a hashed record's shape");
        Files.writeString(Files.createDirectories(root.resolve(DataDirectory.UPLOADS)).resolve(".gone.crc32c"), "x");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve(".gone.crc32c"), "must stay");
        Files.createSymbolicLink(sub.resolve("out"), outside);
        Set<String> before = tree(root);

        ChecksumRecordSweep.Swept swept = new DataDirectory(root).removeOrphanedRecords();

        Set<String> gone = new HashSet<>(before);
        gone.removeAll(tree(root));
        assertThat(gone).containsExactlyInAnyOrder(".removed.bin.crc32c", "sub/.moved.bin.crc32c", ChecksumRecordName.of(longName),
                ".became-dir.crc32c", ".became-link.crc32c");
        assertThat(swept.records()).isEqualTo(5);
        assertThat(swept.bytes()).isPositive();
        assertThat(swept.skipped()).isNull();
        assertThat(tree(root)).contains(".kept.bin.crc32c", "sub/.kept.bin.crc32c", "sub/" + ChecksumRecordName.of(longName + "-kept"));
        assertThat(outside.resolve(".gone.crc32c")).hasContent("must stay");

        assertThat(new DataDirectory(root).removeOrphanedRecords().records()).as("a second sweep finds nothing").isZero();
    }

    /**
     * A file rewritten in place behind the server's back, same size and its mtime set back, across a restart: its record
     * stays (the file is there), is not trusted (it names the old ctime), and the first lookup replaces it.
     */
    @Test
    void aRecordOfAFileRewrittenInPlaceIsKeptButNeverServed() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        byte[] first = "first contents, 32 bytes long..".getBytes();
        byte[] second = "other contents, 32 bytes long..".getBytes();
        Path f = Files.write(root.resolve("f.bin"), first);
        DataDirectory data = new DataDirectory(root);
        assertThat(data.existing("f.bin").crc32c()).isEqualTo(crc(first));
        data.close();
        String recorded = Files.readString(root.resolve(".f.bin.crc32c"));

        FileTime mtime = Files.getLastModifiedTime(f);
        Thread.sleep(10); // past the file system's clock tick, as any edit by hand is
        try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(second), 0);
        }
        Files.setLastModifiedTime(f, mtime);
        assertThat(Files.size(f)).isEqualTo(first.length);

        DataDirectory restarted = new DataDirectory(root);
        assertThat(restarted.removeOrphanedRecords().records()).isZero();
        assertThat(root.resolve(".f.bin.crc32c")).hasContent(recorded);
        assertThat(restarted.existing("f.bin").crc32c()).isEqualTo(crc(second));
        assertThat(Files.readString(root.resolve(".f.bin.crc32c"))).as("replaced by the lookup").isNotEqualTo(recorded)
                .contains(Integer.toHexString(crc(second)));
        restarted.close();
    }

    /**
     * Another live server places a file, then its record: a record whose file the first listing missed (placed while it
     * ran) is kept when the second listing shows the file.
     */
    @Test
    void aRecordWhoseFileTheSecondListingShowsIsKept() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(root.resolve("late.bin"), "placed after the first listing");
        Files.writeString(root.resolve(".late.bin.crc32c"), "its record");
        Files.writeString(root.resolve(".gone.bin.crc32c"), "a record of nothing");
        long[] removed = new long[2];
        try (SecureDirectoryStream<Path> dir = (SecureDirectoryStream<Path>) Files.newDirectoryStream(root)) {
            ChecksumRecordSweep.removeOrphans(dir, new HashSet<>(Set.of(".late.bin.crc32c", ".gone.bin.crc32c")), removed);
        }
        assertThat(root.resolve(".late.bin.crc32c")).exists();
        assertThat(root.resolve(".gone.bin.crc32c")).doesNotExist();
        assertThat(removed[0]).isEqualTo(1);
    }

    @Test
    void recordNamesAreToldApartFromOtherHiddenNames() {
        assertThat(ChecksumRecordName.isRecordName(ChecksumRecordName.of("f.bin"))).isTrue();
        assertThat(ChecksumRecordName.isRecordName(ChecksumRecordName.of("tmp-1.2-x"))).isTrue();
        assertThat(ChecksumRecordName.isRecordName(ChecksumRecordName.of("n".repeat(255)))).isTrue();
        for (String other : new String[] {".crc32c", "..crc32c", ".f.bin", "f.bin.crc32c", ".f.crc32c.bak", "..x-abc.crc32c",
                "..-" + "0".repeat(32) + ".crc32c", ".tmp-1.2-.f.bin.crc32c-89ab"}) {
            assertThat(ChecksumRecordName.isRecordName(other)).as(other).isFalse();
        }
    }
}
