package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.process.ChildCommand;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Measures one upload method against its C twin: the same {@link SendfileFeeder} sends the warm file to a
 * {@link TwinReceive} JVM (one per method, warm-up receives first) or to a fresh C receiver, round by round (Java, C,
 * Java, C...). Before every receive the target is gone and its file system synced ({@link UploadTarget#settle()}) and
 * the source file is resident; throughput is each receiver's own (accept to last write completed, the same span on
 * both sides). Every receive is checked: the announced length, the receiver's CRC32C against the source's, the
 * target's size.
 */
final class UploadRounds {
    private final TwinOptions options;
    private final Path file;
    private final ChildCommand jvm;
    private final SendfileFeeder feeder;
    private final UploadTarget target;
    private final ResidencyGuard cache;
    private final long length;
    private final String sourceCrc;

    UploadRounds(TwinOptions options, Path file, ChildCommand jvm, UploadTarget target, ResidencyGuard cache) throws IOException {
        this.options = options;
        this.file = file;
        this.jvm = jvm;
        this.feeder = new SendfileFeeder(options.twin(), file);
        this.target = target;
        this.cache = cache;
        this.length = options.size();
        this.sourceCrc = crc32c(file, length);
    }

    TwinRow measure(ReceiverMethod method) throws IOException, InterruptedException {
        String mode = TwinModes.UPLOAD_BY_METHOD.get(method.id());
        if (!method.availability().isAvailable()) {
            System.out.println("twin: " + method.id() + " skipped: " + method.availability().unavailableReason());
            return TwinRow.skipped(method.id(), mode, method.availability().unavailableReason());
        }
        if (options.uringTwin() == null) {
            String reason = "C twin " + mode + " not built (liburing-dev missing: sudo apt-get install -y liburing-dev)";
            System.out.println("twin: " + method.id() + " skipped: " + reason);
            return TwinRow.skipped(method.id(), mode, reason);
        }
        method.checkSupported(length);
        System.out.println("twin: upload " + method.id() + " vs C " + mode + ", " + Sizes.format(length) + " from a C sendfile feeder");

        List<Double> javaMibs = new ArrayList<>();
        List<Double> cMibs = new ArrayList<>();
        List<Double> pairs = new ArrayList<>();
        List<Map<String, String>> javaLines = new ArrayList<>();
        List<Map<String, String>> cLines = new ArrayList<>();
        CReceiver c = new CReceiver(options.uringTwin(), mode, target.file(), options.buffer(), length, options.uringDepth());
        try (JavaReceiverProcess java = JavaReceiverProcess.start(jvm, method.id(), target.file(), options.buffer(), options.uringDepth())) {
            Thread onKill = new Thread(java::kill, "twin-receive-kill");
            Runtime.getRuntime().addShutdownHook(onKill);
            try {
                for (int i = 0; i < options.warmup(); i++) {
                    receive(java); // warm-up receives are checked and discarded, as many on each side
                    receive(c);
                }
                for (int r = 1; r <= options.rounds(); r++) {
                    Map<String, String> jf = receive(java);
                    Map<String, String> cf = receive(c);
                    double j = mibs(jf);
                    double cm = mibs(cf);
                    javaLines.add(jf);
                    cLines.add(cf);
                    javaMibs.add(j);
                    cMibs.add(cm);
                    pairs.add(j / cm);
                    System.out.printf(Locale.ROOT, "twin:   round %d  java %8.1f MiB/s   C %8.1f MiB/s   ratio %.3f%n", r, j, cm, j / cm);
                }
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(onKill);
                } catch (IllegalStateException alreadyExiting) {
                    // the hook runs anyway
                }
            }
        }
        return new TwinRow(method.id(), mode, length, "", Stats.of(javaMibs), Stats.of(cMibs), pairs,
                SenderCpu.of(javaLines), SenderCpu.of(cLines), null);
    }

    /** One receive from the feeder into a fresh target, on a settled file system; the receiver's result fields. */
    private Map<String, String> receive(ReceiverSide side) throws IOException, InterruptedException {
        target.settle();
        cache.ensureResident();
        int port = side.arm();
        feeder.send(port, length);
        Map<String, String> f = side.result();
        if (Long.parseLong(f.get("bytes")) != length) {
            throw new IOException("receiver got " + f.get("bytes") + " bytes, expected " + length);
        }
        if (!sourceCrc.equals(f.get("crc32c"))) {
            throw new IOException("receiver's CRC32C " + f.get("crc32c") + " is not the source's " + sourceCrc);
        }
        long written = Files.size(target.file());
        if (written != length) {
            throw new IOException("target holds " + written + " bytes, expected " + length);
        }
        target.settle();
        return f;
    }

    private static double mibs(Map<String, String> f) {
        return Double.parseDouble(f.get("bytes")) / Sizes.MiB / Double.parseDouble(f.get("seconds"));
    }

    /** CRC32C of bytes [0, length) of the file, as 8 lower-case hex digits (the receivers' format). */
    static String crc32c(Path file, long length) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long position = 0;
            while (position < length) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), length - position));
                int n = ch.read(buffer, position);
                if (n < 0) {
                    throw new IOException(file + " ended at " + position + " of " + length);
                }
                buffer.flip();
                crc.update(buffer);
                position += n;
            }
        }
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }
}
