package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The setup flags a ring reports are the ones the kernel applied: a SINGLE_ISSUER ring refuses a submission from
 * another thread than the one that set it up (EEXIST), where a plain ring takes it.
 */
class UringSetupFlagsTest {
    @BeforeEach
    void ring() {
        UringTesting.assumeRing();
    }

    @Test
    void aPlainRingReportsNoIssuerFlagsAndTakesASubmissionFromAnyThread() throws Exception {
        try (IoUring ring = IoUring.open(RingOptions.plain(4))) {
            assertThat(ring.setupFlags()).containsExactly("CQSIZE");
            assertThat(submitFromAnotherThread(ring)).isNull();
        }
    }

    @Test
    void aSingleIssuerDeferTaskrunRingReportsBothAndTheKernelHoldsItToThem() throws Exception {
        NativeAssumptions.assumeAvailable("DEFER_TASKRUN", UringProbe.here().deferTaskrun() == null,
                UringProbe.here().deferTaskrun());
        try (IoUring ring = IoUring.open(RingOptions.plain(4).withSingleIssuer(true))) {
            assertThat(ring.setupFlags()).containsExactly("CQSIZE", "SINGLE_ISSUER", "DEFER_TASKRUN");
            Throwable refused = submitFromAnotherThread(ring);
            assertThat(refused).isInstanceOf(NativeException.class);
            assertThat(((NativeException) refused).errno()).isEqualTo(Errno.EEXIST);
        }
    }

    @Test
    void anSqPollRingWithSingleIssuerReportsItWithoutDeferTaskrun() throws Exception {
        NativeAssumptions.assumeAvailable("SQPOLL", UringProbe.here().sqPoll() == null, UringProbe.here().sqPoll());
        NativeAssumptions.assumeAvailable("SINGLE_ISSUER", UringProbe.here().singleIssuer() == null,
                UringProbe.here().singleIssuer());
        try (IoUring ring = IoUring.open(RingOptions.plain(4).withSqPoll(10).withSingleIssuer(false))) {
            assertThat(ring.setupFlags()).containsExactly("SQPOLL", "CQSIZE", "SINGLE_ISSUER");
        }
    }

    @Test
    void deferTaskrunWithSqPollIsRefusedBeforeTheKernelIsAsked() {
        assertThatThrownBy(() -> new RingOptions(4, true, 10, true, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("DEFER_TASKRUN and SQPOLL exclude each other");
    }

    /**
     * Queues one 4 KiB read of /dev/zero and hands it to the kernel from a new thread (then waits for it there when
     * it was taken); returns what that thread threw, or null.
     */
    private static Throwable submitFromAnotherThread(IoUring ring) throws Exception {
        ByteBuffer buffer = AlignedBuffers.allocate(4096, 4096);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try (FileChannel zero = FileChannel.open(Path.of("/dev/zero"), StandardOpenOption.READ)) {
            assertThat(ring.sq().read(Fds.of(zero), AlignedBuffers.address(buffer), 4096, 0, 1)).isTrue();
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    ring.submitAndWait(1);
                    ring.cq().reap((userData, result, flags) -> assertThat(result).isEqualTo(4096));
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            other.join();
        }
        return thrown.get();
    }
}
