package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MakeDirectory}: made in the directory open as the descriptor, wherever its path leads now. */
class MakeDirectoryTest {
    @TempDir
    Path dir;

    @Test
    void madeInTheOpenedDirectoryAfterItsPathWasMovedAndRedirected() throws Exception {
        Path opened = Files.createDirectory(dir.resolve("data"));
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        try (FileChannel d = FileChannel.open(opened, StandardOpenOption.READ)) {
            Files.move(opened, dir.resolve("moved"));
            Files.createSymbolicLink(opened, elsewhere);

            assertThat(MakeDirectory.entry(Fds.of(d), "made", 0700, "made")).isTrue();
        }
        assertThat(dir.resolve("moved/made")).isDirectory();
        assertThat(elsewhere.resolve("made")).doesNotExist();
    }

    @Test
    void anEntryThereIsReportedAndASymlinkIsNotFollowed() throws Exception {
        Files.createDirectory(dir.resolve("sub"));
        Files.writeString(dir.resolve("file"), "x");
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("absent-target"));
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            for (String name : new String[] {"sub", "file", "link"}) {
                assertThat(MakeDirectory.entry(Fds.of(d), name, 0700, name)).as(name).isFalse();
            }
        }
        assertThat(dir.resolve("absent-target")).doesNotExist();
        assertThat(Files.isSymbolicLink(dir.resolve("link"))).isTrue();
        assertThat(Files.isRegularFile(dir.resolve("file"), LinkOption.NOFOLLOW_LINKS)).isTrue();
    }

    @Test
    void aRemovedDirectoryIsNoSuchFile() throws Exception {
        Path gone = Files.createDirectory(dir.resolve("gone"));
        try (FileChannel d = FileChannel.open(gone, StandardOpenOption.READ)) {
            Files.delete(gone);
            assertThatThrownBy(() -> MakeDirectory.entry(Fds.of(d), "x", 0700, "gone/x"))
                    .isExactlyInstanceOf(NoSuchFileException.class).hasMessageContaining("gone/x");
        }
    }
}
