package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.nativeio.PageCache;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The Java-vs-C-twin comparison ({@code scripts/twin}): one {@link TwinDrain} process receives every transfer; per
 * method, one {@link TwinSend} JVM alternates with its C twin ({@code native/c/xfer_twin}, or {@code xfer_uring_twin}
 * for the io_uring modes) round by round ({@link InterleavedRounds}); then the header and the table. Each sender also
 * reports its process CPU (getrusage) over its send, printed per GiB to show where the time goes.
 * <pre>
 * TwinBench --twin PATH [--uring-twin PATH] [--size 4GiB] [--rounds 3] [--warmup 1] [--buffer 64KiB]
 *           [--io-uring-depth 4] [--data-dir DIR] [--methods id,id,...] [--twin-build TEXT]
 * </pre>
 */
public final class TwinBench {
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
        TestFile test = new DataDirectory(options.dataDir()).generated(options.size());
        Path file = test.path();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ch.force(false); // flush a freshly written file so O_DIRECT reads do not start with writeback
        }
        PageCache.warm(file);

        String loadBefore = LoadAverage.now();
        long startResident = PageCache.residency(file).permille();
        ChildJvm jvm = new ChildJvm();
        ResidencyGuard cache = new ResidencyGuard(file);
        CTwin cTwin = new CTwin(options.twin(), options.uringTwin(), options.buffer(), options.uringDepth(), file);
        List<TwinRow> rows = new ArrayList<>();
        try (DrainProcess drain = DrainProcess.start(jvm)) {
            InterleavedRounds rounds = new InterleavedRounds(options, file, jvm, drain, cTwin, cache);
            for (String id : options.methods()) {
                rows.add(rounds.measure(DownloadMethods.byId(id).orElseThrow()));
            }
        }
        new RunHeader(options, file, startResident, cache.minResidentPermille(), cache.rewarms(), loadBefore, LoadAverage.now())
                .print(System.out);
        TwinTable.print(System.out, rows);
    }
}
