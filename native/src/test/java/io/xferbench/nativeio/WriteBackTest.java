package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link WriteBack}: after it, a store through a shared mapping moves the file's identity, even within one tick. */
class WriteBackTest {
    @TempDir
    Path dir;

    @Test
    void aStoreToAPageWrittenBackMovesTheIdentityWhereAStoreToADirtyPageDoesNot() throws Exception {
        NativeAssumptions.assumeAvailable("write-protecting writeback", !Files.getFileStore(dir).type().equals("tmpfs"),
                "tmpfs does not write-protect shared pages");
        String[] v = System.getProperty("os.version").split("[.-]");
        int major = Integer.parseInt(v[0]);
        int minor = Integer.parseInt(v[1]);
        // Before multigrain timestamps the store after writeback may land in the first store's clock tick.
        NativeAssumptions.assumeAvailable("multigrain timestamps", major > 6 || (major == 6 && minor >= 13),
                "no multigrain timestamps before Linux 6.13");
        Path f = dir.resolve("f");
        Files.write(f, new byte[8192]);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8192);
            map.put(0, (byte) 1);
            FileIdentity dirty = FileIdentity.of(ch);
            map.put(1, (byte) 2);
            assertThat(FileIdentity.of(ch)).as("no fault, no new times: why this class exists").isEqualTo(dirty);

            WriteBack.dirtyPages(ch, "f");
            FileIdentity clean = FileIdentity.of(ch);
            map.put(2, (byte) 3);
            assertThat(FileIdentity.of(ch)).isNotEqualTo(clean);
        }
    }

    @Test
    void aPipeIsRefusedWithItsErrno() throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        try (FileChannel ch = FileChannel.open(dir.resolve("fifo"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            assertThatThrownBy(() -> WriteBack.dirtyPages(ch, "fifo"))
                    .isInstanceOf(NativeException.class).hasMessageStartingWith("sync_file_range(fifo): ESPIPE");
        }
    }
}
