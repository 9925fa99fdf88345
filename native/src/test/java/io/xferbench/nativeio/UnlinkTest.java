package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Unlink}: only ever a non-directory, named relative to a descriptor, through directories not followed. */
class UnlinkTest {
    @TempDir
    Path dir;

    @Test
    void aFileASymlinkAndAFifoAreUnlinkedAndASymlinksTargetStays() throws Exception {
        Files.writeString(dir.resolve("f"), "x");
        Files.writeString(dir.resolve("target"), "kept");
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("target"));
        Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            for (String name : List.of("f", "link", "fifo")) {
                Unlink.entry(Fds.of(d), name, name);
                assertThat(Files.exists(dir.resolve(name), LinkOption.NOFOLLOW_LINKS)).as(name).isFalse();
            }
        }
        assertThat(Files.readString(dir.resolve("target"))).isEqualTo("kept");
    }

    /** Files.delete would rmdir it (it lstat()s, sees a directory, and removes one). */
    @Test
    void anEmptyDirectoryIsRefusedAndStays() throws Exception {
        Files.createDirectory(dir.resolve("empty"));
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> Unlink.entry(Fds.of(d), "empty", "shown/empty"))
                    .isInstanceOf(Unlink.DirectoryException.class).hasMessage("shown/empty: is a directory");
        }
        assertThat(dir.resolve("empty")).isDirectory();
    }

    @Test
    void absenceIsNoSuchFile() throws Exception {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> Unlink.entry(Fds.of(d), "absent", "absent")).isExactlyInstanceOf(NoSuchFileException.class);
            assertThatThrownBy(() -> Unlink.beneath(Fds.of(d), List.of("gone"), "x", "gone/x"))
                    .isExactlyInstanceOf(NoSuchFileException.class).hasMessageContaining("its directory gone is gone");
        }
    }

    @Test
    void anEntryBeneathIsUnlinkedThroughItsDirectories() throws Exception {
        Path deep = Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(deep.resolve("f"), "x");
        Files.createDirectory(deep.resolve("d"));
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            Unlink.beneath(Fds.of(d), List.of("a", "b"), "f", "a/b/f");
            assertThatThrownBy(() -> Unlink.beneath(Fds.of(d), List.of("a", "b"), "d", "a/b/d"))
                    .isInstanceOf(Unlink.DirectoryException.class);
            // The given descriptor is still open and still this directory: the walk closed only its own.
            Files.writeString(dir.resolve("g"), "x");
            Unlink.entry(Fds.of(d), "g", "g");
        }
        assertThat(deep.resolve("f")).doesNotExist();
        assertThat(dir.resolve("g")).doesNotExist();
        assertThat(deep.resolve("d")).isDirectory();
    }

    /** A directory on the way swapped for a symlink (here to a directory outside) is not followed: nothing out there goes. */
    @Test
    void aDirectorySwappedForASymlinkOnTheWayIsNotFollowed() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("f"), "outside");
        Path inside = Files.createDirectories(dir.resolve("inside"));
        Files.createSymbolicLink(inside.resolve("sub"), outside);
        try (FileChannel d = FileChannel.open(inside, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> Unlink.beneath(Fds.of(d), List.of("sub"), "f", "sub/f"))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("sub on its path is no longer a directory");
        }
        assertThat(outside.resolve("f")).hasContent("outside");
    }

    @Test
    void namesOfMoreThanOneEntryAreRefusedBeforeAnyCall() {
        for (String bad : List.of("", ".", "..", "a/b", "nul\0")) {
            assertThatThrownBy(() -> Unlink.entry(-1, bad, bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
