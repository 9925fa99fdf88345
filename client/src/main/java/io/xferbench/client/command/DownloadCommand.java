package io.xferbench.client.command;

import io.xferbench.client.report.Provenance;
import io.xferbench.client.report.Report;
import io.xferbench.client.report.RunEnvironment;
import io.xferbench.client.report.RunSettings;
import io.xferbench.client.result.MethodResult;
import io.xferbench.client.run.Outcome;
import io.xferbench.client.run.Progress;
import io.xferbench.client.run.TransferDriver;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.data.GeneratedChecksums;
import io.xferbench.core.method.Direction;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.net.BodyReceiver;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.tls.TlsEndpoint;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ServerDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Download (file → socket on the server) with one or more methods; prints one row per method and size. */
@Command(name = "download", mixinStandardHelpOptions = true,
        description = "Download generated test files with each method, verify every transfer, report throughput, latency, CPU and syscalls.")
public final class DownloadCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Option(names = "--method", defaultValue = "all", split = ",", description = "Method ids, comma-separated, or 'all' (default).")
    List<String> methods;

    @Option(names = "--size", defaultValue = "256MiB", split = ",", converter = Converters.Size.class,
            description = "File sizes, e.g. 0,4095,1MiB+1,1GiB (default: ${DEFAULT-VALUE}).")
    List<Long> sizes;

    @Mixin
    RoundOptions rounds;

    /** The page-cache state each transfer starts from. */
    enum Cache { WARM, COLD }

    @Option(names = "--cache", defaultValue = "warm", description = "warm: file read into the page cache first; cold: evicted before every transfer (default: ${DEFAULT-VALUE}).")
    Cache cache;

    @Mixin
    BufferOptions buffer;

    @Mixin
    TlsOptions tls;

    @Mixin
    CooperationOptions cooperation;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        output.check();
        // Before the server is asked anything: a TLS method named without a certificate to trust is a usage error.
        TlsEndpoint tlsEndpoint = tls.endpoint();
        for (String named : methods) {
            if (tlsEndpoint == null && DownloadMethods.tlsFlag(named) != 0) {
                throw new IllegalArgumentException(named + " is " + TlsOptions.NEEDS_CA);
            }
        }
        DirectMemoryBudget.require(rounds.concurrency, BodyReceiver.BUFFER_SIZE);
        int bufferSize = buffer.bufferSize();
        ServerDescription info = Windows.info(server);
        MethodCatalog catalog = MethodCatalog.of(info, "download");
        List<String> chosen = catalog.choose(methods);
        String leftOut = catalog.leftOutOfAll(methods);
        if (leftOut != null && !rounds.quiet) {
            System.err.println("xferbench: " + leftOut);
        }
        List<Long> parsedSizes = sizes;
        Progress progress = rounds.progress(parsedSizes.size() * chosen.size());
        TransferDriver driver = new TransferDriver(rounds.rounds(), progress);
        int flags = (rounds.verifyCrc32c() ? Flags.VERIFY_CRC32C : 0)
                | (cache == Cache.COLD ? Flags.CACHE_COLD : Flags.CACHE_WARM)
                | (buffer.unaligned ? Flags.UNALIGNED : 0);

        if (rounds.verifyCrc32c()) {
            // What each download is checked against, computed now: never inside a round's clock or CPU window.
            parsedSizes.forEach(GeneratedChecksums::of);
        }
        cooperation.awaitStart();
        List<MethodResult> results = new ArrayList<>();
        for (long size : parsedSizes) {
            for (String method : chosen) {
                // The cache state is PREPAREd untimed before each round; the timed DOWNLOAD carries no cache flags.
                Request request = Request.download(method, size, flags | DownloadMethods.tlsFlag(method), bufferSize);
                Request timed = request.withoutCacheFlags();
                // --method all with a TLS method but no certificate to trust: a skipped row saying so.
                String notHere = catalog.unavailableReason(method);
                if (notHere == null && tlsEndpoint == null && DownloadMethods.tlsFlag(method) != 0) {
                    notHere = method + " is " + TlsOptions.NEEDS_CA;
                }
                results.add(driver.run(new TransferDriver.Job<XferConnection>(MethodResult.Row.served(Direction.DOWNLOAD, method, size), 1,
                        () -> server.open().tls(tlsEndpoint),
                        (c, index) -> Outcome.of(c.download(timed)),
                        connections -> Windows.server(connections.get(0), driver.rounds().countSyscalls()),
                        (c, index, observeOnly) -> c.prepare(observeOnly ? request.withoutCacheFlags() : request)), notHere));
            }
        }
        progress.finish();
        RunSettings settings = new RunSettings.Download(rounds.describe(server, parsedSizes), cache.name().toLowerCase(java.util.Locale.ROOT),
                bufferSize, buffer.unaligned, "page-aligned 1 MiB direct buffer drained by SocketChannel.read, same for every method",
                tls.offeredCipher());
        RunEnvironment environment = new RunEnvironment(Provenance.now(spec.commandLine().getParseResult().originalArgs()), settings,
                cooperation.reportedClientId(), cooperation.reportedStartAt(), EnvironmentInfo.describe(null), server.networkPath(info),
                null, info.environment());
        return output.emit(Report.of(environment, results));
    }
}
