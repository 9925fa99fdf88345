package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link EntryStat#beneath}: what is at a name now, through directories not followed, a final symlink described. */
class EntryStatBeneathTest {
    @TempDir
    Path dir;

    @Test
    void aFileBeneathIsDescribedAndASymlinkIsNotFollowed() throws Exception {
        Path f = Files.writeString(Files.createDirectories(dir.resolve("a/b")).resolve("f"), "12345");
        Files.createSymbolicLink(dir.resolve("a/b/link"), f);
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            EntryStat st = EntryStat.beneath(Fds.of(d), List.of("a", "b"), "f", "a/b/f");
            assertThat(st.regular()).isTrue();
            assertThat(st.size()).isEqualTo(5);
            assertThat(st.mtimeNanos()).isEqualTo(Files.getLastModifiedTime(f).to(TimeUnit.NANOSECONDS));
            assertThat(EntryStat.beneath(Fds.of(d), List.of("a", "b"), "link", "a/b/link").regular()).isFalse();
            assertThat(EntryStat.beneath(Fds.of(d), List.of(), "a", "a").regular()).isFalse();
            assertThatThrownBy(() -> EntryStat.beneath(Fds.of(d), List.of("a"), "absent", "a/absent"))
                    .isExactlyInstanceOf(NoSuchFileException.class);
        }
    }

    @Test
    void aDirectorySwappedForASymlinkOnTheWayIsNotFollowed() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("f"), "outside");
        Path inside = Files.createDirectories(dir.resolve("inside"));
        Files.createSymbolicLink(inside.resolve("sub"), outside);
        try (FileChannel d = FileChannel.open(inside, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> EntryStat.beneath(Fds.of(d), List.of("sub"), "f", "sub/f"))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("sub on its path is no longer a directory");
        }
    }
}
