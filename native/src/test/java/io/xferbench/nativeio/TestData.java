package io.xferbench.nativeio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.CRC32C;

/** Pseudo-random test content: zeros would hide reads from the wrong offset and holes. */
final class TestData {
    private TestData() {
    }

    static byte[] bytes(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    static Path file(Path path, int size, long seed) throws IOException {
        return Files.write(path, bytes(size, seed));
    }

    static long crc32c(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data);
        return crc.getValue();
    }
}
