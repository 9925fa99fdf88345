package io.xferbench.core.data;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The CRC32C of the generated file of each size ({@link DataDirectory#generated}), computed here from the generator,
 * once per size and JVM: what a client checks a download of a generated file against, rather than the checksum the
 * server announces, so that a file put in place of the generated one (an upload to its name) fails verification.
 */
public final class GeneratedChecksums {
    private static final ConcurrentHashMap<Long, Integer> BY_SIZE = new ConcurrentHashMap<>();

    private GeneratedChecksums() {
    }

    public static int of(long size) {
        return BY_SIZE.computeIfAbsent(size, s -> new ContentGenerator(DataDirectory.SEED).crc32c(s));
    }
}
