package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.protocol.FileStat;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * STAT's check-then-act races, made deterministic: the name is resolved to its real path as a STAT resolves it, the
 * test swaps what is there, and {@link DataDirectory#statOf} answers as the STAT goes on. A STAT tells a regular file
 * inside the directory or nothing: never a directory or FIFO as a file, never a file outside.
 */
class StatRaceTest extends SwapFixture {
    /** The second lstat, by path and untyped, told the directory as an existing file of 4096 bytes or so. */
    @Test
    void aFileSwappedForADirectoryIsRefusedAsADirectoryIs() throws Exception {
        Path f = Files.writeString(root.resolve("f"), "file");
        Path real = data.resolveExisting("f");
        Files.delete(f);
        Files.createDirectory(f);

        assertThatThrownBy(() -> data.statOf("f", real)).isInstanceOf(AccessDeniedException.class).hasMessage("f: not a regular file");
    }

    @Test
    void aFileSwappedForAFifoIsRefusedAsAFifoIs() throws Exception {
        Path f = Files.writeString(root.resolve("f"), "file");
        Path real = data.resolveExisting("f");
        Files.delete(f);
        assertThat(new ProcessBuilder("mkfifo", f.toString()).start().waitFor()).isZero();

        assertThatThrownBy(() -> data.statOf("f", real)).isInstanceOf(AccessDeniedException.class).hasMessage("f: not a regular file");
    }

    /** The lstat went by the real path, through the swapped-in symlink, and told the size and mtime of a file outside. */
    @Test
    void aDirectoryOnTheWaySwappedForASymlinkOutTellsNothingOfTheFileThere() throws Exception {
        Files.createDirectory(root.resolve("sub"));
        Files.writeString(root.resolve("sub/f"), "inside");
        Files.writeString(outside.resolve("f"), "outside, and longer");
        Path real = data.resolveExisting("sub/f");
        Files.move(root.resolve("sub"), root.resolve("moved"));
        Files.createSymbolicLink(root.resolve("sub"), outside);

        assertThatThrownBy(() -> data.statOf("sub/f", real)).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("no longer a directory");
    }

    @Test
    void aFileStillThereIsToldAndOneGoneIsAbsent() throws Exception {
        Files.createDirectory(root.resolve("sub"));
        Path f = Files.writeString(root.resolve("sub/f"), "inside");
        Path real = data.resolveExisting("sub/f");

        FileStat told = data.statOf("sub/f", real);
        assertThat(told.exists()).isTrue();
        assertThat(told.size()).isEqualTo(6);
        assertThat(told.mtimeNanos()).isEqualTo(Files.getLastModifiedTime(f).to(java.util.concurrent.TimeUnit.NANOSECONDS));
        Files.delete(f);
        assertThat(data.statOf("sub/f", real)).isEqualTo(FileStat.ABSENT);
    }
}
