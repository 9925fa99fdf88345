package io.xferbench.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.uring.IoUring;
import io.xferbench.nativeio.uring.PinnedMemory;
import io.xferbench.nativeio.uring.UringProbe;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;

/**
 * A spec's ring flags reach the own-ring engines' io_uring_setup (seen in the flags the kernel reports for the ring),
 * the reads stay right with them, and a kernel that refuses them makes the row a skip with the probe's reason.
 */
class OwnRingFlagsTest {
    private static final OwnRingReads.Shape RAW = new OwnRingReads.Shape(false, false, false);
    private static final OwnRingReads.Shape SQPOLL = new OwnRingReads.Shape(true, false, false);
    private static final PinnedMemory PLENTY = new PinnedMemory(true, Long.MAX_VALUE);
    private static final ReadSpec SPEC = new ReadSpec(Path.of("/nonexistent"), 1 << 20, ReadPattern.SEQUENTIAL, 4096,
            4, 256, 42);

    @Test
    void theFlagsNameTheirCliSpellingAndNothingElse() {
        assertThat(RingFlags.named("single-issuer")).contains(RingFlags.SINGLE_ISSUER);
        assertThat(RingFlags.named("default")).contains(RingFlags.DEFAULT);
        assertThat(RingFlags.named("SINGLE_ISSUER")).isEmpty();
        assertThat(RingFlags.choices()).isEqualTo("default, single-issuer");
    }

    @Test
    void singleIssuerAddsDeferTaskrunExceptOnAnSqPollRing() {
        ReadSpec single = SPEC.withRingFlags(RingFlags.SINGLE_ISSUER);
        assertThat(RAW.options(SPEC).singleIssuer()).isFalse();
        assertThat(RAW.options(SPEC).deferTaskrun()).isFalse();
        assertThat(RAW.options(single).singleIssuer()).isTrue();
        assertThat(RAW.options(single).deferTaskrun()).isTrue();
        assertThat(SQPOLL.options(single).sqPoll()).isTrue();
        assertThat(SQPOLL.options(single).singleIssuer()).isTrue();
        assertThat(SQPOLL.options(single).deferTaskrun()).isFalse();
        assertThat(RAW.options(single).entries()).isEqualTo(SPEC.concurrency());
    }

    @Test
    void aKernelRefusingTheFlagsSkipsTheRowWithTheProbesReason() {
        UringProbe noDefer = new UringProbe(null, null, null, null, "no DEFER_TASKRUN here", null, null);
        UringProbe noSingle = new UringProbe(null, null, null, "no SINGLE_ISSUER here", "no SINGLE_ISSUER here", null, null);
        ReadSpec single = SPEC.withRingFlags(RingFlags.SINGLE_ISSUER);
        assertThat(OwnRingReads.unsupported(single, false, RAW, noDefer, PLENTY)).isEqualTo("no DEFER_TASKRUN here");
        assertThat(OwnRingReads.unsupported(single, false, SQPOLL, noDefer, PLENTY)).as("SQPOLL takes no DEFER_TASKRUN")
                .isNull();
        assertThat(OwnRingReads.unsupported(single, false, SQPOLL, noSingle, PLENTY)).isEqualTo("no SINGLE_ISSUER here");
        assertThat(OwnRingReads.unsupported(SPEC, false, RAW, noSingle, PLENTY)).as("the default asks for neither").isNull();
    }

    @Test
    void theRingIsSetUpWithTheSpecsFlagsAndReadsTheRightBytes() throws Exception {
        UringProbe probe = UringProbe.here();
        MethodAssumptions.assumeAvailable("io_uring with DEFER_TASKRUN", probe.ring() == null && probe.deferTaskrun() == null
                ? Availability.AVAILABLE : Availability.unavailable(probe.ring() != null ? probe.ring() : probe.deferTaskrun()));
        try (IoUring plain = OwnRingReads.open(SPEC, RAW);
             IoUring single = OwnRingReads.open(SPEC.withRingFlags(RingFlags.SINGLE_ISSUER), RAW)) {
            assertThat(plain.setupFlags()).doesNotContain("SINGLE_ISSUER", "DEFER_TASKRUN");
            assertThat(single.setupFlags()).contains("SINGLE_ISSUER", "DEFER_TASKRUN");
        }
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "own-ring-flags-");
        Path file = dir.resolve("f");
        try {
            long size = 1 << 20;
            ByteBuffer all = ByteBuffer.allocate((int) size);
            new ContentGenerator(7).fill(all, 0);
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                out.write(all.flip());
            }
            for (ReadPattern pattern : ReadPattern.values()) {
                ReadSpec spec = new ReadSpec(file, size, pattern, 64 << 10, 4, 64, 42).withRingFlags(RingFlags.SINGLE_ISSUER);
                for (String name : new String[] {"uring-raw", "uring-fixed"}) {
                    ReadEngine engine = ReadEngines.named(name).orElseThrow();
                    String skip = engine.unsupported(spec);
                    if (skip != null) {
                        continue; // registered buffers or files refused here: the probe's reason, tested elsewhere
                    }
                    assertThat(engine.read(spec, LatencySink.NONE).digest()).as(name + " " + pattern)
                            .isEqualTo(ExpectedContent.digest(new ContentGenerator(7), spec));
                }
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }
}
