package io.xferbench.client.netpath;

import io.xferbench.client.load.bench.LoadBenchCommand;
import io.xferbench.core.cli.Converters;
import io.xferbench.nativeio.JvmFlags;
import io.xferbench.core.process.ListeningLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code client veth download|upload|proxy|load-bench [--mtu N] [--netem SPEC | --qdisc SPEC] --server-jar JAR [CLIENT ARGS]}:
 * the same benchmark over a veth pair between two network namespaces instead of loopback. The server (and proxy) run
 * in one namespace pinned to one CPU, the client in the other pinned to another; everything is torn down on exit.
 */
@Command(name = "veth", mixinStandardHelpOptions = true,
        description = "Run download, upload, proxy or load-bench over a veth pair between two network namespaces (needs root). "
                + "Options it does not know go to the client command.")
public final class VethBenchCommand implements Callable<Integer> {
    static final List<String> COMMANDS = List.of("download", "upload", "proxy", "load-bench");
    /** By name: ClientMain lists this command, and a package cycle would be the price of the class literal. */
    private static final String CLIENT_MAIN = "io.xferbench.client.ClientMain";

    @Parameters(index = "0", description = "download, upload, proxy or load-bench.")
    String command;

    @Option(names = "--netns", description = "Accepted and ignored: the scripts' switch that chose this command.")
    boolean netns;

    @Option(names = "--mtu", defaultValue = "1500", converter = Converters.PositiveInt.class,
            description = "MTU of both veth ends, 68..65535 (default: ${DEFAULT-VALUE}; 9000 for jumbo frames).")
    int mtu;

    @Option(names = "--netem", description = "netem parameters for both ends' egress, e.g. \"delay 1ms rate 10gbit\" (the kernel needs sch_netem).")
    String netem;

    @Option(names = "--qdisc", description = "Any root qdisc for both ends instead, e.g. \"tbf rate 1gbit burst 64kb latency 10ms\".")
    String qdisc;

    @Option(names = "--server-jar", required = true, description = "The xferbench server jar to run in the server's namespace.")
    Path serverJar;

    @Option(names = "--server-data-dir", description = "The server's data directory (default: <tmp>/xferbench-data).")
    Path serverDataDir;

    @Option(names = "--proxy-args", defaultValue = "", description = "proxy only: extra options for the proxy, e.g. \"--relay-buffer 1KiB\".")
    String proxyArgs;

    @Option(names = "--no-pin", description = "Do not pin the server and the client to separate CPUs.")
    boolean noPin;

