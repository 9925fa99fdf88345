package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FdsTest {

    @Test
    void fileChannelFdIsTheOneProcSelfFdNames(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            int fd = Fds.of(ch);
            assertThat(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd))).isEqualTo(file.toRealPath());
            int copy = Fds.dup(fd);
            try {
                assertThat(copy).isNotEqualTo(fd);
                assertThat(Files.readSymbolicLink(Path.of("/proc/self/fd/" + copy))).isEqualTo(file.toRealPath());
            } finally {
                Fds.close(copy);
            }
        }
    }

    @Test
    void closingABadFdNamesTheErrno() {
        assertThatThrownBy(() -> Fds.close(1 << 30))
                .isInstanceOf(NativeException.class)
                .hasMessageContaining("EBADF")
                .hasMessageContaining("Bad file descriptor");
    }
}
