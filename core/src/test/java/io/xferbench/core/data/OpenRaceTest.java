package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A download of a name that takes the real-path route (a '/' in it, or a symlink): checked by its real path, then
 * opened. The test swaps a directory on the way for a symlink leading out between the two
 * ({@link DataDirectory#openResolved}); the open must not follow it to the file out there.
 */
class OpenRaceTest extends SwapFixture {
    /** The open went by the checked path, whose last component alone was not followed: it opened the file outside. */
    @Test
    void aDirectoryOnTheWaySwappedForASymlinkOutIsNotFollowed() throws Exception {
        Files.createDirectory(root.resolve("sub"));
        Files.writeString(root.resolve("sub/f"), "inside");
        Files.writeString(outside.resolve("f"), "SECRET outside");
        Path real = data.resolveExisting("sub/f");
        Files.move(root.resolve("sub"), root.resolve("moved"));
        Files.createSymbolicLink(root.resolve("sub"), outside);

        assertThatThrownBy(() -> {
            try (var opened = data.openResolved("sub/f", real).opened()) {
                ByteBuffer b = ByteBuffer.allocate(64);
                opened.channel().read(b, 0);
                throw new AssertionError("opened " + new String(b.array(), 0, b.position(), StandardCharsets.UTF_8));
            }
        }).isInstanceOf(AccessDeniedException.class).hasMessageContaining("no longer a directory");
    }

    @Test
    void aFileBeneathStillThereIsOpenedAndServed() throws Exception {
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/f"), "inside");
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("a/b/f"));
        assertThat(data.existing("a/b/f").size()).isEqualTo(6);
        assertThat(data.existing("alias").size()).isEqualTo(6);
        try (var opened = data.openResolved("a/b/f", data.resolveExisting("a/b/f")).opened()) {
            assertThat(opened.size()).isEqualTo(6);
        }
    }
}
