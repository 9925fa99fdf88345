package io.xferbench.client.command;

import io.xferbench.client.report.Provenance;
import io.xferbench.client.report.Report;
import io.xferbench.client.report.RunEnvironment;
import io.xferbench.client.report.RunSettings;
import io.xferbench.client.result.MethodResult.Scenario;
import io.xferbench.client.result.MethodResult;
import io.xferbench.client.run.Outcome;
import io.xferbench.client.run.Progress;
import io.xferbench.client.run.TransferDriver;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.data.GeneratedChecksums;
import io.xferbench.core.method.Direction;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.net.BodyReceiver;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.protocol.Wire;
import io.xferbench.core.registry.RelayMethods;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Measures the relays of a running proxy ({@code xferbench-server --proxy-to HOST:PORT}): every connection picks
 * its relay with a PROXY frame, then downloads from the upstream server through it. Three scenarios: {@code small},
 * many empty-body request/response exchanges (0-byte downloads) on kept-alive connections — req/s, latency, proxy
 * syscalls per request; {@code connect}, the same with a new connection (connect, PROXY frame, one exchange,
 * close) per exchange, so the relay's per-connection setup (threads, pipes, adopted channels) is in every request;
 * {@code bulk}, bodies of {@code --size} (1 MiB) — MiB/s, proxy syscalls per GiB. The CPU and syscall columns are
 * the proxy process's own (its MEASURE window), where the relays run.
 */
@Command(name = "proxy", mixinStandardHelpOptions = true,
        description = "Drive a running xferbench proxy with each relay method: small request/response exchanges and bulk bodies "
                + "downloaded through it. Reports req/s or MiB/s, latency, and the proxy process's CPU and syscalls.")
