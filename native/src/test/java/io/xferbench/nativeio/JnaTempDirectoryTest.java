package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JNA extracts its library into a directory this JVM owns, gone once loaded; dead JVMs' ones are swept. */
class JnaTempDirectoryTest {

    @TempDir
    Path tmp;

    @Test
    void jnaInThisJvmExtractedIntoItsOwnDirectoryWhichIsGoneOnceLoaded() {
        assertThat(NativeSupport.unavailableReason()).isNull();   // binds libc, as every native call here does first
        Path own = JnaTempDirectory.parent().resolve(JnaTempDirectory.PREFIX + ProcessOwner.current());
        assertThat(System.getProperty(JnaTempDirectory.PROPERTY)).isEqualTo(own.toString());
        assertThat(own).as("the directory once JNA unlinked its library").doesNotExist();
    }

    @Test
    void sweepRemovesWhatAKilledJvmLeftAndNotALiveOnes() throws Exception {
        long pid = ProcessHandle.current().pid();
        // This pid with another start time: a JVM killed between JNA's extraction and its load, pid since reused.
        Path dead = Files.createDirectory(tmp.resolve(JnaTempDirectory.PREFIX + pid + ".1"));
        Files.writeString(dead.resolve("jna8711924772190672667.tmp"), "left by a SIGKILL");
        Path live = Files.createDirectory(tmp.resolve(JnaTempDirectory.PREFIX + ProcessOwner.current()));
        Path other = Files.createDirectory(tmp.resolve("xferbench-netty-" + pid + ".1"));

        assertThat(JnaTempDirectory.sweep(tmp)).containsExactly(dead);

        assertThat(dead).doesNotExist();
        assertThat(live).isDirectory();
        assertThat(other).as("another prefix is another owner's business").isDirectory();
    }
}