    @Unmatched
    List<String> clientArgs = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!COMMANDS.contains(command)) {
            throw new IllegalArgumentException("veth runs " + String.join(", ", COMMANDS) + ", not '" + command + "'");
        }
        if (mtu < 68 || mtu > 65535) {
            throw new IllegalArgumentException("--mtu " + mtu + " outside 68..65535");
        }
        if (netem != null && qdisc != null) {
            throw new IllegalArgumentException("--netem and --qdisc both set the root qdisc: give one");
        }
        if (!Files.isRegularFile(serverJar)) {
            throw new IllegalArgumentException("--server-jar " + serverJar + " is not a file");
        }
        for (String qdiscSpec : new String[] {netem, qdisc}) {
            if (qdiscSpec != null && (qdiscSpec.isBlank() || qdiscSpec.startsWith("-"))) {
                throw new IllegalArgumentException("--netem and --qdisc need the qdisc's parameters, e.g. \"delay 1ms\", not '"
                        + qdiscSpec + "'");
            }
        }
        for (String arg : clientArgs) {
            if (arg.equals("--host") || arg.startsWith("--host=") || arg.equals("--port") || arg.startsWith("--port=")) {
                throw new IllegalArgumentException(arg.split("=")[0] + " is chosen by veth (the server's namespace address)");
            }
        }
        checkClientArgs();
        requireRoot();
        String rootQdisc = netem != null ? "netem " + netem : qdisc;
        Path dataDir = serverDataDir != null ? serverDataDir : Path.of(System.getProperty("java.io.tmpdir"), "xferbench-data");
        if (!command.equals("load-bench")) {
            Files.createDirectories(dataDir); // the load bench's servers serve a temporary directory of their own
        }
        Optional<CpuPinning> pinning = noPin ? Optional.empty() : CpuPinning.plan();

        try (VethPair pair = VethPair.create(mtu, rootQdisc); NamespacedProcesses processes = new NamespacedProcesses()) {
            System.err.println("xferbench: veth path: server " + VethPair.SERVER_ADDRESS + " in " + pair.serverNamespace
                    + pinning.map(p -> " (cpu " + p.serverCpu() + ")").orElse("") + ", client " + VethPair.CLIENT_ADDRESS + " in "
                    + pair.clientNamespace + pinning.map(p -> " (cpu " + p.clientCpu() + ")").orElse("") + ", mtu " + mtu
                    + (rootQdisc == null ? "" : ", qdisc " + rootQdisc));
            if (command.equals("load-bench")) {
                return loadBench(pair, pinning, processes);
            }
            List<String> server = new ArrayList<>(List.of(java(), "-jar", serverJar.toString(), "--data-dir", dataDir.toString(),
                    "--bind", VethPair.SERVER_ADDRESS, "--port", "0"));
            if (command.equals("download")) {
                server.add("--tls"); // a self-signed certificate for the TLS methods, trusted below (a keytool run: downloads only)
            }
            ListeningLine.Announced started = processes.startServer(pair.inServer(pinned(pinning.map(CpuPinning::serverCpu), server)), "server");
            int port = started.address().getPort();
            if (command.equals("proxy")) {
                // The proxy beside the server: the client's connections cross the veth, its upstream ones do not.
                List<String> proxy = new ArrayList<>(List.of(java(), "-jar", serverJar.toString(), "--proxy-to",
                        VethPair.SERVER_ADDRESS + ":" + port, "--bind", VethPair.SERVER_ADDRESS, "--port", "0"));
                if (!proxyArgs.isBlank()) {
                    proxy.addAll(Arrays.asList(proxyArgs.strip().split("\\s+")));
                }
                port = processes.startServer(pair.inServer(pinned(pinning.map(CpuPinning::serverCpu), proxy)), "proxy").address().getPort();
            }
            List<String> client = new ArrayList<>(clientJvm());
            client.addAll(List.of(command, "--host", VethPair.SERVER_ADDRESS, "--port", Integer.toString(port)));
            client.addAll(clientArgs);
            // The run started the server, so its downloads trust the certificate it announced (the TLS methods).
            if (command.equals("download") && started.tlsCertificate().isPresent()
                    && clientArgs.stream().noneMatch(a -> a.equals("--tls-ca") || a.startsWith("--tls-ca="))) {
                client.addAll(List.of("--tls-ca", started.tlsCertificate().get().toString()));
            }
            return processes.runToEnd(pair.inClient(pinned(pinning.map(CpuPinning::clientCpu), client)));
        }
    }

    /**
     * Parses the client's arguments as the client command in the client's namespace will, so that a bad one is a
     * usage error before any namespace or server exists. Only where this runs as a subcommand of the client.
     */
    private void checkClientArgs() {
        CommandLine client = spec.root().subcommands().get(command);
        if (client == null) {
            return;
        }
        List<String> args = new ArrayList<>(command.equals("load-bench")
                ? List.of("--server-jar", serverJar.toString(), "--server-address", VethPair.SERVER_ADDRESS)
                : List.of("--host", VethPair.SERVER_ADDRESS, "--port", "1"));
        args.addAll(clientArgs);
        try {
            client.parseArgs(args.toArray(String[]::new));
            if (client.getCommand() instanceof LoadBenchCommand bench) {
                bench.checkOptions();
            }
        } catch (ParameterException e) {
            throw new IllegalArgumentException(command + ": " + e.getMessage(), e);
        }
    }

    /**
     * The load bench starts its servers (xferbench models, nginx) itself: it runs in the client's namespace and starts
     * them behind {@code nsenter --net=SERVER-NS [taskset -c CPU]}, listening on the server's address. They die with it,
     * and whatever is still in the server's namespace when this returns is stopped when the pair is closed.
     */
    private int loadBench(VethPair pair, Optional<CpuPinning> pinning, NamespacedProcesses processes)
            throws IOException, InterruptedException {
        List<String> launcher = new ArrayList<>(pair.enteringServer(pinned(pinning.map(CpuPinning::serverCpu), List.of())));
        launcher.set(0, HostCommand.locate(launcher.get(0)));  // the load bench's PATH may lack /usr/sbin
        List<String> client = new ArrayList<>(clientJvm());
        client.addAll(List.of("load-bench", "--server-jar", serverJar.toAbsolutePath().toString(),
                "--server-address", VethPair.SERVER_ADDRESS, "--server-launcher", String.join(" ", launcher)));
        client.addAll(clientArgs);
        return processes.runToEnd(pair.enteringClient(pinned(pinning.map(CpuPinning::clientCpu), client)));
    }

    private static List<String> pinned(Optional<Integer> cpu, List<String> command) {
        List<String> cmd = new ArrayList<>(cpu.map(CpuPinning::taskset).orElse(List.of()));
        cmd.addAll(command);
        return cmd;
    }

    /** This JVM's java, with the flags the client jar's manifest would give it, running ClientMain from this classpath. */
    private static List<String> clientJvm() {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(JvmFlags.required());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CLIENT_MAIN));
        return cmd;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Namespaces need CAP_SYS_ADMIN and CAP_NET_ADMIN: in practice root. Said once, before anything is made. */
    private static void requireRoot() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Uid:") && !line.split("\\s+")[2].equals("0")) {
                throw new IOException("network namespaces need root (run as root, e.g. with sudo)");
            }
        }
    }
}
