package io.xferbench.client.netpath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two network namespaces joined by a veth pair: a real network path (MTU, segmentation, GRO, a qdisc) between a
 * server and a client on one machine. Addresses come from the benchmarking range 198.18.0.0/15 (RFC 2544) and exist
 * only inside the namespaces; the root namespace never holds a link of ours, and deleting a namespace takes its veth
 * end and qdisc with it. Namespaces are named after their owner (pid and start time), so parallel runs never clash
 * and a later run removes what a killed one left ({@link #removeStale()}); a shutdown hook tears down on SIGTERM/Ctrl-C,
 * and a {@link TeardownGuard} outside the namespaces does it when this JVM is killed outright.
 */
final class VethPair implements AutoCloseable {
    static final String NAME_PREFIX = "xferbench-";
    static final String SERVER_ADDRESS = "198.18.0.1";
    static final String CLIENT_ADDRESS = "198.18.0.2";
    private static final int PREFIX_LENGTH = 30;
    static final String SERVER_DEVICE = "xfb-server";
    static final String CLIENT_DEVICE = "xfb-client";
    /** xferbench-PID-STARTSECONDS-N-server|client. */
    private static final Pattern OWNED = Pattern.compile("^" + NAME_PREFIX + "(\\d+)-(\\d+)-\\d+-(server|client)$");
    private static final long GRACE_SECONDS = 5;
    private static final Path NSENTER = Path.of("/usr/bin/nsenter");
    /** Where ip netns keeps the namespaces it names. */
    private static final Path NETNS_DIR = Path.of("/run/netns");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Set<VethPair> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(LIVE).forEach(VethPair::close), "xferbench-veth-teardown"));
    }

    final String serverNamespace;
    final String clientNamespace;
    private final TeardownGuard guard;

    private VethPair(String serverNamespace, String clientNamespace, TeardownGuard guard) {
        this.serverNamespace = serverNamespace;
        this.clientNamespace = clientNamespace;
        this.guard = guard;
    }

    /**
     * Creates the pair with both ends at {@code mtu} and, when {@code rootQdisc} is non-null (e.g. {@code netem delay 1ms}),
     * that qdisc on both ends' egress. Anything half-made is removed again when a step fails.
     */
    static VethPair create(int mtu, String rootQdisc) throws IOException {
        removeStale();
        String base = NAME_PREFIX + ownerTag(ProcessHandle.current()).orElse(ProcessHandle.current().pid() + "-0")
                + "-" + SEQUENCE.incrementAndGet();
        // Guarded before they exist: a SIGKILL at any moment from here on leaves nothing once the guard has run.
        TeardownGuard guard = TeardownGuard.start(List.of(base + "-server", base + "-client"));
        VethPair pair = new VethPair(base + "-server", base + "-client", guard);
        LIVE.add(pair);
        try {
            ip("netns", "add", pair.serverNamespace);
            ip("netns", "add", pair.clientNamespace);
            ip("-n", pair.serverNamespace, "link", "add", SERVER_DEVICE, "type", "veth", "peer", "name", CLIENT_DEVICE,
                    "netns", pair.clientNamespace);
            pair.configure(pair.serverNamespace, SERVER_DEVICE, SERVER_ADDRESS, mtu, rootQdisc);
            pair.configure(pair.clientNamespace, CLIENT_DEVICE, CLIENT_ADDRESS, mtu, rootQdisc);
            return pair;
        } catch (IOException | RuntimeException e) {
            pair.close();
            throw e;
        }
    }

    private void configure(String namespace, String device, String address, int mtu, String rootQdisc) throws IOException {
        ip("-n", namespace, "link", "set", "lo", "up");
        ip("-n", namespace, "link", "set", device, "mtu", Integer.toString(mtu));
        ip("-n", namespace, "addr", "add", address + "/" + PREFIX_LENGTH, "dev", device);
        if (rootQdisc != null) {
            List<String> tc = new ArrayList<>(List.of("tc", "-n", namespace, "qdisc", "replace", "dev", device, "root"));
            tc.addAll(Arrays.asList(rootQdisc.strip().split("\\s+")));
            HostCommand.run(tc.toArray(String[]::new));
        }
        ip("-n", namespace, "link", "set", device, "up");
    }

    /** {@code command} run in the server's namespace. */
    List<String> inServer(List<String> command) {
        return in(serverNamespace, command);
    }

    /** {@code command} run in the client's namespace. */
    List<String> inClient(List<String> command) {
        return in(clientNamespace, command);
    }

    /**
     * {@code command} in the server's (or client's) namespace by {@code nsenter --net}: unlike {@code ip netns exec} it
     * leaves /sys as the host mounted it, cgroup hierarchies included, which the load bench's per-cgroup syscall counts
     * (perf -G) need. Falls back to {@code ip netns exec} where util-linux's nsenter is missing.
     */
    List<String> enteringServer(List<String> command) {
        return entering(serverNamespace, command);
    }

    List<String> enteringClient(List<String> command) {
        return entering(clientNamespace, command);
    }

    private static List<String> entering(String namespace, List<String> command) {
        if (!Files.isExecutable(NSENTER)) {
            return in(namespace, command);
        }
        List<String> cmd = new ArrayList<>(List.of(NSENTER.toString(), "--net=" + NETNS_DIR.resolve(namespace)));
        cmd.addAll(command);
        return cmd;
    }

    private static List<String> in(String namespace, List<String> command) {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        cmd.addAll(command);
        return cmd;
    }

    /** Stops whatever still runs in the namespaces, then deletes them (and with them the veth and its qdiscs). */
    @Override
    public void close() {
        LIVE.remove(this);
        delete(serverNamespace);
        delete(clientNamespace);
        guard.close();
    }

    /** Removes the namespaces of runs whose owner is gone (killed by SIGKILL, say), and the processes left in them. */
    static void removeStale() throws IOException {
        for (String line : HostCommand.run("ip", "netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            Matcher m = OWNED.matcher(name);
            if (m.matches() && !ownerAlive(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))) {
                System.err.println("xferbench: removing network namespace " + name + ", left by a run that was killed");
                delete(name);
            }
        }
    }

    /** Our namespaces that exist now (for tests and for checking that nothing was left behind). */
    static List<String> existing() throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : HostCommand.run("ip", "netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (name.startsWith(NAME_PREFIX)) {
                names.add(name);
            }
        }
        return names;
    }

    /** pid-startSeconds: a pid alone could be reused by an unrelated process by the time a later run looks. */
    static Optional<String> ownerTag(ProcessHandle process) {
        return process.info().startInstant().map(start -> process.pid() + "-" + start.getEpochSecond());
    }

    private static boolean ownerAlive(long pid, long startSeconds) {
        Optional<ProcessHandle> owner = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (owner.isEmpty()) {
            return false;
        }
        Optional<Instant> start = owner.get().info().startInstant();
        // Rounding of the start time may differ by a second between readers; an unknown start counts as alive.
        return startSeconds == 0 || start.isEmpty() || Math.abs(start.get().getEpochSecond() - startSeconds) <= 1;
    }

    private static void delete(String namespace) {
        try {
            stopProcessesIn(namespace);
            ip("netns", "delete", namespace);
        } catch (IOException e) {
            if (!e.getMessage().contains("No such file")) { // already gone: another run's cleanup got there first
                System.err.println("xferbench: could not remove network namespace " + namespace + ": " + e.getMessage());
            }
        }
    }

    /** A process left in a namespace keeps it (and its veth) alive after the name is deleted: SIGTERM, then SIGKILL. */
    private static void stopProcessesIn(String namespace) throws IOException {
        List<ProcessHandle> left = new ArrayList<>();
        for (String pid : HostCommand.run("ip", "netns", "pids", namespace).split("\\s+")) {
            if (!pid.isEmpty()) {
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(left::add);
            }
        }
        left.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
        for (ProcessHandle p : left) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }

    private static void ip(String... args) throws IOException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        HostCommand.run(cmd);
    }
}
