package io.xferbench.client.netpath;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.ServerJar;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.TransferMethod;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks over a veth pair between two network namespaces: every registered download, upload and relay method
 * moves verified bytes across it (the load bench too), and no namespace, link, qdisc or process in them outlives a run,
 * whether it ends normally, by SIGTERM or by SIGKILL (the teardown guard; if that is killed too, the next run removes
 * what was left). Needs root; skipped with the reason elsewhere, failed instead under XFERBENCH_REQUIRE_ALL_METHODS=1.
 */
@Timeout(600)
class VethBenchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SERVER_JAR = ServerJar.PATH;

    @TempDir
    Path dir;

    @BeforeEach
    void namespacesCanBeMade() {
        ServerJar.assumeBuilt("veth");
        MethodAssumptions.assumeAvailable("veth", namespaces());
    }

    @Test
    void everyMethodMovesVerifiedBytesOverTheVethPairAndNothingIsLeftBehind() throws Exception {
        assertEveryRowVerified(run("download", "--method", "all", "--size", "0,1MiB+1"),
                "download", DownloadMethods.blocking());
        assertEveryRowVerified(run("upload", "--data-dir", dir.resolve("bodies").toString(), "--method", "all", "--size", "0,1MiB+1"),
                "upload", UploadMethods.all());
        assertEveryRowVerified(run("proxy", "--method", "all", "--scenario", "bulk", "--size", "1MiB+1"),
                "proxy", RelayMethods.all());
        assertNothingLeftBy(ProcessHandle.current().pid());
    }

    @Test
    void jumboFramesAreTheMtuOfBothEnds() throws Exception {
        JsonNode report = run("download", "--mtu", "9000", "--method", "transfer-to", "--size", "1MiB");
        assertThat(report.at("/environment/network/client/mtu").asInt()).isEqualTo(9000);
        assertThat(report.at("/environment/network/server/mtu").asInt()).isEqualTo(9000);
        assertNothingLeftBy(ProcessHandle.current().pid());
    }

    @Test
    void theLoadBenchRunsItsServersAndNginxAcrossThePair() throws Exception {
        Path report = dir.resolve("load.json");
        Path defaultDataDir = Path.of(System.getProperty("java.io.tmpdir"), "xferbench-data");
        boolean defaultDataDirExisted = Files.exists(defaultDataDir);
        int status = Cli.run(new io.xferbench.client.ClientMain(), "veth", "load-bench", "--server-jar", SERVER_JAR.toString(),
                "--io-models", "platform", "--concurrency", "4", "--duration", "1s", "--warmup", "200ms", "--jit-settle", "0s", "--file-size", "8KiB",
                "--no-wrk", "--format", "json", "--out", report.toString());
        assertThat(status).as("load-bench over veth: exit status").isZero();
        assertThat(Files.exists(defaultDataDir)).as("the single server's default data directory, unused by the load bench")
                .isEqualTo(defaultDataDirExisted);
        JsonNode doc = JSON.readTree(report.toFile());
        assertThat(doc.at("/settings/serverAddress").asText()).isEqualTo(VethPair.SERVER_ADDRESS);
        assertThat(doc.at("/settings/network").asText()).as("the client's end is the veth").startsWith(VethPair.CLIENT_DEVICE + " veth mtu ");
        List<String> servers = new ArrayList<>();
        for (JsonNode row : doc.path("rows")) {
            String what = row.path("server").asText() + " " + row.path("model").asText() + " " + row.path("protocol").asText();
            if (row.has("skipped")) {
                MethodAssumptions.assumeAvailable(what, Availability.unavailable(row.path("skipped").asText()));
            }
            servers.add(row.path("server").asText());
            assertThat(row.path("requests").asLong()).as(what).isPositive();
            assertThat(row.path("errors").asLong()).as(what).isZero();
            assertThat(row.path("verified").asBoolean()).as(what + " verified").isTrue();
            if (io.xferbench.core.metrics.PerfCgroup.availability().isAvailable()) {
                // The namespace is entered without remounting /sys: the host's cgroups stay visible for perf -G.
                assertThat(row.path("serverSyscallsUnavailable").asText("")).as(what).doesNotContain("hierarchy is mounted");
            }
        }
        assertThat(servers).contains("xferbench", "nginx");
        assertNothingLeftBy(ProcessHandle.current().pid());
    }

    @Test
    void sigtermAndSigkillLeaveNoNamespaceLinkOrProcessBehind() throws Exception {
        Process terminated = startLongRun();
        List<Long> inside = awaitRunningInNamespaces(terminated);
        List<String> namespaces = namespaceInodes(terminated.pid());
        terminated.destroy();
        assertThat(terminated.waitFor(60, TimeUnit.SECONDS)).as("SIGTERM ends the run").isTrue();
        awaitExit(inside);
        assertNothingLeftBy(terminated.pid(), namespaces);

        // SIGKILL: no hook runs; the server and client die with the launcher (parent-death signal) and its guard,
        // outside the namespaces, deletes them when the launcher's pipe closes. Nothing waits for a next run.
        Process killed = startLongRun();
        inside = awaitRunningInNamespaces(killed);
        namespaces = namespaceInodes(killed.pid());
        killed.destroyForcibly().waitFor();
        awaitExit(inside);
        awaitNoNamespacesOf(killed.pid());
        assertNothingLeftBy(killed.pid(), namespaces);
    }

    @Test
    void whenTheGuardIsKilledTooTheNextRunRemovesWhatWasLeft() throws Exception {
        Process killed = startLongRun();
        List<Long> inside = awaitRunningInNamespaces(killed);
        List<String> namespaces = namespaceInodes(killed.pid());
        ProcessHandle guard = killed.descendants().filter(VethBenchTest::isGuard).findFirst().orElseThrow(
                () -> new AssertionError("the run has no teardown guard"));
        guard.destroyForcibly();  // a kill -9 of the whole process tree, say
        guard.onExit().get(30, TimeUnit.SECONDS);
        killed.destroyForcibly().waitFor();
        awaitExit(inside);
        assertThat(ours(killed.pid())).as("without hook and guard the namespaces stay").hasSize(2);
        VethPair.removeStale();  // what the next run does first
        assertNothingLeftBy(killed.pid(), namespaces);
    }

    private JsonNode run(String command, String... args) throws IOException {
        Path report = dir.resolve(command + ".json");
        List<String> cmd = new ArrayList<>(List.of("veth", command, "--server-jar", SERVER_JAR.toString(),
                "--server-data-dir", dir.resolve("server").toString(), "--repeat", "1", "--warmup", "0",
                "--format", "json", "--out", report.toString()));
        cmd.addAll(List.of(args));
        int status = Cli.run(new io.xferbench.client.ClientMain(), cmd.toArray(String[]::new));
        assertThat(status).as(command + " over veth: exit status").isZero();
        JsonNode tree = JSON.readTree(report.toFile());
        assertThat(tree.at("/environment/network/path").asText()).as("the path recorded").isEqualTo("veth");
        assertThat(tree.at("/environment/network/client/address").asText()).isEqualTo(VethPair.CLIENT_ADDRESS);
        assertThat(tree.at("/environment/network/server/address").asText()).isEqualTo(VethPair.SERVER_ADDRESS);
        return tree;
    }

    private static void assertEveryRowVerified(JsonNode report, String direction, List<? extends TransferMethod> registered) {
        List<String> ids = registered.stream().map(TransferMethod::id).toList();
        List<String> seen = new ArrayList<>();
        for (JsonNode row : report.get("results")) {
            String what = direction + " " + row.get("method").asText() + " " + row.get("size").asLong();
            seen.add(row.get("method").asText());
            if (!row.get("skipped").isNull()) {
                MethodAssumptions.assumeAvailable(what, Availability.unavailable(row.get("skipped").asText()));
            }
            assertThat(row.get("error").isNull()).as(what + ": " + row.get("error")).isTrue();
            assertThat(row.get("verified").asBoolean()).as(what + " verified").isTrue();
            assertThat(row.get("bytes").asLong()).as(what + ": every byte").isEqualTo(row.get("size").asLong() * row.get("transfers").asLong());
        }
        assertThat(seen).as("every registered " + direction + " method ran").containsAll(ids);
    }

    /** A download long enough to be killed in the middle, in a JVM of its own. */
    private Process startLongRun() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.xferbench.client.ClientMain",
                "veth", "download", "--server-jar", SERVER_JAR.toString(), "--server-data-dir", dir.resolve("server").toString(),
                "--method", "stream", "--size", "8MiB", "--repeat", "100000", "--warmup", "0")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Waits until the run's server and client are both up in its namespaces; returns their pids. */
    private static List<Long> awaitRunningInNamespaces(Process run) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && run.isAlive()) {
            List<String> names = ours(run.pid());
            if (names.size() == 2) {
                List<Long> server = pids(names.stream().filter(n -> n.endsWith("-server")).findFirst().orElseThrow());
                List<Long> client = pids(names.stream().filter(n -> n.endsWith("-client")).findFirst().orElseThrow());
                if (!server.isEmpty() && !client.isEmpty()) {
                    Thread.sleep(2000);  // the client is past its JVM start and moving bytes
                    List<Long> all = new ArrayList<>(server);
                    all.addAll(client);
                    return all;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the run never had a server and a client in its namespaces (alive: " + run.isAlive() + ")");
    }

    private static void awaitExit(List<Long> pids) throws Exception {
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());
        }
    }

    private static void assertNothingLeftBy(long pid) throws IOException {
        assertThat(ours(pid)).as("ip netns list: no namespace of run " + pid).isEmpty();
        // Our links only ever live inside the namespaces; none may appear in the root namespace either, nor a qdisc on one.
        assertThat(HostCommand.run("ip", "-o", "link", "show")).as("ip link")
                .doesNotContain(VethPair.SERVER_DEVICE).doesNotContain(VethPair.CLIENT_DEVICE);
        assertThat(HostCommand.run("tc", "qdisc", "show")).as("tc qdisc show")
                .doesNotContain(VethPair.SERVER_DEVICE).doesNotContain(VethPair.CLIENT_DEVICE);
    }

    /**
     * Also no process still in one of the run's network namespaces ({@code net:[INODE]}): a deleted name whose namespace a
     * process still holds keeps the veth pair and its qdiscs alive, invisible to {@code ip netns list}.
     */
    private static void assertNothingLeftBy(long pid, List<String> namespaceInodes) throws IOException {
        assertNothingLeftBy(pid);
        List<String> holders = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String ns = Files.readSymbolicLink(proc.resolve("ns/net")).toString();
                    if (namespaceInodes.contains(ns)) {
                        holders.add(proc.getFileName() + " " + ns);
                    }
                } catch (IOException e) {
                    // Gone meanwhile, or not ours to read.
                }
            }
        }
        assertThat(holders).as("processes still in the run's network namespaces").isEmpty();
    }

    /** {@code net:[INODE]} of the run's namespaces, as /proc/PID/ns/net of a process inside would read. */
    private static List<String> namespaceInodes(long pid) throws IOException {
        List<String> inodes = new ArrayList<>();
        for (String name : ours(pid)) {
            inodes.add("net:[" + Files.getAttribute(Path.of("/run/netns", name), "unix:ino") + "]");
        }
        return inodes;
    }

    private static void awaitNoNamespacesOf(long pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ours(pid).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    private static boolean isGuard(ProcessHandle p) {
        return p.info().arguments().map(args -> List.of(args).contains(TeardownGuard.NAME)).orElse(false);
    }

    private static List<String> ours(long pid) throws IOException {
        return VethPair.existing().stream().filter(n -> n.startsWith(VethPair.NAME_PREFIX + pid + "-")).toList();
    }

    private static List<Long> pids(String namespace) throws IOException {
        return Stream.of(HostCommand.run("ip", "netns", "pids", namespace).split("\\s+")).filter(s -> !s.isEmpty())
                .map(Long::parseLong).toList();
    }

    /** Whether this machine lets us make a pair (root, iproute2, netns support), or why not. */
    private static Availability namespaces() {
        try (VethPair probe = VethPair.create(1500, null)) {
            return Availability.AVAILABLE;
        } catch (IOException e) {
            return Availability.unavailable("cannot create network namespaces here: " + e.getMessage());
        }
    }
}
