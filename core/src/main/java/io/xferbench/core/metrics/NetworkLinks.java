package io.xferbench.core.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@link NetworkLink} behind a local address: the interface and MTU from the JDK, the link kind from
 * {@code ip -d link}, the root qdisc from {@code tc}, the offloads from {@code ethtool -k}. A tool that is missing or
 * fails leaves its field null and says why. Answers are kept a few seconds per address: a server describes its end
 * on every INFO, and hundreds of connections asking at once must not start hundreds of processes.
 */
public final class NetworkLinks {
    /** Offloads shown in a table's header, with their short names. */
    static final Map<String, String> SUMMARY_OFFLOADS = ordered(
            "tcp-segmentation-offload", "tso", "generic-segmentation-offload", "gso",
            "generic-receive-offload", "gro", "large-receive-offload", "lro", "rx-gro-hw", "gro-hw");
    /** Offloads recorded: the summary's plus those a zero-copy send depends on (scatter-gather, checksums). */
    static final List<String> RECORDED_OFFLOADS = List.of("tcp-segmentation-offload", "generic-segmentation-offload",
            "generic-receive-offload", "large-receive-offload", "rx-gro-hw", "scatter-gather", "tx-checksumming",
            "rx-checksumming");

    private static final long FRESH_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long TOOL_TIMEOUT_SECONDS = 5;
    private static final Pattern ROOT_QDISC = Pattern.compile("^qdisc (\\S+) \\S+ root(?: refcnt \\d+)?\\s*(.*?)\\s*$");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, Cached> CACHE = new ConcurrentHashMap<>();

    private record Cached(NetworkLink link, long at) {
    }

    private NetworkLinks() {
    }

    /** The link this process would use to reach {@code remote} (a routing lookup; nothing is sent). */
    public static NetworkLink towards(InetAddress remote) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(remote, 9));
            return of(probe.getLocalAddress());
        } catch (IOException | RuntimeException e) {
            return new NetworkLink("unknown", "?", "?", null, null, null, List.of("route to " + remote.getHostAddress() + ": " + e.getMessage()));
        }
    }

    /** The link that owns the local address {@code local}, e.g. a connected socket's. */
    public static NetworkLink of(InetAddress local) {
        String key = local.getHostAddress();
        long now = System.nanoTime();
        Cached c = CACHE.get(key);
        if (c != null && now - c.at() < FRESH_NANOS) {
            return c.link();
        }
        NetworkLink link = probe(local);
        CACHE.put(key, new Cached(link, now));
        return link;
    }

    private static NetworkLink probe(InetAddress local) {
        List<String> missing = new ArrayList<>();
        NetworkInterface nif;
        Integer mtu;
        try {
            nif = NetworkInterface.getByInetAddress(local);
            if (nif == null) {
                return new NetworkLink("unknown", "?", local.getHostAddress(), null, null, null,
                        List.of("interface: no interface has " + local.getHostAddress()));
            }
            mtu = nif.getMTU();
        } catch (IOException e) {
            return new NetworkLink("unknown", "?", local.getHostAddress(), null, null, null, List.of("interface: " + e.getMessage()));
        }
        String device = nif.getName();
        String kind = kind(device, isLoopback(nif), missing);
        String qdisc = qdisc(device, missing);
        Map<String, Boolean> offloads = offloads(device, missing);
        return new NetworkLink(kind, device, local.getHostAddress(), mtu, qdisc, offloads, missing);
    }

    private static boolean isLoopback(NetworkInterface nif) {
        try {
            return nif.isLoopback();
        } catch (IOException e) {
            return false;
        }
    }

    private static String kind(String device, boolean loopback, List<String> missing) {
        if (loopback) {
            return NetworkLink.LOOPBACK;
        }
        try {
            JsonNode info = JSON.readTree(run("ip", "-j", "-d", "link", "show", "dev", device)).path(0).path("linkinfo");
            if (info.hasNonNull("info_kind")) {
                return info.get("info_kind").asText();
            }
        } catch (IOException e) {
            missing.add("kind: " + e.getMessage());
        }
        Path driver = Path.of("/sys/class/net", device, "device", "driver");
        try {
            return "nic (" + Files.readSymbolicLink(driver).getFileName() + ")";
        } catch (IOException | UnsupportedOperationException e) {
            return "unknown";
        }
    }

    private static String qdisc(String device, List<String> missing) {
        try {
            for (String line : run("tc", "qdisc", "show", "dev", device).split("\n")) {
                Matcher m = ROOT_QDISC.matcher(line);
                if (m.matches()) {
                    return m.group(2).isEmpty() ? m.group(1) : m.group(1) + " " + m.group(2);
                }
            }
            missing.add("qdisc: tc showed no root qdisc for " + device);
        } catch (IOException e) {
            missing.add("qdisc: " + e.getMessage());
        }
        return null;
    }

    private static Map<String, Boolean> offloads(String device, List<String> missing) {
        try {
            return parseOffloads(run("ethtool", "-k", device));
        } catch (IOException e) {
            missing.add("offloads: " + e.getMessage());
            return null;
        }
    }

    /** The recorded features of {@code ethtool -k} output (top-level lines {@code name: on|off [fixed]}). */
    static Map<String, Boolean> parseOffloads(String ethtool) {
        Map<String, Boolean> found = new LinkedHashMap<>();
        for (String line : ethtool.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.startsWith("\t") || line.startsWith(" ")) {
                continue;
            }
            String name = line.substring(0, colon);
            if (RECORDED_OFFLOADS.contains(name)) {
                found.put(name, line.substring(colon + 1).strip().startsWith("on"));
            }
        }
        return found;
    }

    /** Runs a tool (looked up on PATH, then in /usr/sbin and /sbin, where ip, tc and ethtool live) and returns its stdout. */
    private static String run(String tool, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(locate(tool));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(TOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(tool + " did not answer in " + TOOL_TIMEOUT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(tool + " exited with " + p.exitValue());
            }
            return out;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + tool, e);
        }
    }

    private static String locate(String tool) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty()) {
                dirs.add(Path.of(dir));
            }
        }
        dirs.add(Path.of("/usr/sbin"));
        dirs.add(Path.of("/sbin"));
        for (Path dir : dirs) {
            if (Files.isExecutable(dir.resolve(tool))) {
                return dir.resolve(tool).toString();
            }
        }
        throw new IOException(tool + " not installed");
    }

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }
}
