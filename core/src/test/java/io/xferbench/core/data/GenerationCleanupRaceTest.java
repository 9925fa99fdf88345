package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generation that fails after its file was renamed into place removes that file if the name is still it
 * ({@link DataDirectory#stillOurs}, then {@link DataDirectory#unlinkPlaced}). The test swaps the file for an empty
 * directory between the two: the directory is not the generation's to remove.
 */
class GenerationCleanupRaceTest {
    @TempDir
    Path tmp;
    Path root;
    DataDirectory data;

    @BeforeEach
    void open() throws Exception {
        root = Files.createDirectories(tmp.resolve("data")).toRealPath();
        data = new DataDirectory(root);
    }

    @AfterEach
    void close() throws Exception {
        data.close();
    }

    /** Files.deleteIfExists lstat()ed, saw a directory and rmdir()ed it. */
    @Test
    void aFileSwappedForAnEmptyDirectoryAfterTheCheckStays() throws Exception {
        Path f = Files.writeString(root.resolve("xferbench-4.dat"), "data");
        try (FileChannel ours = FileChannel.open(f, StandardOpenOption.READ)) {
            assertThat(data.stillOurs("xferbench-4.dat", ours)).isTrue();
            Files.delete(f);
            Files.createDirectory(f);
            data.unlinkPlaced("xferbench-4.dat");
        }
        assertThat(f).isDirectory();
    }

    @Test
    void theGenerationsFileIsRemovedAndAnotherIsNot() throws Exception {
        Path f = Files.writeString(root.resolve("xferbench-4.dat"), "data");
        try (FileChannel ours = FileChannel.open(f, StandardOpenOption.READ)) {
            Path other = Files.writeString(root.resolve("other"), "other");
            Files.move(other, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertThat(data.stillOurs("xferbench-4.dat", ours)).isFalse();
        }
        assertThat(f).hasContent("other");
        try (FileChannel ours = FileChannel.open(f, StandardOpenOption.READ)) {
            assertThat(data.stillOurs("xferbench-4.dat", ours)).isTrue();
            data.unlinkPlaced("xferbench-4.dat");
        }
        assertThat(f).doesNotExist();
        try (FileChannel x = FileChannel.open(Files.writeString(root.resolve("x"), "x"))) {
            assertThat(data.stillOurs("xferbench-4.dat", x)).isFalse();
        }
    }
}
