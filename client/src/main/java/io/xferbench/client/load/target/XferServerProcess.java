package io.xferbench.client.load.target;

import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.exchange.NativeDownloadExchange;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.process.ChildCommand;
import io.xferbench.core.process.ChildProcess;
import io.xferbench.core.process.ListeningLine;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The xferbench server jar run as a child process on loopback, answering the native protocol. */
public final class XferServerProcess implements LoadTarget {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final InetSocketAddress address;
    private final String method;
    private final String ioModel;

    private XferServerProcess(Process process, InetSocketAddress address, String method, String ioModel) {
        this.process = process;
        this.address = address;
        this.method = method;
        this.ioModel = ioModel;
    }

    /** Starts {@code java -jar serverJar} (its manifest carries the JVM flags) and waits for its port. */
    public static XferServerProcess start(Path serverJar, Path dataDir, int maxConnections, String method, String ioModel)
            throws IOException {
        return start(serverJar, dataDir, maxConnections, method, ioModel, ServerPlacement.LOOPBACK, List.of());
    }

    /**
     * The same, placed: behind a launcher (another network namespace, say) and bound to its address, with
     * {@code options} added to the server's command line.
     */
    public static XferServerProcess start(Path serverJar, Path dataDir, int maxConnections, String method, String ioModel,
                                   ServerPlacement placement, List<String> options) throws IOException {
        List<String> command = new ArrayList<>(List.of(ChildCommand.javaExecutable(), "-jar", serverJar.toString(), "--data-dir", dataDir.toString(),
                "--bind", placement.address(), "--port", "0", "--max-connections", Integer.toString(maxConnections),
                "--io-model", ioModel));
        command.addAll(options);
        Process p = ChildProcesses.start(new ProcessBuilder(ChildProcesses.DYING_WITH_BENCH.of(placement.command(command)))
                .redirectErrorStream(true));
        ChildProcess server = ChildProcess.of("xferbench server", p);
        try {
            InetSocketAddress address = ListeningLine.await(server, START_TIMEOUT);
            server.discardOutput(); // still read, so the server never blocks on a full pipe
            return new XferServerProcess(p, address, method, ioModel);
        } catch (IOException | RuntimeException e) {
            ChildProcesses.stop(p);
            throw new IOException("xferbench server did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public String server() {
        return "xferbench";
    }

    @Override
    public String model() {
        return ioModel + " " + method;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public ProcessTree processes() {
        return new ProcessTree(process.toHandle());
    }

    @Override
    public Map<String, Exchange> downloads(long size, int crc) {
        Map<String, Exchange> ways = new LinkedHashMap<>();
        ways.put("native", new NativeDownloadExchange(method, size, 0, "", crc));
        ways.put("http", new HttpGetExchange(address.getHostString() + ":" + address.getPort(), path(size), false, size, crc));
        return ways;
    }

    @Override
    public List<String> fileOpProtocols() {
        return List.of("native");
    }

    @Override
    public String httpUrl(long size) {
        return "http://" + address.getHostString() + ":" + address.getPort() + path(size);
    }

    private String path(long size) {
        return "/" + DataDirectory.generatedName(size) + "?method=" + method;
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
