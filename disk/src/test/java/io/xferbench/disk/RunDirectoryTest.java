package io.xferbench.disk;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.ProcessOwner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {
    private static final String PREFIX = "xferbench-disk-";

    @TempDir
    Path parent;

    @Test
    void aNewRunRemovesOnlyTheDirectoriesOfDeadRunsOfItsProgram() throws Exception {
        Path dead = Files.createDirectory(parent.resolve(PREFIX + deadOwner() + "-123"));
        Files.write(Files.createDirectories(dead.resolve("sub")).resolve("data"), new byte[4096]);
        Path target = Files.createFile(parent.resolve("outside"));
        Files.createSymbolicLink(dead.resolve("link"), target);
        long myPid = ProcessHandle.current().pid();
        Path pidReused = Files.createDirectory(parent.resolve(PREFIX + myPid + ".12345-456"));
        Path live = Files.createDirectory(parent.resolve(PREFIX + ProcessOwner.current() + "-789"));
        Path otherProgram = Files.createDirectory(parent.resolve("xferbench-pollution-" + deadOwner() + "-1"));
        Path noOwner = Files.createDirectory(parent.resolve(PREFIX + "manual"));

        Path mine = RunDirectory.create(parent, PREFIX);

        assertThat(dead).doesNotExist();
        assertThat(pidReused).doesNotExist();
        assertThat(target).exists();
        assertThat(live).isDirectory();
        assertThat(otherProgram).isDirectory();
        assertThat(noOwner).isDirectory();
        assertThat(mine).isDirectory();
        assertThat(mine.getFileName().toString()).startsWith(PREFIX + ProcessOwner.current() + "-");
        assertThat(RunDirectory.removeStale(parent, PREFIX)).isEmpty();

        RunDirectory.delete(mine);
        assertThat(mine).doesNotExist();
    }

    /** The owner part of a name ({@code <pid>.<start-millis>}) of a process that has exited. */
    static String deadOwner() throws Exception {
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        return dead.pid() + "." + dead.toHandle().info().startInstant().map(Instant::toEpochMilli).orElse(1L);
    }
}
