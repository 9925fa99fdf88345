package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.protocol.FileStat;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A STAT of a single name answers from one statx in the directory the server holds, as its download opens there, not
 * by the real path of the directory's path (a readlink per component). The directory's path is moved away to tell the
 * two apart: by path, the file was absent.
 */
class SingleNameStatTest extends SwapFixture {
    @Test
    void aSingleNameIsToldFromTheHeldDirectoryWhereverItsPathLeads() throws Exception {
        Files.writeString(root.resolve("f"), "file");
        Files.createDirectory(root.resolve("d"));
        Path moved = Files.move(root, tmp.resolve("moved"));
        Files.createDirectories(root);

        FileStat st = data.stat("f");
        assertThat(st.exists()).isTrue();
        assertThat(st.size()).isEqualTo(4);
        assertThat(st.mtimeNanos()).isEqualTo(Files.getLastModifiedTime(moved.resolve("f")).to(TimeUnit.NANOSECONDS));
        assertThatThrownBy(() -> data.stat("d")).isInstanceOf(AccessDeniedException.class).hasMessage("d: not a regular file");
        assertThat(data.stat("absent").exists()).isFalse();
    }

    /** Same answers as the real-path route: a symlink still goes there (in or out), a FIFO is refused. */
    @Test
    void symlinksAndOtherTypesGetTheRealPathRoutesAnswers() throws Exception {
        Files.writeString(root.resolve("f"), "file");
        Files.writeString(outside.resolve("secret"), "outside");
        Files.createSymbolicLink(root.resolve("in"), root.resolve("f"));
        Files.createSymbolicLink(root.resolve("out"), outside.resolve("secret"));
        Files.createSymbolicLink(root.resolve("dangling"), root.resolve("none"));
        assertThat(new ProcessBuilder("mkfifo", root.resolve("fifo").toString()).start().waitFor()).isZero();

        assertThat(data.stat("in").size()).isEqualTo(4);
        assertThatThrownBy(() -> data.stat("out")).isInstanceOf(AccessDeniedException.class);
        assertThat(data.stat("dangling").exists()).isFalse();
        assertThatThrownBy(() -> data.stat("fifo")).isInstanceOf(AccessDeniedException.class).hasMessage("fifo: not a regular file");
    }
}
