package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RegularFiles#describe}: a descriptor the process already holds, described as an open by name would be. */
class RegularFilesDescribeTest {
    @TempDir
    Path dir;

    @Test
    void aHeldDescriptorIsDescribedAfterItsRenameAsAnOpenOfTheNewNameWouldBe() throws Exception {
        Path tmp = dir.resolve(".tmp");
        try (FileChannel written = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            written.write(ByteBuffer.wrap(new byte[1234]));
            Path placed = Files.move(tmp, dir.resolve("placed.bin"), StandardCopyOption.ATOMIC_MOVE);
            OpenRegularFile described = RegularFiles.describe(written);
            assertThat(described.size()).isEqualTo(1234);
            assertThat(described.channel()).isSameAs(written);
            try (OpenRegularFile byName = RegularFiles.open(placed)) {
                // Taken after the rename: the same identity, ctime included, as a reader opening the name sees.
                assertThat(described.identity()).isEqualTo(byName.identity());
                assertThat(byName.matchesExceptGeneration(described.identity())).isTrue();
            }
        }
    }

    @Test
    void aDirectoryIsNotARegularFile() throws Exception {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> RegularFiles.describe(d)).isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("not a regular file");
        }
    }
}
