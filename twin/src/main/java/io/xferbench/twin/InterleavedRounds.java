package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.process.ChildCommand;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures one method against its C twin: the warm-up sends of both sides, then round by round one Java send and
 * one C send (Java, C, Java, C...), the file resident before each; throughput is the drain's, so one piece of code
 * times both senders.
 */
final class InterleavedRounds {
    /** Largest whole-MiB length below Netty 4.2.18's int cast, for io-uring on files past 2 GiB. */
    static final long INT_SAFE_LENGTH = Integer.MAX_VALUE / Sizes.MiB * Sizes.MiB;

    private final TwinOptions options;
    private final Path file;
    private final ChildCommand jvm;
    private final TwinDrainProcess drain;
    private final CTwin cTwin;
    private final ResidencyGuard cache;

    InterleavedRounds(TwinOptions options, Path file, ChildCommand jvm, TwinDrainProcess drain, CTwin cTwin, ResidencyGuard cache) {
        this.options = options;
        this.file = file;
        this.jvm = jvm;
        this.drain = drain;
        this.cTwin = cTwin;
        this.cache = cache;
    }

    TwinRow measure(SenderMethod method) throws IOException, InterruptedException {
        String mode = TwinModes.BY_METHOD.get(method.id());
        String skipped = skipReason(method, mode);
        if (skipped != null) {
            System.out.println("twin: " + method.id() + " skipped: " + skipped);
            return TwinRow.skipped(method.id(), mode, skipped);
        }
        Span span = span(method);
        long length = span.length();
        System.out.println("twin: " + method.id() + " vs C " + mode + ", " + Sizes.format(length)
                + (span.note().isEmpty() ? "" : " (" + span.note() + ")"));

        String versus = options.versus() == null || options.versus().equals(mode) ? null : options.versus();
        Tally tally = new Tally();
        try (JavaSenderProcess java = JavaSenderProcess.start(jvm, method.id(), file, drain.port(), options.buffer(), length,
                options.warmup(), options.uringDepth())) {
            warmUp(java, mode, length);
            for (int r = 1; r <= options.rounds(); r++) {
                round(r, java, mode, versus, length, tally);
            }
        }
        return tally.row(method.id(), mode, length, span.note(), versus);
    }

    /** @return why {@code method} cannot be measured here, or null when it can */
    private String skipReason(SenderMethod method, String mode) {
        if (!method.availability().isAvailable()) {
            return method.availability().unavailableReason();
        }
        if (!cTwin.built(mode)) {
            return "C twin " + mode + " not built (liburing-dev missing: sudo apt-get install -y liburing-dev)";
        }
        return null;
    }

    /** How much of the file each send moves, and why when that is not all of it. */
    private record Span(long length, String note) {
    }

    /** The whole file, or its first {@link #INT_SAFE_LENGTH} bytes when {@code method} refuses the whole. */
    private Span span(SenderMethod method) throws IOException {
        long size = options.size();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             FileSender probe = method.newSender(new TransferOptions(options.buffer(), false))) {
            SourceFile source = new SourceFile(file, ch, size);
            try {
                probe.checkSupported(source, 0, size);
                return new Span(size, "");
            } catch (UnsupportedTransferException e) {
                long length = Math.min(size, INT_SAFE_LENGTH);
                probe.checkSupported(source, 0, length); // still refused: let it fail loudly
                return new Span(length, "first " + Sizes.format(length) + " only: " + e.getMessage());
            }
        }
    }

    /** The warm-up sends of both sides, received and discarded. */
    private void warmUp(JavaSenderProcess java, String mode, long length) throws IOException, InterruptedException {
        for (int i = 0; i < options.warmup(); i++) {
            java.awaitWarmupSend();
            drain.nextMibPerSecond(length); // warm-up sends are received and discarded
        }
        java.awaitReady();
        for (int i = 0; i < options.warmup(); i++) {
            cTwin.send(mode, length, drain.port()); // the C twin gets as many unmeasured sends
            drain.nextMibPerSecond(length);
        }
    }

    /** Round {@code r}: one Java send, one C send, and one of the {@code versus} twin unless null; printed. */
    private void round(int r, JavaSenderProcess java, String mode, String versus, long length, Tally tally)
            throws IOException, InterruptedException {
        cache.ensureResident();
        tally.javaLines.add(java.send());
        double j = drain.nextMibPerSecond(length);
        cache.ensureResident();
        tally.cLines.add(cTwin.send(mode, length, drain.port()));
        double c = drain.nextMibPerSecond(length);
        tally.javaMibs.add(j);
        tally.cMibs.add(c);
        tally.pairs.add(j / c);
        String third = "";
        if (versus != null) {
            cache.ensureResident();
            cTwin.send(versus, length, drain.port());
            double v = drain.nextMibPerSecond(length);
            tally.versusMibs.add(v);
            tally.versusPairs.add(j / v);
            third = String.format(Locale.ROOT, "   C %s %8.1f MiB/s   java/%s %.3f", versus, v, versus, j / v);
        }
        System.out.printf(Locale.ROOT, "twin:   round %d  java %8.1f MiB/s   C %8.1f MiB/s   ratio %.3f%s%n", r, j, c, j / c, third);
    }

    /** What the rounds measured, round by round. */
    private static final class Tally {
        final List<Double> javaMibs = new ArrayList<>();
        final List<Double> cMibs = new ArrayList<>();
        final List<Double> pairs = new ArrayList<>();
        final List<Map<String, String>> javaLines = new ArrayList<>();
        final List<Map<String, String>> cLines = new ArrayList<>();
        final List<Double> versusMibs = new ArrayList<>();
        final List<Double> versusPairs = new ArrayList<>();

        TwinRow row(String method, String mode, long length, String note, String versus) {
            return new TwinRow(method, mode, length, note, Stats.of(javaMibs), Stats.of(cMibs), pairs,
                    SenderCpu.of(javaLines), SenderCpu.of(cLines),
                    versus == null ? null : new TwinRow.Versus(versus, Stats.of(versusMibs), versusPairs));
        }
    }
}