public final class ProxyCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Option(names = "--method", defaultValue = "all", split = ",", description = "Relays, comma-separated: ID, ID:BUFFER "
            + "(e.g. copy:1KiB, the relay buffer sent in the PROXY frame) or 'all' (every relay the proxy has; default).")
    List<String> methods;

    @Option(names = "--scenario", defaultValue = "small,connect,bulk", split = ",", description = "small: empty-body exchanges "
            + "on kept-alive connections; connect: a new connection per exchange; bulk: --size bodies (default: ${DEFAULT-VALUE}).")
    List<String> scenarios;

    @Option(names = "--size", defaultValue = "1MiB", split = ",", converter = Converters.Size.class,
            description = "Body sizes of the bulk scenario (default: ${DEFAULT-VALUE}).")
    List<Long> sizes;

    @Option(names = "--exchanges", defaultValue = "2000", converter = Converters.PositiveInt.class, description = "small: exchanges per connection per round (default: ${DEFAULT-VALUE}).")
    int exchanges;

    @Option(names = "--connects", defaultValue = "500", converter = Converters.PositiveInt.class, description = "connect: connections (one exchange each) per connection "
            + "slot per round (default: ${DEFAULT-VALUE}).")
    int connects;

    @Option(names = "--bodies", defaultValue = "64", converter = Converters.PositiveInt.class, description = "bulk: bodies per connection per round (default: ${DEFAULT-VALUE}).")
    int bodies;

    @Option(names = "--relay-buffer", defaultValue = "0", converter = Converters.BufferSizeOrDefault.class, description = "Relay buffer for relays without :BUFFER (copy: user buffer, "
            + "splice: pipe size); 0 = the proxy's --relay-buffer (default: ${DEFAULT-VALUE}).")
    int relayBuffer;

    @Option(names = "--download-method", defaultValue = "transfer-to", description = "Upstream server's sender (default: ${DEFAULT-VALUE}).")
    String downloadMethod;

    @Mixin
    RoundOptions rounds;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /** A relay and the buffer its PROXY frame asks for (null: the proxy's default). */
    record RelaySpec(String relay, Integer buffer) {
        int frameBuffer() {
            return buffer == null ? 0 : buffer;
        }
    }

    /** Parses {@code ID}, {@code ID:SIZE} and {@code all} against the proxy's relays. */
    static List<RelaySpec> relays(List<String> items, MethodCatalog catalog, Integer defaultBuffer) {
        List<RelaySpec> out = new ArrayList<>();
        for (String item : items) {
            int colon = item.indexOf(':');
            String id = colon < 0 ? item : item.substring(0, colon);
            Integer buffer = colon < 0 ? defaultBuffer : buffer(item.substring(colon + 1));
            for (String relay : catalog.choose(List.of(id))) {
                requireEffective(relay, buffer);
                RelaySpec spec = new RelaySpec(relay, buffer);
                if (!out.contains(spec)) {
                    out.add(spec);
                }
            }
        }
        return out;
    }

    /**
     * A relay buffer below what takes effect (splice's pipe holds at least a page) would label a row with a buffer
     * that was not used; the proxy refuses it too, but only once the run has started. Relays this build does not
     * know are left to the proxy.
     */
    private static void requireEffective(String relay, Integer buffer) {
        int min = RelayMethods.byId(relay).map(RelayMethod::minBufferSize).orElse(1);
        if (buffer != null && buffer < min) {
            throw new IllegalArgumentException("relay buffer of " + relay + " must be at least " + min
                    + " bytes, the least that takes effect, not " + buffer);
        }
    }

    private static Integer buffer(String text) {
        long size = Sizes.parse(text);
        if (size < 0 || size > Wire.MAX_BUFFER_SIZE) {
            throw new IllegalArgumentException("relay buffer " + text + " outside 0.." + Wire.MAX_BUFFER_SIZE);
        }
        return size == 0 ? null : (int) size;
    }

    @Override
    public Integer call() throws Exception {
        output.check();
        DirectMemoryBudget.require(rounds.concurrency, BodyReceiver.BUFFER_SIZE);
        List<Scenario> chosen = scenarios.stream().map(Scenario::of).toList();
        ServerDescription proxyInfo = Windows.proxyInfo(server);
        ServerDescription upstreamInfo = Windows.info(server);
        MethodCatalog relays = MethodCatalog.of(proxyInfo, "proxy");
        MethodCatalog senders = MethodCatalog.of(upstreamInfo, "download");
        senders.choose(List.of(downloadMethod));
        if (senders.unavailableReason(downloadMethod) != null) {
            throw new IllegalArgumentException("--download-method " + downloadMethod + " is unavailable on the upstream server: "
                    + senders.unavailableReason(downloadMethod));
        }
        List<RelaySpec> specs = relays(methods, relays, relayBuffer == 0 ? null : relayBuffer);
        List<Long> parsedSizes = sizes;
        // The upstream's files are generated and warmed once, untimed, before anything is measured; the timed
        // exchanges carry no cache flags, so the upstream does no cache work (mincore) inside them.
        int flags = rounds.verifyCrc32c() ? Flags.VERIFY_CRC32C : 0;
        if (rounds.verifyCrc32c()) {
            // What each download is checked against, computed now: never inside a round's clock or CPU window.
            parsedSizes.forEach(GeneratedChecksums::of);
        }
        warm(chosen.contains(Scenario.BULK) ? parsedSizes : List.of(), chosen.stream().anyMatch(s -> s != Scenario.BULK));

        int rows = chosen.stream().mapToInt(s -> s == Scenario.BULK ? parsedSizes.size() : 1).sum() * specs.size();
        Progress progress = rounds.progress(rows);
        TransferDriver driver = new TransferDriver(rounds.rounds(), progress);
        List<MethodResult> results = new ArrayList<>();
        for (Scenario scenario : chosen) {
            List<Long> scenarioSizes = scenario == Scenario.BULK ? parsedSizes : List.of(0L);
            for (long size : scenarioSizes) {
                Request request = Request.download(downloadMethod, size, flags, 0);
                for (RelaySpec spec : specs) {
                    MethodResult.Row row = new MethodResult.Row(Direction.RELAY, spec.relay(), scenario, size, spec.buffer());
                    String unavailable = relays.unavailableReason(spec.relay());
                    if (scenario == Scenario.CONNECT) {
                        results.add(driver.run(new TransferDriver.Job<ConnectSlot>(row, connects, ConnectSlot::new,
                                (slot, index) -> connectAndExchange(slot, spec, request), connections -> Windows.proxy(server)), unavailable));
                    } else {
                        results.add(driver.run(new TransferDriver.Job<XferConnection>(row, scenario == Scenario.SMALL ? exchanges : bodies,
                                () -> scenario == Scenario.BULK ? relayed(spec).reserveReceiveBuffer() : relayed(spec),
                                (c, index) -> Outcome.of(c.download(request)),
                                connections -> Windows.proxy(server)), unavailable));
                    }
                }
            }
        }
        progress.finish();
        RunSettings settings = new RunSettings.Proxy(rounds.describe(server, parsedSizes), scenarios, exchanges, connects, bodies,
                downloadMethod, proxyInfo.relayBuffer(), "proxy process (pid " + proxyInfo.pid() + "): CPU and syscalls in its own MEASURE window");
        RunEnvironment environment = new RunEnvironment(Provenance.now(spec.commandLine().getParseResult().originalArgs()), settings,
                null, null, EnvironmentInfo.describe(null), server.networkPath(proxyInfo),
                new RunEnvironment.ProxySide(proxyInfo.pid(), proxyInfo.upstream(), proxyInfo.environment()), upstreamInfo.environment());
        return output.emit(Report.of(environment, results));
    }

    /** Generates and warms the upstream's files of {@code sizes} (and the empty one) through the proxy's default relay. */
    private void warm(List<Long> sizes, boolean empty) throws IOException {
        try (XferConnection c = server.open()) {
            for (long size : empty ? java.util.stream.Stream.concat(java.util.stream.Stream.of(0L), sizes.stream()).toList() : sizes) {
                c.prepare(Request.download(downloadMethod, size, Flags.CACHE_WARM, 0));
            }
        }
    }

    /** connect: one exchange on a connection of its own; its latency runs from connect to the answer. */
    private Outcome connectAndExchange(ConnectSlot slot, RelaySpec spec, Request request) throws IOException {
        long start = System.nanoTime();
        try (XferConnection c = relayed(spec)) {
            slot.used(c.localAddress());
            Outcome o = Outcome.of(c.download(request));
            return new Outcome(o.bytes(), System.nanoTime() - start, o.failure(), o.residencyBefore(), o.residencyAfter(),
                    o.serverNanos(), o.verifyNanos(), o.fsyncNanos());
        }
    }

    /** connect: one slot of the row's concurrency; remembers the connections it opened, which are this run's own. */
    static final class ConnectSlot implements AutoCloseable, TransferDriver.LocalEndpoints {
        private final Set<String> addresses = ConcurrentHashMap.newKeySet();

        void used(String address) {
            addresses.add(address);
        }

        @Override
        public Collection<String> localAddresses() {
            return addresses;
        }

        @Override
        public void close() {
        }
    }

    /** A connection to the proxy that has asked for {@code spec}'s relay. */
    private XferConnection relayed(RelaySpec spec) throws IOException {
        XferConnection c = server.open();
        try {
            String inEffect = c.proxy(spec.relay(), spec.frameBuffer());
            if (!inEffect.equals(spec.relay())) {
                throw new IOException("asked the proxy for relay " + spec.relay() + ", it relays with " + inEffect);
            }
            return c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }
}
