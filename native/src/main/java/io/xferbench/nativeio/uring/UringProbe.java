package io.xferbench.nativeio.uring;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.Fds;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * What this kernel, JDK and sandbox let a ring of the suite's own do, each option tried once on a small ring (a
 * kernel version says little: sysctls, seccomp filters and rlimits decide as much). Each field is null when the
 * option works here, else the reason, fit for a "skipped:" column. Computed once per JVM.
 */
public record UringProbe(String ring, String sqPoll, String sqPollPlainFiles, String singleIssuer, String deferTaskrun,
        String fixedBuffers, String fixedFiles) {
    /** Bytes the probe registers: one 64 KiB buffer, enough to meet a small RLIMIT_MEMLOCK's refusal early. */
    private static final int PROBE_BUFFER = 64 * 1024;

    private static final class Holder {
        static final UringProbe RESULT = run();
    }

    public static UringProbe here() {
        return Holder.RESULT;
    }

    static UringProbe run() {
        String ring = tryRing(RingOptions.plain(4));
        if (ring != null) {
            return new UringProbe(ring, ring, ring, ring, ring, ring, ring);
        }
        String sqPoll;
        String sqPollPlainFiles;
        try (IoUring r = IoUring.open(RingOptions.plain(4).withSqPoll(10))) {
            sqPoll = null;
            sqPollPlainFiles = r.sqPollTakesPlainFiles() ? null
                    : "an SQPOLL ring reads registered files only here (no IORING_FEAT_SQPOLL_NONFIXED, Linux < 5.11)";
        } catch (NativeException e) {
            sqPoll = e.getMessage();
            sqPollPlainFiles = sqPoll;
        }
        String singleIssuer = tryRing(RingOptions.plain(4).withSingleIssuer(false));
        String deferTaskrun = tryRing(RingOptions.plain(4).withSingleIssuer(true));
        String fixedBuffers;
        String fixedFiles;
        try (IoUring r = IoUring.open(RingOptions.plain(4))) {
            fixedBuffers = register(() -> r.registerBuffers(List.of(AlignedBuffers.allocate(PROBE_BUFFER, 4096))));
            fixedFiles = registerNull(r);
        } catch (NativeException e) {
            fixedBuffers = e.getMessage();
            fixedFiles = e.getMessage();
        }
        return new UringProbe(null, sqPoll, sqPollPlainFiles, singleIssuer, deferTaskrun, fixedBuffers, fixedFiles);
    }

    private interface Registration {
        AutoCloseable register() throws NativeException;
    }

    private static String register(Registration registration) {
        try {
            registration.register();
            return null;
        } catch (NativeException e) {
            return e.getMessage();
        }
    }

    /** Registers /dev/null: any file will do (the kernel refuses a ring's own descriptor). */
    private static String registerNull(IoUring r) {
        try (FileChannel devNull = FileChannel.open(Path.of("/dev/null"), StandardOpenOption.READ)) {
            return register(() -> r.registerFiles(Fds.of(devNull)));
        } catch (IOException e) {
            return "cannot open /dev/null to try: " + e.getMessage();
        }
    }

    private static String tryRing(RingOptions options) {
        try (IoUring ignored = IoUring.open(options)) {
            return null;
        } catch (NativeException e) {
            return e.getMessage();
        }
    }

    /** One line per option: "sqpoll: yes", "fixed buffers: no (io_uring_register...)". */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        line(lines, "ring", ring);
        line(lines, "SQPOLL", sqPoll);
        line(lines, "SQPOLL on plain descriptors", sqPollPlainFiles);
        line(lines, "SINGLE_ISSUER", singleIssuer);
        line(lines, "DEFER_TASKRUN", deferTaskrun);
        line(lines, "registered buffers", fixedBuffers);
        line(lines, "registered files", fixedFiles);
        return lines;
    }

    private static void line(List<String> lines, String what, String reason) {
        lines.add(what + ": " + (reason == null ? "yes" : "no (" + reason + ")"));
    }
}
