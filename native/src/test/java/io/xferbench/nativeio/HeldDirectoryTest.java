package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HeldDirectory} and {@link Rename}: create, rename and remove by descriptor, never through a swapped symlink. */
class HeldDirectoryTest {
    @TempDir
    Path dir;

    @Test
    void aFileIsCreatedReadWrittenAndRenamedOverAnother() throws Exception {
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("a/b/f"), "old");
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ);
             HeldDirectory b = HeldDirectory.beneath(Fds.of(d), List.of("a", "b"), "a/b/f")) {
            try (FileChannel c = b.create("tmp", "tmp")) {
                c.write(ByteBuffer.wrap("new".getBytes(StandardCharsets.UTF_8)), 0);
                ByteBuffer back = ByteBuffer.allocate(3);
                c.read(back, 0);
                assertThat(new String(back.array(), StandardCharsets.UTF_8)).isEqualTo("new");
            }
            assertThatThrownBy(() -> b.create("tmp", "tmp")).isInstanceOf(FileAlreadyExistsException.class);
            Rename.entry(b.fd(), "tmp", b.fd(), "f", "a/b/f");
            assertThat(b.unlinkIfPresent("tmp")).isFalse();
        }
        assertThat(Files.readString(dir.resolve("a/b/f"))).isEqualTo("new");
        try (var s = Files.list(dir.resolve("a/b"))) {
            assertThat(s).hasSize(1);
        }
    }

    @Test
    void aSymlinkOnTheWayOrAtTheNameIsNotFollowed() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.createDirectories(dir.resolve("data"));
        Files.createSymbolicLink(dir.resolve("data/sub"), outside);
        Files.createSymbolicLink(dir.resolve("data/link"), outside.resolve("made"));
        try (FileChannel d = FileChannel.open(dir.resolve("data"), StandardOpenOption.READ)) {
            assertThatThrownBy(() -> HeldDirectory.beneath(Fds.of(d), List.of("sub"), "sub/f"))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("sub on its path is no longer a directory");
            try (HeldDirectory top = HeldDirectory.beneath(Fds.of(d), List.of(), "link")) {
                assertThatThrownBy(() -> top.create("link", "link")).isInstanceOf(FileAlreadyExistsException.class);
            }
        }
        try (var s = Files.list(outside)) {
            assertThat(s).isEmpty();
        }
    }

    /** A directory at the new name stays; the renamed file stays where it was. */
    @Test
    void aRenameOverADirectoryIsRefused() throws Exception {
        Files.createDirectories(dir.resolve("d"));
        Files.writeString(dir.resolve("f"), "x");
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            int fd = Fds.of(d);
            assertThatThrownBy(() -> Rename.entry(fd, "f", fd, "d", "d")).isInstanceOf(AccessDeniedException.class)
                    .hasMessage("d: is a directory");
            assertThatThrownBy(() -> Rename.entry(fd, "gone", fd, "g", "g")).isInstanceOf(NoSuchFileException.class);
        }
        assertThat(dir.resolve("d")).isDirectory();
        assertThat(dir.resolve("f")).hasContent("x");
    }

    /** Closing releases the walk's descriptor, never the one it started from. */
    @Test
    void closingReleasesOnlyWhatTheWalkOpened() throws Exception {
        Files.createDirectories(dir.resolve("a"));
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            HeldDirectory top = HeldDirectory.beneath(Fds.of(d), List.of(), "x");
            top.close();
            assertThat(d.isOpen()).isTrue();
            assertThat(Files.exists(Path.of("/proc/self/fd/" + Fds.of(d)))).isTrue();
            HeldDirectory a = HeldDirectory.beneath(Fds.of(d), List.of("a"), "a/x");
            Path link = Path.of("/proc/self/fd/" + a.fd());
            assertThat(Files.readSymbolicLink(link)).isEqualTo(dir.resolve("a").toRealPath());
            a.close();
        }
    }

    /** {@link Rename#noReplace}: an entry at the new name stays and the old one is not moved; a FIFO moves like a file. */
    @Test
    void aRenameWithoutReplaceLeavesATakenNameAlone() throws Exception {
        Files.writeString(dir.resolve("f"), "f");
        Files.writeString(dir.resolve("taken"), "taken");
        assertThat(new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start().waitFor()).isZero();
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            int fd = Fds.of(d);
            assertThat(Rename.noReplace(fd, "f", fd, "taken", "f")).isFalse();
            assertThat(Files.readString(dir.resolve("f"))).isEqualTo("f");
            assertThat(Files.readString(dir.resolve("taken"))).isEqualTo("taken");
            assertThat(Rename.noReplace(fd, "fifo", fd, "moved", "fifo")).isTrue();
            assertThat(Files.exists(dir.resolve("fifo"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
            assertThat(EntryStat.beneath(fd, List.of(), "moved", "moved").regular()).isFalse();
            assertThatThrownBy(() -> Rename.noReplace(fd, "gone", fd, "g", "gone")).isInstanceOf(NoSuchFileException.class);
        }
    }
}
