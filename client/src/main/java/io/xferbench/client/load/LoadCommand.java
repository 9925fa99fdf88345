package io.xferbench.client.load;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.engine.Workload;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.exchange.NativeDownloadExchange;
import io.xferbench.client.load.exchange.NativeStatExchange;
import io.xferbench.client.load.fileops.FileOpsRun;
import io.xferbench.client.load.fileops.FileOpsWorkload;
import io.xferbench.client.load.fileops.ReadBack;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadOutputOptions;
import io.xferbench.client.load.report.LoadSettings;
import io.xferbench.client.load.target.LoadEnvironment;
import io.xferbench.client.load.target.ServerWatch;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.net.NoAnswerException;
import io.xferbench.core.protocol.Request;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code client load}: many kept-alive connections downloading one small file, multiplexed on a few event-loop
 * threads, for a request count or a duration; closed loop, or open loop at {@code --rate}. Speaks the native
 * protocol to an xferbench server or HTTP/1.1 to any file server (nginx), and verifies every body.
 */
@Command(name = "load", mixinStandardHelpOptions = true, subcommands = LoadCleanCommand.class,
        description = "Many connections downloading, uploading, checking and deleting small files: requests/s, latency percentiles, errors, client CPU.")
public final class LoadCommand implements Callable<Integer> {
    /** Wire dialects the generator speaks. */
    enum Protocol { NATIVE, HTTP }

    /** What every request does. */
    enum Operation { DOWNLOAD, UPLOAD, EXIST, DELETE, MIX }

    @Spec
    CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Server host (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "7070", converter = Converters.Port.class, description = "Server port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--token", defaultValue = "", description = "Token the xferbench server requires, if any.")
    String token;

    @Option(names = "--protocol", defaultValue = "native",
            description = "native (xferbench server) or http (any HTTP/1.1 file server, e.g. nginx) (default: ${DEFAULT-VALUE}).")
    Protocol protocol;

    @Option(names = "--op", defaultValue = "download", description = "download: GET / DOWNLOAD the file and verify it; "
            + "exist: HEAD / STAT it and check it is there with its size; upload: PUT / UPLOAD (each connection replaces a "
            + "file of its own; over HTTP read back and checked after the run), delete (uploads it unmeasured, deletes it "
            + "measured), mix (per 10 requests: 6 download, 2 exist, 1 upload, 1 delete) (default: ${DEFAULT-VALUE}).")
    Operation operation;

    @Option(names = "--upload-method", defaultValue = "channel-direct",
            description = "The server's receiver method for uploads (default: ${DEFAULT-VALUE}).")
    String uploadMethod;

    @Option(names = "--method", defaultValue = "transfer-to", description = "native: the server's transfer method (default: ${DEFAULT-VALUE}).")
    String method;

    @Option(names = "--file-size", defaultValue = "50KiB", converter = Converters.Size.class,
            description = "Size of the files downloaded, uploaded, checked and deleted (default: ${DEFAULT-VALUE}).")
    long fileSize;

    @Option(names = "--path", description = "http: the file's URL path (default: /xferbench-<bytes>.dat, the xferbench "
            + "server's generated file, which must hold the generated content).")
    String path;

    @Option(names = "--concurrency", split = ",", defaultValue = "50", converter = Converters.PositiveInt.class,
            description = "Concurrent connections; a list runs once per value (default: ${DEFAULT-VALUE}).")
    List<Integer> concurrency;

    @Option(names = "--threads", converter = Converters.PositiveInt.class,
            description = "Event-loop threads of the generator (default: the number of CPUs).")
    Integer threads;

    @Option(names = "--requests", defaultValue = "0", converter = Converters.NonNegativeLong.class,
            description = "Measured requests per run; 0: run for --duration (default: ${DEFAULT-VALUE}).")
    long requests;

    @Option(names = "--duration", defaultValue = "10s", converter = Converters.Time.class,
            description = "Measured time per run when --requests is 0, e.g. 500ms, 10s, 1m (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "1s", converter = Converters.Time.class,
            description = "Unmeasured time before each run's window (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--rate", defaultValue = "0", description = "Open loop: requests/s over all connections, latency "
            + "from each request's intended start; 0: closed loop (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--drain-timeout", defaultValue = "10s", converter = Converters.Time.class,
            description = "How long requests in flight at the end may still complete (default: ${DEFAULT-VALUE}).")
    Duration drainTimeout;

    @Option(names = "--answer-timeout", defaultValue = "60s", converter = Converters.PositiveTime.class,
            description = "How long a request may go with none of its bytes moving before it is counted as TIMEOUT and its "
                    + "connection replaced; also bounds every exchange around the rows (the generated file's download, the "
                    + "HTTP probe, read-back and clean-up; the server's window a minute more) (default: ${DEFAULT-VALUE}).")
    Duration answerTimeout;

    @Mixin
    LoadOutputOptions output;

