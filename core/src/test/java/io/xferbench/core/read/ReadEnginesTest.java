package io.xferbench.core.read;

import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Every engine reads the right bytes for both patterns, and a corrupted block changes its digest. */
class ReadEnginesTest {
    private static final long SEED = 0x5EEDF11EL;
    private static final long SIZE = 2 << 20;
    private static final int BLOCK = 64 << 10;
    private static Path dir;
    private static Path good;
    private static Path corrupt;

    @BeforeAll
    static void files() throws IOException {
        // Under the build directory, not /tmp: O_DIRECT needs a disk file system (tmpfs refuses it).
        dir = Files.createTempDirectory(Path.of("target"), "read-engines-");
        good = write(dir.resolve("good"), -1);
        corrupt = write(dir.resolve("corrupt"), SIZE - 12345);
    }

    @AfterAll
    static void cleanUp() throws IOException {
        Files.deleteIfExists(good);
        Files.deleteIfExists(corrupt);
        Files.deleteIfExists(dir);
    }

    static Stream<Arguments> cases() {
        return ReadEngines.all().stream().flatMap(e -> Stream.of(ReadPattern.values()).map(p -> Arguments.of(e.name(), p)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void readsTheRightBytesAndDetectsCorruption(String name, ReadPattern pattern) throws IOException {
        ReadEngine engine = ReadEngines.named(name).orElseThrow();
        ReadSpec spec = new ReadSpec(good, SIZE, pattern, BLOCK, 3, 200, 42);
        assumeRuns(engine, spec);
        long expected = ExpectedContent.digest(new ContentGenerator(SEED), spec);

        ReadOutcome outcome = engine.read(spec, nanos -> Assertions.assertTrue(nanos >= 0));
        assertEquals(spec.plan().ops(), outcome.ops());
        assertEquals(expected, outcome.digest(), name + " read different bytes than were written");

        // Sequential covers the corrupted byte; random with this seed too (200 draws of 32 blocks).
        ReadSpec bad = new ReadSpec(corrupt, SIZE, pattern, BLOCK, 3, 200, 42);
        assertNotEquals(expected, engine.read(bad, LatencySink.NONE).digest(), name + " missed a corrupted byte");
    }

    private static void assumeRuns(ReadEngine engine, ReadSpec spec) {
        MethodAssumptions.assumeAvailable(engine.name(), new Availability(engine.unsupported(spec)));
    }

    private static Path write(Path path, long corruptAt) throws IOException {
        ByteBuffer all = ByteBuffer.allocate((int) SIZE);
        new ContentGenerator(SEED).fill(all, 0);
        if (corruptAt >= 0) {
            all.put((int) corruptAt, (byte) (all.get((int) corruptAt) ^ 1));
        }
        all.flip();
        try (FileChannel out = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (all.hasRemaining()) {
                out.write(all);
            }
            out.force(false);
        }
        return path;
    }
}
