package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static io.xferbench.core.testing.MappedStores.assumeStoresAfterWritebackMoveCtime;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file rewritten in place through a shared mapping: the second store to a page already dirty does not fault and
 * moves none of size, mtime, ctime, so a record taken while the page was dirty and writable kept matching new bytes.
 */
class MappedStoreRecordTest {
    @TempDir
    Path dir;

    private static int crc(Path file) throws Exception {
        CRC32C c = new CRC32C();
        c.update(Files.readAllBytes(file));
        return (int) c.getValue();
    }

    @Test
    void theSecondStoreToADirtyPageIsNotAnnouncedWithTheChecksumOfTheFirstFromMemory() throws Exception {
        storeTwiceAndCheck(false);
    }

    @Test
    void theSecondStoreToADirtyPageIsNotAnnouncedWithTheChecksumOfTheFirstAfterARestart() throws Exception {
        storeTwiceAndCheck(true);
    }

    private void storeTwiceAndCheck(boolean restart) throws Exception {
        assumeStoresAfterWritebackMoveCtime(dir);
        Path file = dir.resolve("m.bin");
        byte[] bytes = new byte[64 * 1024];
        new Random(5).nextBytes(bytes);
        Files.write(file, bytes);
        try (DataDirectory data = new DataDirectory(dir);
             FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            assertThat(data.existing("m.bin").crc32c()).isEqualTo(crc(file));
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes.length);
            map.put(0, (byte) (bytes[0] + 1));
            // Recorded again (the first store faulted and moved the ctime), with the page dirty and writable.
            assertThat(data.existing("m.bin").crc32c()).isEqualTo(crc(file));
            map.put(1, (byte) (bytes[1] + 1));
            if (restart) {
                try (DataDirectory restarted = new DataDirectory(dir)) {
                    assertThat(restarted.existing("m.bin").crc32c()).as("from the record file").isEqualTo(crc(file));
                }
            } else {
                assertThat(data.existing("m.bin").crc32c()).as("from memory").isEqualTo(crc(file));
            }
        }
    }
}
