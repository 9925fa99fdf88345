package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.HeldDirectory;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;
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

    /**
     * unlinkat(2) refuses only a directory: a FIFO put at the checked name before it was removed with it. Now the name is
     * moved aside, what was moved is checked, and a FIFO is moved back and refused as a FIFO named in a DELETE is.
     */
    @Test
    void aFileSwappedForAFifoBeforeTheUnlinkKeepsTheFifoAndIsForbidden() throws Exception {
        Files.createDirectory(root.resolve("sub"));
        for (String name : new String[] {"f", "sub/f"}) {
            Path f = Files.writeString(root.resolve(name), "file");
            DataDirectory.DeletionTarget target = data.deletionTarget(name);
            Files.delete(f);
            mkfifo(f);

            assertThatThrownBy(() -> data.remove(target)).as(name).isInstanceOf(AccessDeniedException.class)
                    .hasMessage(name + ": not a regular file");
            assertThat(Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther()).as(name).isTrue();
            assertThat(hiddenEntries(f.getParent())).as("nothing left aside").isEmpty();
        }
    }

    /** A symlink at a name checked as a regular file: the link is not what was checked, so it stays (to a FIFO here). */
    @Test
    void aFileSwappedForASymlinkBeforeTheUnlinkKeepsTheLink() throws Exception {
        Path f = Files.writeString(root.resolve("f"), "file");
        Path fifo = root.resolve("fifo");
        mkfifo(fifo);
        DataDirectory.DeletionTarget target = data.deletionTarget("f");
        Files.delete(f);
        Files.createSymbolicLink(f, fifo);

        assertThatThrownBy(() -> data.remove(target)).isInstanceOf(AccessDeniedException.class).hasMessage("f: not a regular file");
        assertThat(Files.isSymbolicLink(f)).isTrue();
        assertThat(hiddenEntries(root)).isEmpty();
    }

    /**
     * Another regular file renamed over the checked name (an upload placed meanwhile) is deleted: a DELETE removes what
     * the name is when it acts, as rm(1) does.
     */
    @Test
    void anotherRegularFileRenamedOverTheNameIsDeleted() throws Exception {
        Path f = Files.writeString(root.resolve("f"), "old");
        DataDirectory.DeletionTarget target = data.deletionTarget("f");
        Files.move(Files.writeString(root.resolve("g"), "new"), f, StandardCopyOption.REPLACE_EXISTING);

        data.remove(target);
        assertThat(Files.exists(f, LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(hiddenEntries(root)).isEmpty();
    }

    /**
     * A FIFO moved aside whose name was taken before it could be put back stays at the private name: the move back
     * never replaces what took the name (a plain rename would have unlinked that).
     */
    @Test
    void whatCannotBePutBackStaysAsideAndTheNewEntryStays() throws Exception {
        Path taken = Files.writeString(root.resolve("f"), "took the name");
        Path aside = TempFiles.next(root, TempFiles.DELETING + "f");
        mkfifo(aside);
        try (HeldDirectory dir = HeldDirectory.beneath(data.directoryFd(), List.of(), "f")) {
            AsideUnlink.putBack(dir, aside.getFileName().toString(), "f", "f");
        }
        // The type first: reading a FIFO there would block.
        assertThat(Files.isRegularFile(taken, LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertThat(taken).hasContent("took the name");
        assertThat(Files.readAttributes(aside, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther()).isTrue();
        Files.delete(aside);
    }

    private static void mkfifo(Path p) throws Exception {
        assertThat(new ProcessBuilder("mkfifo", p.toString()).start().waitFor()).isZero();
    }

    /** The hidden entries of {@code dir}: where a removal's private name would stay behind. */
    private static List<String> hiddenEntries(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).toList();
        }
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
