package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void generatedFileHasTheRecordedCrcAndIsReused() throws Exception {
        DataDirectory data = new DataDirectory(tmp.resolve("data"));
        TestFile f = data.generated(3 * 1024 * 1024 + 5);
        byte[] bytes = Files.readAllBytes(f.path());
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        assertThat(bytes).hasSize(3 * 1024 * 1024 + 5);
        assertThat(f.crc32c()).isEqualTo((int) crc.getValue());

        long mtime = Files.getLastModifiedTime(f.path()).toMillis();
        Thread.sleep(20);
        assertThat(data.generated(3 * 1024 * 1024 + 5)).isEqualTo(f);
        assertThat(Files.getLastModifiedTime(f.path()).toMillis()).as("not rewritten").isEqualTo(mtime);
        try (var files = Files.list(data.root())) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".tmp-"));
        }
    }

    /** Hundreds of connections download the same generated file: opening it once it is there must not queue on a lock. */
    @Test
    void aGeneratedFileThatIsThereOpensWhileItsGenerationLockIsHeld() throws Exception {
        DataDirectory data = new DataDirectory(tmp.resolve("data"));
        TestFile f = data.generated(4096);
        ReentrantLock lock = data.generationLock(f.path().getFileName().toString());
        ExecutorService other = Executors.newSingleThreadExecutor();
        lock.lock();
        try {
            Future<TestFile> opened = other.submit(() -> data.generated(4096));
            assertThat(opened.get(10, TimeUnit.SECONDS)).isEqualTo(f);
        } finally {
            // Released before the executor is closed, so a failure ends the test instead of hanging it.
            lock.unlock();
            other.close();
        }
    }

    @Test
    void staleSidecarIsRecomputed() throws Exception {
        DataDirectory data = new DataDirectory(tmp);
        Path user = Files.write(tmp.resolve("user.bin"), new byte[] {1, 2, 3});
        TestFile first = data.existing("user.bin");
        Files.write(user, new byte[] {4, 5, 6, 7});
        TestFile second = data.existing("user.bin");
        CRC32C crc = new CRC32C();
        crc.update(new byte[] {4, 5, 6, 7});
        assertThat(second.size()).isEqualTo(4);
        assertThat(second.crc32c()).isEqualTo((int) crc.getValue()).isNotEqualTo(first.crc32c());
    }

    @Test
    void namesThatLeaveTheDirectoryAreRefused() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Path outside = Files.writeString(tmp.resolve("secret.txt"), "secret");
        Files.createSymbolicLink(root.resolve("link"), outside);
        Files.createDirectories(root.resolve("sub"));
        Files.createSymbolicLink(root.resolve("sub/up"), tmp);
        DataDirectory data = new DataDirectory(root);

        for (String name : new String[] {"../secret.txt", "/etc/passwd", "sub/../../secret.txt", "link", "sub/up/secret.txt",
                "a\0b", "", ".", "..", "sub//x", ".hidden", "a\\..\\b"}) {
            assertThatThrownBy(() -> data.existing(name)).as(name.replace('\0', '0')).isInstanceOf(AccessDeniedException.class);
        }
        assertThatThrownBy(() -> data.resolveNew("link")).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> data.resolveNew("sub/up/new.txt")).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> data.resolveNew("../new.txt")).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> data.existing("sub")).isInstanceOf(AccessDeniedException.class).hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> data.existing("missing.dat")).isInstanceOf(NoSuchFileException.class);
        assertThat(Files.readString(outside)).isEqualTo("secret");
        assertThat(data.resolveNew("sub/new.txt")).isEqualTo(root.toRealPath().resolve("sub/new.txt"));
        assertThat(data.resolveNew("new.txt")).isEqualTo(root.toRealPath().resolve("new.txt"));
        assertThatThrownBy(() -> data.resolveNew("sub")).isInstanceOf(AccessDeniedException.class).hasMessageContaining("is a directory");
        assertThatThrownBy(() -> data.resolveNew("link")).hasMessageContaining("is a symbolic link");
    }

    /**
     * A generated file's name in the directory itself is the server's: no upload may take it and no DELETE remove it,
     * however the client names it (through a symlink back to the directory too); the same name in a subdirectory, and
     * names no size generates, are anyone's.
     */
    @Test
    void generatedNamesAreRefusedForUploadsAndDeletes() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Files.createDirectories(root.resolve("sub"));
        Files.createSymbolicLink(root.resolve("back"), Path.of("."));
        DataDirectory data = new DataDirectory(root);
        data.generated(4096);
        for (String name : new String[] {"xferbench-4096.dat", "xferbench-0.dat", "xferbench-65536.dat", "back/xferbench-4096.dat",
                "xferbench-" + Long.MAX_VALUE + ".dat"}) {
            assertThatThrownBy(() -> data.resolveNew(name)).as(name).isInstanceOf(AccessDeniedException.class)
                    .hasMessage(name + ": the name of a generated test file, reserved for the server");
            assertThatThrownBy(() -> data.delete(name)).as(name).isInstanceOf(AccessDeniedException.class)
                    .hasMessage(name + ": the name of a generated test file, reserved for the server");
        }
        assertThat(root.resolve("xferbench-4096.dat")).exists();
        assertThat(data.generated(4096).crc32c()).isEqualTo(GeneratedChecksums.of(4096));
        for (String name : new String[] {"sub/xferbench-4096.dat", "xferbench-04096.dat", "xferbench-+1.dat", "xferbench--1.dat",
                "xferbench-.dat", "xferbench-1.dat.part", "Xferbench-1.dat", "xferbench-99999999999999999999.dat"}) {
            assertThat(data.resolveNew(name)).as(name).isEqualTo(root.toRealPath().resolve(name));
        }
        Files.writeString(root.resolve("sub/xferbench-4096.dat"), "mine");
        data.delete("sub/xferbench-4096.dat");
        assertThat(root.resolve("sub/xferbench-4096.dat")).doesNotExist();
    }

    /** A single name takes the descriptor route; a symlink there the real-path route, which still serves one inside. */
    /**
     * A new name under a regular file is refused as such, naming what was asked: the JDK's lstat of it says "absent"
     * (ENOTDIR), and the upload went on to fail at its temp file, whose name it told.
     */
    @Test
    void aNewNameUnderARegularFileIsRefusedNamingWhatWasAsked() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(Files.createDirectories(root.resolve("sub")).resolve("base"), "a regular file");
        Files.writeString(root.resolve("base"), "a regular file");
        DataDirectory data = new DataDirectory(root);
        assertThatThrownBy(() -> data.resolveNew("base/x")).isExactlyInstanceOf(FileSystemException.class)
                .hasMessage("base/x: base is not a directory");
        assertThatThrownBy(() -> data.resolveNew("sub/base/x")).isExactlyInstanceOf(FileSystemException.class)
                .hasMessage("sub/base/x: sub/base is not a directory");
        data.close();
    }

    /**
     * A regular file further up than the parent (a/b/x under a file a): the parent's real path failed with the JDK's
     * own wording ("a/b: Not a directory"), naming neither what was asked nor which component is the file.
     */
    @Test
    void aNewNameUnderARegularFileFurtherUpIsRefusedNamingThatFile() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(Files.createDirectories(root.resolve("sub")).resolve("base"), "a regular file");
        Files.writeString(root.resolve("base"), "a regular file");
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("base"));
        Files.createSymbolicLink(root.resolve("out"), Files.writeString(tmp.resolve("secret.txt"), "secret"));
        DataDirectory data = new DataDirectory(root);
        assertThatThrownBy(() -> data.resolveNew("base/b/x")).isExactlyInstanceOf(FileSystemException.class)
                .hasMessage("base/b/x: base is not a directory");
        assertThatThrownBy(() -> data.resolveNew("sub/base/b/c/x")).isExactlyInstanceOf(FileSystemException.class)
                .hasMessage("sub/base/b/c/x: sub/base is not a directory");
        // A symlink to a file inside is a file as far as the name goes; one leading outside is refused as leaving.
        assertThatThrownBy(() -> data.resolveNew("alias/b/x")).isExactlyInstanceOf(FileSystemException.class)
                .hasMessage("alias/b/x: alias is not a directory");
        assertThatThrownBy(() -> data.resolveNew("out/b/x")).isInstanceOf(AccessDeniedException.class)
                .hasMessage("out/b/x: resolves outside the data directory");
        // Absence further up stays absence.
        assertThatThrownBy(() -> data.resolveNew("missing/b/x")).isInstanceOf(NoSuchFileException.class);
        data.close();
    }

    /**
     * A name that does not resolve is judged by what exists of it, as one that resolves is by its real path. Under a
     * symlink to a directory outside, STAT said absent or FORBIDDEN by whether the file existed out there (and DELETE
     * NOT_FOUND or FORBIDDEN, an upload NOT_FOUND): now FORBIDDEN either way. Under a symlink to a file outside it was
     * the JDK's "Not a directory"; under a regular file inside it named no component.
     */
    @Test
    void namesThatDoNotResolveAreJudgedByWhatExistsOfThem() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("present.txt"), "secret");
        Files.createSymbolicLink(root.resolve("outdir"), outside);
        Files.createSymbolicLink(root.resolve("outfile"), outside.resolve("present.txt"));
        Files.createSymbolicLink(root.resolve("relative-out"), Path.of("../outside"));
        Files.writeString(Files.createDirectories(root.resolve("dir/inner")).resolve("f"), "x");
        Files.writeString(root.resolve("dir/file"), "x");
        Files.createSymbolicLink(root.resolve("up-and-back"), Path.of("../data/dir"));
        Files.createSymbolicLink(root.resolve("dangling"), Path.of("nothing"));
        Files.createSymbolicLink(root.resolve("loop"), Path.of("loop"));
        DataDirectory data = new DataDirectory(root);
        Files.createDirectories(root.resolve(DataDirectory.UPLOADS));
        Files.createSymbolicLink(root.resolve("into-uploads"), root.resolve(DataDirectory.UPLOADS));

        for (String name : new String[] {"outdir/absent.txt", "outdir/absent/deeper", "relative-out/absent.txt", "outfile/x"}) {
            assertThatThrownBy(() -> data.stat(name)).as("STAT " + name).isInstanceOf(AccessDeniedException.class)
                    .hasMessage(name + ": resolves outside the data directory");
            assertThatThrownBy(() -> data.delete(name)).as("DELETE " + name).isInstanceOf(AccessDeniedException.class)
                    .hasMessage(name + ": resolves outside the data directory");
            assertThatThrownBy(() -> data.existing(name)).as("download " + name).isInstanceOf(AccessDeniedException.class);
        }
        assertThatThrownBy(() -> data.stat("outdir/present.txt")).isInstanceOf(AccessDeniedException.class)
                .hasMessage("outdir/present.txt: resolves outside the data directory");
        assertThatThrownBy(() -> data.resolveNew("outdir/absent/x")).isInstanceOf(AccessDeniedException.class)
                .hasMessage("outdir/absent/x: resolves outside the data directory");
        assertThatThrownBy(() -> data.stat("into-uploads/absent")).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("hidden name");

        for (String name : new String[] {"dir/file/x", "up-and-back/file/x"}) {
            String prefix = name.substring(0, name.lastIndexOf('/'));
            assertThatThrownBy(() -> data.stat(name)).isExactlyInstanceOf(FileSystemException.class)
                    .hasMessage(name + ": " + prefix + " is not a directory");
            assertThatThrownBy(() -> data.delete(name)).isExactlyInstanceOf(FileSystemException.class)
                    .hasMessage(name + ": " + prefix + " is not a directory");
        }

        // Absence inside stays absence, through symlinks that stay inside (or leave and come back) too.
        for (String name : new String[] {"absent", "dir/absent", "dir/absent/deeper", "up-and-back/absent", "dangling", "dangling/x"}) {
            assertThat(data.stat(name)).as(name).isEqualTo(io.xferbench.core.protocol.FileStat.ABSENT);
            assertThatThrownBy(() -> data.delete(name)).as(name).isInstanceOf(NoSuchFileException.class);
        }
        assertThat(data.stat("up-and-back/inner/f").exists()).isTrue();
        assertThatThrownBy(() -> data.stat("loop/x")).as("a loop keeps its own answer").isExactlyInstanceOf(FileSystemException.class)
                .hasMessageContaining("loop/x");
        data.close();
    }

    @Test
    void aSymlinkToAFileInsideIsStillServedAndOneToAFileOutsideIsNot() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(root.resolve("real.txt"), "inside");
        Files.createSymbolicLink(root.resolve("alias.txt"), root.resolve("real.txt"));
        Files.createSymbolicLink(root.resolve("out.txt"), Files.writeString(tmp.resolve("secret.txt"), "secret"));
        DataDirectory data = new DataDirectory(root);

        TestFile alias = data.existing("alias.txt");
        assertThat(alias.size()).isEqualTo(6);
        assertThat(alias.path()).isEqualTo(root.toRealPath().resolve("real.txt"));
        assertThatThrownBy(() -> data.existing("out.txt")).isInstanceOf(AccessDeniedException.class);
    }

    /**
     * Single names are looked up in the directory the server opened, not through its path: a path that later leads
     * elsewhere (the directory moved, a symlink to another in its place) does not let a name reach that other file.
     */
    @Test
    void aSingleNameStaysInTheOpenedDirectoryWhenItsPathIsRedirected() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(root.resolve("f.txt"), "inside");
        Files.writeString(root.resolve("g.txt"), "never asked for before the move");
        DataDirectory data = new DataDirectory(root);
        TestFile before = data.existing("f.txt");
        Files.createDirectory(root.resolve(DataDirectory.UPLOADS)); // made by a first upload (by path, so checked then)

        Files.move(root, tmp.resolve("moved"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("f.txt"), "ELSEWHERE, 9 bytes more");
        Files.createSymbolicLink(root, elsewhere);

        TestFile after = data.existing("f.txt");
        assertThat(after.size()).isEqualTo(6);
        assertThat(after.crc32c()).isEqualTo(before.crc32c());
        // Without a record in memory the record file would be looked up through the redirected path: refused.
        Files.writeString(elsewhere.resolve("g.txt"), "elsewhere");
        assertThatThrownBy(() -> data.existing("g.txt")).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("no longer leads");
        assertThat(elsewhere.resolve(".g.txt.crc32c")).doesNotExist();
        // An upload's temp file, rename and record go by descriptor: a single name lands in the opened directory.
        Path target = data.resolveNew("new.txt");
        try (UploadTemp t = data.createUploadTemp(target)) {
            t.channel().write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}));
            data.placeUpload(t, target, false);
        }
        assertThat(tmp.resolve("moved/new.txt")).hasBinaryContent(new byte[] {1, 2, 3});
        assertThat(elsewhere.resolve("new.txt")).doesNotExist();
        try (var left = Files.list(tmp.resolve("moved").resolve(DataDirectory.UPLOADS))) {
            assertThat(left).isEmpty();
        }
    }

    /**
     * The first upload makes the uploads directory from the held descriptor (mkdirat), so it goes on in the opened
     * directory while the path leads elsewhere, as later uploads do; by path it was refused ("no longer leads").
     */
    @Test
    void theFirstUploadMakesItsTempDirectoryInTheOpenedDirectoryWhenItsPathIsRedirected() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        DataDirectory data = new DataDirectory(root);
        Files.move(root, tmp.resolve("moved"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(root, elsewhere);

        Path target = data.resolveNew("new.txt");
        try (UploadTemp t = data.createUploadTemp(target)) {
            t.channel().write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}));
            data.placeUpload(t, target, false);
        }
        assertThat(tmp.resolve("moved/new.txt")).hasBinaryContent(new byte[] {1, 2, 3});
        assertThat(Files.isDirectory(tmp.resolve("moved").resolve(DataDirectory.UPLOADS), java.nio.file.LinkOption.NOFOLLOW_LINKS))
                .isTrue();
        try (var left = Files.list(tmp.resolve("moved").resolve(DataDirectory.UPLOADS)); var there = Files.list(elsewhere)) {
            assertThat(left).isEmpty();
            assertThat(there).as("nothing made where the path leads now").isEmpty();
        }
    }

    /**
     * An upload into the directory itself is created in the hidden uploads directory (another directory lock than the
     * one the rename takes), one into a subdirectory beside its target (a subdirectory may be another mount); neither
     * the uploads directory nor anything in it can be named, reached through a symlink, created in or deleted.
     */
    @Test
    void uploadTempFilesLiveInAHiddenDirectoryNoNameReaches() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Files.createDirectories(root.resolve("sub"));
        DataDirectory data = new DataDirectory(root);
        Path real = root.toRealPath();

        UploadTemp top = data.createUploadTemp(data.resolveNew("up.bin"));
        top.channel().close();
        assertThat(top.path().getParent()).isEqualTo(real.resolve(DataDirectory.UPLOADS));
        assertThat(top.path().getFileName().toString()).startsWith(".tmp-");
        assertThat(Files.isDirectory(real.resolve(DataDirectory.UPLOADS), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isTrue();
        UploadTemp nested = data.createUploadTemp(data.resolveNew("sub/up.bin"));
        nested.channel().close();
        assertThat(nested.path().getParent()).isEqualTo(real.resolve("sub"));

        Files.createSymbolicLink(root.resolve("into"), root.resolve(DataDirectory.UPLOADS));
        Files.createSymbolicLink(root.resolve("temp"), top.path());
        String tmpName = top.path().getFileName().toString();
        for (String name : new String[] {DataDirectory.UPLOADS, DataDirectory.UPLOADS + "/" + tmpName, "into/" + tmpName, "temp"}) {
            assertThatThrownBy(() -> data.existing(name)).as(name).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> data.delete(name)).as(name).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> data.stat(name)).as(name).isInstanceOf(AccessDeniedException.class);
        }
        assertThatThrownBy(() -> data.resolveNew("into/new.bin")).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("reserved");
        assertThat(top.path()).exists();

        // Removed meanwhile: the next upload makes it again.
        Files.delete(top.path());
        Files.delete(root.resolve(DataDirectory.UPLOADS));
        UploadTemp again = data.createUploadTemp(data.resolveNew("up.bin"));
        again.channel().close();
        assertThat(again.path()).exists();
        for (UploadTemp t : new UploadTemp[] {top, nested, again}) {
            t.close();
        }
        assertThat(again.path()).doesNotExist();
        assertThat(nested.path()).doesNotExist();
    }

    /** A symlink (or a file) where the uploads directory belongs is refused: temp files never leave the directory. */
    @Test
    void anUploadsDirectoryThatIsASymlinkIsRefused() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(root.resolve(DataDirectory.UPLOADS), elsewhere);
        assertThatThrownBy(() -> new DataDirectory(root)).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("not a directory");

        Path other = Files.createDirectories(tmp.resolve("other"));
        DataDirectory data = new DataDirectory(other);
        Path target = data.resolveNew("up.bin");
        Files.writeString(other.resolve(DataDirectory.UPLOADS), "a file");
        assertThatThrownBy(() -> data.createUploadTemp(target)).isInstanceOf(java.io.IOException.class);
        try (var files = Files.list(elsewhere)) {
            assertThat(files).isEmpty();
        }
    }
}
