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
        if (!method.availability().isAvailable()) {
            System.out.println("twin: " + method.id() + " skipped: " + method.availability().unavailableReason());
            return TwinRow.skipped(method.id(), mode, method.availability().unavailableReason());
        }
        if (!cTwin.built(mode)) {
            String reason = "C twin " + mode + " not built (liburing-dev missing: sudo apt-get install -y liburing-dev)";
            System.out.println("twin: " + method.id() + " skipped: " + reason);
            return TwinRow.skipped(method.id(), mode, reason);
        }
        long size = options.size();
        long length = size;
        String note = "";
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             FileSender probe = method.newSender(new TransferOptions(options.buffer(), false))) {
            SourceFile source = new SourceFile(file, ch, size);
            try {
                probe.checkSupported(source, 0, size);
            } catch (UnsupportedTransferException e) {
                length = Math.min(size, INT_SAFE_LENGTH);
                probe.checkSupported(source, 0, length); // still refused: let it fail loudly
                note = "first " + Sizes.format(length) + " only: " + e.getMessage();
            }
        }
        System.out.println("twin: " + method.id() + " vs C " + mode + ", " + Sizes.format(length)
                + (note.isEmpty() ? "" : " (" + note + ")"));

        List<Double> javaMibs = new ArrayList<>();
        List<Double> cMibs = new ArrayList<>();
        List<Double> pairs = new ArrayList<>();
        List<Map<String, String>> javaLines = new ArrayList<>();
        List<Map<String, String>> cLines = new ArrayList<>();
        String versus = options.versus() == null || options.versus().equals(mode) ? null : options.versus();
        List<Double> versusMibs = new ArrayList<>();
        List<Double> versusPairs = new ArrayList<>();
        try (JavaSenderProcess java = JavaSenderProcess.start(jvm, method.id(), file, drain.port(), options.buffer(), length,
                options.warmup(), options.uringDepth())) {
            for (int i = 0; i < options.warmup(); i++) {
                java.awaitWarmupSend();
                drain.nextMibPerSecond(length); // warm-up sends are received and discarded
            }
            java.awaitReady();
            for (int i = 0; i < options.warmup(); i++) {
                cTwin.send(mode, length, drain.port()); // the C twin gets as many unmeasured sends
                drain.nextMibPerSecond(length);
            }
            for (int r = 1; r <= options.rounds(); r++) {
                cache.ensureResident();
                javaLines.add(java.send());
                double j = drain.nextMibPerSecond(length);
                cache.ensureResident();
                cLines.add(cTwin.send(mode, length, drain.port()));
                double c = drain.nextMibPerSecond(length);
                javaMibs.add(j);
                cMibs.add(c);
                pairs.add(j / c);
                String third = "";
                if (versus != null) {
                    cache.ensureResident();
                    cTwin.send(versus, length, drain.port());
                    double v = drain.nextMibPerSecond(length);
                    versusMibs.add(v);
                    versusPairs.add(j / v);
                    third = String.format(Locale.ROOT, "   C %s %8.1f MiB/s   java/%s %.3f", versus, v, versus, j / v);
                }
                System.out.printf(Locale.ROOT, "twin:   round %d  java %8.1f MiB/s   C %8.1f MiB/s   ratio %.3f%s%n", r, j, c, j / c, third);
            }
        }
        return new TwinRow(method.id(), mode, length, note, Stats.of(javaMibs), Stats.of(cMibs), pairs,
                SenderCpu.of(javaLines), SenderCpu.of(cLines),
                versus == null ? null : new TwinRow.Versus(versus, Stats.of(versusMibs), versusPairs));
    }
}
