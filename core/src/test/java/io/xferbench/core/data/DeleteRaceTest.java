package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * DELETE's check-then-act races, made deterministic: {@link DataDirectory#deletionTarget} checks the name as a DELETE
 * does, the test then swaps what is there, and {@link DataDirectory#remove} acts as the DELETE goes on. The removal
 * must never take a directory, nor follow a directory on the way that became a symlink; and the cases of the same
 * removal that needed no race (a link reached through a directory leading out, a directory at a record's name).
 */
class DeleteRaceTest extends SwapFixture {
    /** The JDK's delete lstat()ed the name, saw the directory, and removed it with rmdir. */
    @Test
    void aFileSwappedForAnEmptyDirectoryBeforeTheUnlinkKeepsTheDirectoryAndIsAnsweredAsADirectoryIs() throws Exception {
        Path f = Files.writeString(root.resolve("f"), "file");
        data.existing("f"); // its checksum record, which a removal takes along
        DataDirectory.DeletionTarget target = data.deletionTarget("f");
        Files.delete(f);
        Files.createDirectory(f);

        assertThatThrownBy(() -> data.remove(target)).isInstanceOf(AccessDeniedException.class)
                .hasMessage("f: not a regular file");
        assertThat(f).isDirectory();
        // The answer a directory named in a DELETE has always had.
        Files.createDirectory(root.resolve("d"));
        assertThatThrownBy(() -> data.delete("d")).isInstanceOf(AccessDeniedException.class).hasMessage("d: not a regular file");
        assertThat(root.resolve("d")).isDirectory();
    }

    /** The symlink branch: the link checked, then a directory in its place (isSymbolicLink, then Files.delete). */
    @Test
    void aSymlinkSwappedForAnEmptyDirectoryKeepsTheDirectoryAndTheLinksTarget() throws Exception {
        Files.writeString(root.resolve("real.txt"), "real");
        Path alias = Files.createSymbolicLink(root.resolve("alias"), root.resolve("real.txt"));
        DataDirectory.DeletionTarget target = data.deletionTarget("alias");
        Files.delete(alias);
        Files.createDirectory(alias);

        assertThatThrownBy(() -> data.remove(target)).isInstanceOf(AccessDeniedException.class)
                .hasMessage("alias: not a regular file");
        assertThat(alias).isDirectory();
        assertThat(root.resolve("real.txt")).hasContent("real");
    }

    /** The removal went by the checked path, which now led out through the swapped-in symlink, and removed the file there. */
    @Test
    void aDirectoryOnTheWaySwappedForASymlinkOutIsNotFollowed() throws Exception {
        Files.createDirectory(root.resolve("sub"));
        Files.writeString(root.resolve("sub/f"), "inside");
        Files.writeString(outside.resolve("f"), "outside");
        DataDirectory.DeletionTarget target = data.deletionTarget("sub/f");
        Files.move(root.resolve("sub"), root.resolve("moved"));
        Files.createSymbolicLink(root.resolve("sub"), outside);

        assertThatThrownBy(() -> data.remove(target)).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("sub/f").hasMessageContaining("no longer a directory");
        assertThat(outside.resolve("f")).hasContent("outside");
        assertThat(root.resolve("moved/f")).hasContent("inside");
    }

    /**
     * No race needed: a symlink (to a file inside) reached through a directory symlink that leads out passed the
     * real-path check, and the link out there was removed. Refused as every name leading out is.
     */
    @Test
    void aSymlinkWhoseDirectoryLeadsOutIsRefusedAndStays() throws Exception {
        Files.writeString(root.resolve("real.txt"), "real");
        Path link = Files.createSymbolicLink(outside.resolve("alias"), root.resolve("real.txt"));
        Files.createSymbolicLink(root.resolve("out"), outside);

        assertThatThrownBy(() -> data.delete("out/alias")).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("resolves outside the data directory");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(root.resolve("real.txt")).hasContent("real");
    }

    /** The record's name is the server's, a directory there is not: the old removal rmdir'ed it with the file. */
    @Test
    void aDirectoryWhereTheRecordWouldBeStaysAndTheFileIsDeleted() throws Exception {
        Files.writeString(root.resolve("f"), "file");
        Path notARecord = Files.createDirectory(root.resolve(ChecksumRecordName.of("f")));

        data.delete("f");
        assertThat(Files.exists(root.resolve("f"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(notARecord).isDirectory();
    }

    /**
     * The checks go by path, the removal by the held directory: with the path leading elsewhere they would disagree, so
     * it is refused, as a generation is. The old removal, by path, removed the file where the path led.
     */
    @Test
    void aDeleteWhoseDirectoryPathLeadsElsewhereIsRefusedAndRemovesNothing() throws Exception {
        Files.writeString(root.resolve("f"), "opened directory");
        Files.move(root, tmp.resolve("moved"));
        // Another directory at the same path (a symlink there would lead the checks outside: refused before this).
        Path elsewhere = Files.createDirectory(root);
        Files.writeString(elsewhere.resolve("f"), "elsewhere");

        assertThatThrownBy(() -> data.delete("f")).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("no longer leads to the directory the server opened");
        assertThat(elsewhere.resolve("f")).hasContent("elsewhere");
        assertThat(tmp.resolve("moved/f")).hasContent("opened directory");
    }
}
