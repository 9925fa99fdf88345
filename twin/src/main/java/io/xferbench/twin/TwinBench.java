package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.Direction;
import io.xferbench.core.process.ChildCommand;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.nativeio.PageCache;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The Java-vs-C-twin comparison ({@code scripts/twin}). Downloads: one {@link TwinDrain} process receives every
 * transfer; per method, one {@link TwinSend} JVM alternates with its C twin ({@code native/c/xfer_twin}, or
 * {@code xfer_uring_twin} for the io_uring modes) round by round ({@link InterleavedRounds}). Uploads
 * ({@code --direction upload}): one C sendfile feeder sends to a {@link TwinReceive} JVM or to the receiving C twin,
 * alternately, into a fresh target file ({@link UploadRounds}). Then the header and the table. Each side also reports
 * its process CPU (getrusage) over its transfer, printed per GiB to show where the time goes.
 * <pre>
 * TwinBench --twin PATH [--uring-twin PATH] [--direction download|upload] [--size 4GiB] [--rounds 3] [--warmup 1]
 *           [--buffer 64KiB] [--io-uring-depth 8] [--data-dir DIR] [--methods id,id,...] [--twin-build TEXT]
 * </pre>
 */
public final class TwinBench {
    /**
     * The harness's child JVMs (drain, Java sender and receiver) get TERM when it dies, even by SIGKILL: no drain left
     * in accept (the C receiver sets its own, xfer_uring_twin.c).
     */
    static final ChildCommand CHILD_JVMS = ChildCommand.dyingWithParent(ChildCommand.DeathSignal.TERM);

    private TwinBench() {
    }

    public static void main(String[] args) throws Exception {
        TwinOptions options;
        try {
            options = TwinOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("twin: " + e.getMessage() + " (" + TwinOptions.USAGE + ")");
            System.exit(2);
            return;
        }
        System.out.println("twin: preparing " + Sizes.format(options.size()) + " file in " + options.dataDir() + " ...");
        TestFile test = TwinData.open(options.dataDir()).generated(options.size());
        Path file = test.path();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ch.force(false); // flush a freshly written file so O_DIRECT reads do not start with writeback
        }
        PageCache.warm(file);

        String loadBefore = LoadAverage.now();
        long startResident = PageCache.residency(file).permille();
        ResidencyGuard cache = new ResidencyGuard(file);
        List<TwinRow> rows = options.direction() == Direction.UPLOAD
                ? uploads(options, file, CHILD_JVMS, cache)
                : downloads(options, file, CHILD_JVMS, cache);
        new RunHeader(options, file, startResident, cache.minResidentPermille(), cache.rewarms(), loadBefore, LoadAverage.now())
                .print(System.out);
        TwinTable.print(System.out, rows, options.direction());
    }

    private static List<TwinRow> downloads(TwinOptions options, Path file, ChildCommand jvm, ResidencyGuard cache)
            throws IOException, InterruptedException {
        CTwin cTwin = new CTwin(options.twin(), options.uringTwin(), options.buffer(), options.uringDepth(), file);
        List<TwinRow> rows = new ArrayList<>();
        try (TwinDrainProcess drain = TwinDrainProcess.start(jvm)) {
            InterleavedRounds rounds = new InterleavedRounds(options, file, jvm, drain, cTwin, cache);
            for (String id : options.methods()) {
                rows.add(rounds.measure(DownloadMethods.byId(id).orElseThrow()));
            }
        }
        return rows;
    }

    private static List<TwinRow> uploads(TwinOptions options, Path file, ChildCommand jvm, ResidencyGuard cache)
            throws IOException, InterruptedException {
        List<TwinRow> rows = new ArrayList<>();
        try (UploadTarget target = new UploadTarget(options.dataDir())) {
            UploadRounds rounds = new UploadRounds(options, file, jvm, target, cache);
            for (String id : options.methods()) {
                rows.add(rounds.measure(UploadMethods.byId(id).orElseThrow()));
            }
        }
        return rows;
    }
}
