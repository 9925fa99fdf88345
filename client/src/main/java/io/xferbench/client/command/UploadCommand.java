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
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TempFiles;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.Direction;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.net.BodyReceiver;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ServerDescription;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Upload (socket → file on the server) with one or more receiver methods; prints one row per method and size. */
@Command(name = "upload", mixinStandardHelpOptions = true,
        description = "Upload generated bodies with each server receiver method; the server stores each one only after checking "
                + "its byte count and CRC32C. Reports throughput, latency, CPU and the server's syscalls.")
public final class UploadCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Option(names = "--method", defaultValue = "all", split = ",", description = "Receiver method ids, comma-separated, or 'all' (default).")
    List<String> methods;

    @Option(names = "--size", defaultValue = "256MiB", split = ",", converter = Converters.Size.class,
            description = "Body sizes, e.g. 0,4095,1MiB+1,1GiB (default: ${DEFAULT-VALUE}).")
    List<Long> sizes;

    @Mixin
    RoundOptions rounds;

    @Mixin
    BufferOptions buffer;

    @Option(names = "--fsync", description = "The server fsyncs file and directory before answering (reported as fsyncP50).")
    boolean fsync;

    @Option(names = "--data-dir", description = "Where the client keeps the generated bodies it sends (default: <tmp>/xferbench-client-data).")
    Path dataDir;

    @Mixin
    CooperationOptions cooperation;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        output.check();
        DirectMemoryBudget.require(rounds.concurrency, BodyReceiver.BUFFER_SIZE + (long) buffer.bufferSize());
        if (!rounds.verifyCrc32c()) {
            throw new IllegalArgumentException("--verify length does not apply to uploads: the request carries the body's CRC32C and "
                    + "the server always checks it (and the byte count) before it stores the file");
        }
        int bufferSize = buffer.bufferSize();
        Path bodies = dataDir != null ? dataDir : Path.of(System.getProperty("java.io.tmpdir"), "xferbench-client-data");
        ServerDescription info = Windows.info(server); // before the bodies' directory exists: no server, nothing made
        DataDirectory local = new DataDirectory(bodies);
        // A client killed while it generated a body left its temp file (GiBs); only dead owners' are removed.
        for (TempFiles.Removed r : local.removeStaleTempFiles()) {
            System.err.println("xferbench: removed " + r.path() + " (" + r.bytes() + " bytes), left by a client that was killed");
        }
        MethodCatalog catalog = MethodCatalog.of(info, "upload");
        List<String> chosen = catalog.choose(methods);
        List<Long> parsedSizes = sizes;
        Progress progress = rounds.progress(parsedSizes.size() * chosen.size());
        TransferDriver driver = new TransferDriver(rounds.rounds(), progress);
        int flags = (fsync ? Flags.FSYNC : 0) | (buffer.unaligned ? Flags.UNALIGNED : 0);

        cooperation.awaitStart();
        List<MethodResult> results = new ArrayList<>();
        for (long size : parsedSizes) {
            TestFile body = local.generated(size);
            for (String method : chosen) {
                results.add(driver.run(new TransferDriver.Job<XferConnection>(MethodResult.Row.served(Direction.UPLOAD, method, size), 1,
                        () -> server.open(),
                        (c, index) -> Outcome.of(c.upload(Request.upload(method, uploadName(index), size, body.crc32c(), flags, bufferSize), body)),
                        connections -> Windows.server(connections.get(0), driver.rounds().countSyscalls())), catalog.unavailableReason(method)));
            }
        }
        progress.finish();
        RunSettings settings = new RunSettings.Upload(rounds.describe(server, parsedSizes), fsync, bufferSize, buffer.unaligned,
                "FileChannel.transferTo (sendfile) from the page cache of a generated file in " + bodies + ", same for every method",
                "the server's data directory as " + uploadName(0) + (rounds.concurrency > 1 ? " .. " + uploadName(rounds.concurrency - 1) : "")
                        + ", replaced by each upload (temp file, verify, rename)");
        RunEnvironment environment = new RunEnvironment(Provenance.now(spec.commandLine().getParseResult().originalArgs()), settings,
                cooperation.reportedClientId(), cooperation.reportedStartAt(), EnvironmentInfo.describe(bodies), server.networkPath(info),
                null, info.environment());
        return output.emit(Report.of(environment, results));
    }

    /** One name per connection, so concurrent uploads never replace each other's file mid-round. */
    static String uploadName(int connection) {
        return "xferbench-upload-c" + connection + ".dat";
    }
}
