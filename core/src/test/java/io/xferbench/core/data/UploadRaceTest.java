package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An upload's target is checked ({@link DataDirectory#resolveNew}), then its temp file created and later renamed into
 * place. The tests swap a directory on the target's path for a symlink leading out of the data directory between
 * those steps: nothing may be created or land out there, and the temp file must not stay behind.
 */
class UploadRaceTest extends SwapFixture {
    @BeforeEach
    void makeSub() throws Exception {
        Files.createDirectory(root.resolve("sub"));
    }

    private void swapSubForSymlinkOut() throws Exception {
        Files.move(root.resolve("sub"), root.resolve("moved"));
        Files.createSymbolicLink(root.resolve("sub"), outside);
    }

    private static void write(UploadTemp t, String body) throws Exception {
        t.channel().write(ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), 0);
    }

    private static long entries(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    /** The temp file was created by path, through the symlink: the body was written outside. */
    @Test
    void aDirectorySwappedBeforeTheTempFileIsCreatedIsRefused() throws Exception {
        Path target = data.resolveNew("sub/f");
        swapSubForSymlinkOut();
        assertThatThrownBy(() -> {
            try (UploadTemp t = data.createUploadTemp(target)) {
                write(t, "body");
            }
        }).isInstanceOf(AccessDeniedException.class).hasMessageContaining("no longer a directory");
        assertThat(entries(outside)).isZero();
        assertThat(entries(root.resolve("moved"))).isZero();
    }

    /**
     * The rename went by path: refused (the temp is not out there) but its removal by path left the temp behind. Then it
     * walked the path again from the held directory and was refused. Now the temp file is renamed within the directory
     * held since its create: the file lands in the directory the upload began in (moved), never out there, no temp left.
     */
    @Test
    void aDirectorySwappedBeforeTheRenameGetsTheFileInTheDirectoryHeldNeverOutside() throws Exception {
        Path target = data.resolveNew("sub/f");
        try (UploadTemp t = data.createUploadTemp(target)) {
            write(t, "body");
            swapSubForSymlinkOut();
            data.placeUpload(t, target, false);
        }
        assertThat(entries(outside)).isZero();
        assertThat(Files.readString(root.resolve("moved/f"))).isEqualTo("body");
        assertThat(entries(root.resolve("moved"))).isEqualTo(1);
    }

    /** A temp file in the data directory itself ({@value DataDirectory#UPLOADS}) is still renamed across directories. */
    @Test
    void aTopLevelUploadIsRenamedOutOfTheUploadsDirectory() throws Exception {
        Path target = data.resolveNew("top");
        try (UploadTemp t = data.createUploadTemp(target)) {
            write(t, "body");
            data.placeUpload(t, target, true);
        }
        assertThat(Files.readString(root.resolve("top"))).isEqualTo("body");
        assertThat(entries(root.resolve(DataDirectory.UPLOADS))).isZero();
    }

    @Test
    void anUploadReplacesAnExistingFileAndLeavesNoTempFile() throws Exception {
        Files.writeString(root.resolve("f"), "old");
        Files.writeString(root.resolve("sub/g"), "old");
        for (String name : new String[] {"f", "sub/g"}) {
            Path target = data.resolveNew(name);
            try (UploadTemp t = data.createUploadTemp(target)) {
                write(t, "new body");
                data.placeUpload(t, target, false);
            }
            assertThat(Files.readString(root.resolve(name))).isEqualTo("new body");
        }
        assertThat(entries(root.resolve(DataDirectory.UPLOADS))).isZero();
        assertThat(entries(root.resolve("sub"))).isEqualTo(1);
    }

    /**
     * The record of a file over 1 MiB was written by path, through the symlink: a record file out there. Now it is
     * written into the directory held since the temp file's create, beside the file it describes (moved with it).
     */
    @Test
    void aDirectorySwappedBeforeTheRecordIsWrittenGetsNoRecordOutside() throws Exception {
        int crc = uploadBig(false, this::swapSubForSymlinkOut);
        assertThat(entries(outside)).isZero();
        assertThat(root.resolve("moved/.big.crc32c")).isRegularFile();
        assertThat(entries(root.resolve("moved"))).isEqualTo(2);
        try (DataDirectory fresh = new DataDirectory(root)) {
            assertThat(fresh.existing("moved/big").crc32c()).isEqualTo(crc);
        }
    }

    @Test
    void aBigUploadGetsItsRecordBesideIt() throws Exception {
        int crc = uploadBig(true, () -> { });
        assertThat(root.resolve("sub/.big.crc32c")).isRegularFile();
        assertThat(entries(root.resolve("sub"))).isEqualTo(2);
        try (DataDirectory fresh = new DataDirectory(root)) {
            assertThat(fresh.existing("sub/big").crc32c()).isEqualTo(crc);
        }
    }

    /** Steps between a placed upload and the writing of its record. */
    private interface Between {
        void run() throws Exception;
    }

    /** Uploads {@code sub/big}, one byte over what gets no record, runs {@code between} once placed, records; its CRC32C. */
    private int uploadBig(boolean fsync, Between between) throws Exception {
        Path target = data.resolveNew("sub/big");
        byte[] body = new byte[(int) ChecksumRecordCache.PIN_MAX_BYTES + 1];
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body);
        try (UploadTemp t = data.createUploadTemp(target)) {
            t.channel().write(ByteBuffer.wrap(body), 0);
            data.placeUpload(t, target, fsync);
            between.run();
            data.recordPlaced(t, target, body.length, (int) crc.getValue());
        }
        return (int) crc.getValue();
    }

    /** A directory put at the target's name after the check stays; the upload is refused and its temp removed. */
    @Test
    void aTargetSwappedForADirectoryIsRefusedAndKept() throws Exception {
        Path target = data.resolveNew("sub/f");
        try (UploadTemp t = data.createUploadTemp(target)) {
            write(t, "body");
            Files.createDirectory(root.resolve("sub/f"));
            assertThatThrownBy(() -> data.placeUpload(t, target, false))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("is a directory");
        }
        assertThat(Files.isDirectory(root.resolve("sub/f"))).isTrue();
        assertThat(entries(root.resolve("sub"))).isEqualTo(1);
    }
}
