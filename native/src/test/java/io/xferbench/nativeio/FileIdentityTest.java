package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;

class FileIdentityTest {

    @Test
    void aFileSystemWithoutGenerationsIsAskedOnceAndIdentitiesStillTellFilesApart() throws Exception {
        Path shm = Path.of("/dev/shm");
        NativeAssumptions.assumeAvailable("a file system without generations", Files.isDirectory(shm)
                && Files.getFileStore(shm).type().equals("tmpfs"), "no tmpfs at /dev/shm");
        Path a = Files.createTempFile(shm, "xferbench-identity-", ".bin");
        Path b = Files.createTempFile(shm, "xferbench-identity-", ".bin");
        try (FileChannel ca = FileChannel.open(a, StandardOpenOption.READ); FileChannel cb = FileChannel.open(b, StandardOpenOption.READ)) {
            FileIdentity first = FileIdentity.of(ca);
            assertThat(first.generation()).isZero(); // tmpfs has no FS_IOC_GETVERSION
            assertThat(FileIdentity.deviceWithoutGeneration(first)).isTrue();
            FileIdentity again = FileIdentity.of(ca);
            assertThat(again).isEqualTo(first);
            FileIdentity other = FileIdentity.of(cb);
            assertThat(other.sameInode(first)).isFalse();
        } finally {
            Files.deleteIfExists(a);
            Files.deleteIfExists(b);
        }
    }
}
