package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TempFilesTest {
    @TempDir
    Path root;

    @Test
    void onlyTempFilesOfDeadOwnersAreRemoved() throws Exception {
        String deadOwner = deadOwner();
        Path sub = Files.createDirectories(root.resolve("sub"));
        Path fromDead = Files.write(sub.resolve(".tmp-" + deadOwner + "-up.bin-1a"), new byte[1234]);
        Path mine = Files.createFile(TempFiles.next(root, "mine.bin"));
        long myPid = ProcessHandle.current().pid();
        Path pidReused = Files.createFile(root.resolve(".tmp-" + myPid + ".12345-old.bin-2b"));
        Path legacyOld = Files.createFile(root.resolve(".tmp-xferbench-10.dat-3c"));
        Files.setLastModifiedTime(legacyOld, FileTime.from(Instant.now().minus(TempFiles.LEGACY_AGE).minusSeconds(60)));
        Path legacyFresh = Files.createFile(root.resolve(".tmp-xferbench-11.dat-4d"));
        Path lookalike = Files.createFile(root.resolve("tmp-not-ours.bin"));
        Path hiddenOther = Files.createFile(root.resolve(".tmpfile"));

        var removed = TempFiles.removeStale(root);

        assertThat(removed).extracting(TempFiles.Removed::path).containsExactlyInAnyOrder(fromDead, pidReused, legacyOld);
        assertThat(removed).filteredOn(r -> r.path().equals(fromDead)).extracting(TempFiles.Removed::bytes).containsExactly(1234L);
        assertThat(mine).exists();
        assertThat(legacyFresh).exists();
        assertThat(lookalike).exists();
        assertThat(hiddenOther).exists();
    }

    /** What a killed run of any program left while making one file: the next run making it removes that, only that. */
    @Test
    void aGeneratorRemovesWhatADeadOneLeftForTheSameFile() throws Exception {
        String deadOwner = deadOwner();
        String owner = ".tmp-" + deadOwner;
        Path partial = Files.write(root.resolve(owner + "-xferbench-4096.dat-1a"), new byte[100]);
        Path otherFile = Files.createFile(root.resolve(owner + "-xferbench-8192.dat-2b"));
        Path live = Files.createFile(TempFiles.next(root, "xferbench-4096.dat"));
        Path deeper = Files.createFile(Files.createDirectories(root.resolve("sub")).resolve(owner + "-xferbench-4096.dat-3c"));

        var removed = TempFiles.removeStale(root, "xferbench-4096.dat");

        assertThat(removed).extracting(TempFiles.Removed::path).containsExactly(partial);
        assertThat(otherFile).exists();
        assertThat(live).exists();
        assertThat(deeper).exists();
    }

    @Test
    void generatingAFileRemovesADeadGeneratorsPartialCopy() throws Exception {
        String deadOwner = deadOwner();
        Path partial = Files.write(root.resolve(".tmp-" + deadOwner + "-xferbench-4096.dat-1a"), new byte[100]);

        TestFile file = new DataDirectory(root).generated(4096);

        assertThat(file.size()).isEqualTo(4096);
        assertThat(partial).doesNotExist();
    }

    /** The owner part of a temp name ({@code <pid>.<start-millis>}) of a process that has exited. */
    private static String deadOwner() throws Exception {
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        return dead.pid() + "." + dead.toHandle().info().startInstant().map(Instant::toEpochMilli).orElse(1L);
    }
}