    @Override
    public Integer call() throws Exception {
        InetSocketAddress target = checkedTarget();
        int crc = new ContentGenerator(DataDirectory.SEED).crc32c(fileSize);
        String filePath = path != null ? path : "/" + DataDirectory.generatedName(fileSize);
        Exchanges exchanges = exchanges(filePath, crc);
        String server = protocol == Protocol.NATIVE ? "xferbench" : "http";
        String model = protocol == Protocol.NATIVE ? method : host + ":" + port + filePath;
        int loops = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        // The download method asked of the server; over HTTP --path says what it asks, which is not read back out of it.
        String asked = protocol == Protocol.NATIVE && (operation == Operation.DOWNLOAD || operation == Operation.MIX) ? method : null;
        if (protocol == Protocol.NATIVE) {
            boolean readsGenerated = operation == Operation.EXIST || operation == Operation.MIX || operation == Operation.DOWNLOAD;
            FirstExchange.run(host, port, token, answerTimeout, readsGenerated ? Request.download(method, fileSize, 0, 0) : null);
        }
        List<LoadReport.Row> rows = new ArrayList<>();
        for (int connections : concurrency) {
            rows.add(row(target, connections, loops, server, model, asked, crc, exchanges));
        }
        LoadSettings settings = new LoadSettings.Load(Sizes.format(fileSize), loops, requests > 0 ? requests : null,
                requests > 0 ? null : duration.toMillis() + " ms", warmup.toMillis() + " ms", rate > 0 ? "open at " + rate + " req/s" : "closed");
        output.write(LoadReport.render(LoadEnvironment.describe(), settings, rows, output.format()));
        return rows.stream().allMatch(LoadReport.Row::verified) ? 0 : 1;
    }

    /** The server's address, once the options that picocli cannot check alone are checked. */
    private InetSocketAddress checkedTarget() {
        if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) {
            throw new ParameterException(spec.commandLine(), "--rate must be a finite number >= 0, not " + rate);
        }
        InetSocketAddress target = new InetSocketAddress(host, port);
        if (target.isUnresolved()) {
            throw new ParameterException(spec.commandLine(), "unknown host: " + host);
        }
        if (requests == 0 && !duration.isPositive()) {
            throw new ParameterException(spec.commandLine(), "--duration must be positive when --requests is 0");
        }
        return target;
    }

    /** The exchanges a row may send: a native download and stat, an HTTP GET and HEAD of the file. */
    private record Exchanges(Exchange download, Exchange stat, Exchange httpGet, Exchange httpHead) {
    }

    private Exchanges exchanges(String filePath, int crc) {
        String fileName = DataDirectory.generatedName(fileSize);
        return new Exchanges(new NativeDownloadExchange(method, fileSize, 0, token, crc),
                new NativeStatExchange(fileName, fileSize, token),
                new HttpGetExchange(host + ":" + port, filePath, false, fileSize, crc),
                new HttpGetExchange(host + ":" + port, filePath, true, fileSize, crc));
    }

    /** Runs the row at {@code connections}: the file operations' run, or the one exchange repeated. */
    private LoadReport.Row row(InetSocketAddress target, int connections, int loops, String server, String model,
            String asked, int crc, Exchanges exchanges) throws Exception {
        System.err.printf(Locale.ROOT, "xferbench: load %s %s, %d connections, %s ...%n", server, model, connections,
                requests > 0 ? requests + " requests" : duration.toMillis() + " ms");
        LoadPlan plan = new LoadPlan(target, connections, loops, requests, duration, warmup, rate, drainTimeout, answerTimeout);
        LoadResult r;
        ReadBack readBack = null;
        ServerWatch watch = new ServerWatch(null, protocol == Protocol.NATIVE ? target : null, token, answerTimeout);
        String proto = protocol.name().toLowerCase(Locale.ROOT);
        String op = operation.name().toLowerCase(Locale.ROOT);
        if (operation == Operation.UPLOAD || operation == Operation.DELETE || operation == Operation.MIX) {
            boolean http = protocol == Protocol.HTTP;
            FileOpsRun.Outcome o = FileOpsRun.run(plan, http ? FileOpsRun.Wire.overHttp() : FileOpsRun.Wire.overNative(token, uploadMethod),
                    FileOpsWorkload.Kind.valueOf(operation.name()), fileSize, crc, FileOpsWorkload.runId(connections),
                    http ? exchanges.httpGet() : exchanges.download(), http ? exchanges.httpHead() : exchanges.stat(), watch);
            if (o.skipped() != null) {
                System.err.println("xferbench: skipped: " + o.skipped());
                return LoadReport.Row.skipped(server, model, "xferbench", proto, op, fileSize, connections, o.skipped());
            }
            r = o.result();
            readBack = o.readBack();
        } else {
            r = LoadEngine.run(plan, Workload.repeating(repeated(exchanges)), watch);
        }
        warn(r, connections);
        return new LoadReport.Row(server, model, "xferbench", proto, op, fileSize, connections, r, null, watch.report(), null,
                readBack, null).withMethod(asked);
    }

    /** The exchange every request of a download or exist row sends. */
    private Exchange repeated(Exchanges exchanges) {
        boolean exist = operation == Operation.EXIST;
        return protocol == Protocol.NATIVE ? (exist ? exchanges.stat() : exchanges.download())
                : (exist ? exchanges.httpHead() : exchanges.httpGet());
    }

    /** Says on stderr when a row is not a result, or when the client may have been its limit. */
    private void warn(LoadResult r, int connections) {
        if (r.noAnswer()) {
            System.err.printf(Locale.ROOT, "xferbench: no answer: every one of the row's %d requests timed out (no byte "
                    + "from %s:%d for --answer-timeout %s): not a result%n", r.errorCount(), host, port, NoAnswerException.format(answerTimeout));
        }
        if (r.clientMayBeLimit()) {
            System.err.printf(Locale.ROOT, "xferbench: warning: a generator loop thread was busy %.0f%% of the window: "
                    + "at %d connections the client may be the limit (try --threads)%n", r.clientBusiestLoopShare() * 100, connections);
        }
    }
}
