package io.xferbench.server;

import io.xferbench.core.JvmDirectMemory;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.netty.IoUringWorkers;
import io.xferbench.core.netty.NettyLeakDetection;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.uring.UringDepth;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.OpenFilesLimit;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.limits.BufferMemoryLimit;
import io.xferbench.server.loop.EventLoopRingSize;
import io.xferbench.server.proxy.ProxyConfig;
import io.xferbench.server.proxy.SelfLoop;
import io.xferbench.server.proxy.UpstreamAddress;
import io.xferbench.server.proxy.XferProxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar xferbench-server.jar --data-dir DIR [--bind 127.0.0.1] [--port 7070]}, or as a proxy
 * {@code java -jar xferbench-server.jar --proxy-to HOST:PORT [--relay copy] [--relay-buffer 64KiB] [--port 7071]}; a proxy
 * refuses the options only a server uses ({@link ServerOnlyOption}).
 */
@Command(name = "xferbench-server", mixinStandardHelpOptions = true, version = "xferbench-server 0.1.0",
        description = "Serves and receives files over TCP with every transfer method. Prints one line "
                + "'xferbench-server listening on HOST:PORT' when ready. With --proxy-to it is instead a proxy that "
                + "relays every connection to that xferbench server and prints 'xferbench-proxy listening on HOST:PORT'.")
public final class ServerMain implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--data-dir", description = "Directory served and written; nothing outside it is touched (required unless --proxy-to).")
    Path dataDir;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--port", defaultValue = "7070", converter = Converters.Port.class, description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--max-connections", defaultValue = "256", converter = Converters.PositiveInt.class, description = "Connections served at once; more are refused BUSY (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--token", description = "Require this token on every request (visible in ps: prefer --token-file).")
    String token;

    @Option(names = "--token-file", description = "Require the token stored in this file (first line).")
    Path tokenFile;

    @Option(names = "--max-upload", defaultValue = "64GiB", converter = Converters.Size.class, description = "Largest upload accepted (default: ${DEFAULT-VALUE}).")
    long maxUpload;

    @Option(names = "--min-rate", defaultValue = "1MiB", converter = Converters.Size.class, description = "Slowest transfer rate per second tolerated: a body of n bytes (a named file's own length) is "
            + "dropped unless through within --idle-timeout + n / this rate (default: ${DEFAULT-VALUE}).")
    long minRate;

    @Option(names = "--shutdown-grace", defaultValue = "10", converter = Converters.NonNegativeInt.class, description = "Seconds in-flight transfers get to finish on SIGTERM (default: ${DEFAULT-VALUE}).")
    int shutdownGraceSeconds;

    @Option(names = "--max-generated", defaultValue = "64GiB", converter = Converters.Size.class, description = "Largest generated test file a client may request (default: ${DEFAULT-VALUE}).")
    long maxGenerated;

    @Option(names = "--max-buffer-memory", converter = Converters.Size.class, description = "Transfer buffers (proxy: relay "
            + "buffers) all connections may hold at once; a request that would need more is answered BUSY. At most three "
            + "quarters of the JVM's direct memory (-XX:MaxDirectMemorySize, else the maximum heap); more is refused "
            + "(default: 1GiB, or that much when it is less).")
    Long maxBufferMemory;

    @Option(names = "--io-model", defaultValue = ServerModels.DEFAULT, description = "How connections get threads: "
            + "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).", completionCandidates = ModelIds.class)
    String ioModel;

    @Option(names = "--io-uring-depth", defaultValue = "" + UringDepth.DEFAULT, converter = Converters.PositiveInt.class, description = "Buffers "
            + "in flight per transfer of the io_uring engine's methods (io-uring-read-send, -send-zc, -direct, upload io-uring-recv-write) (default: ${DEFAULT-VALUE}).")
    int ioUringDepth;

    @Option(names = "--io-uring-max-workers", defaultValue = "" + IoUringWorkers.DEFAULT_MAX_PER_RING, converter = Converters.PositiveInt.class, description = "io-wq "
            + "worker threads per io_uring ring and kind (bounded: files, unbounded: sockets and pipes); the server has one "
            + "ring per core (default: ${DEFAULT-VALUE}).")
    int ioUringMaxWorkers;

    @Option(names = "--io-uring-ring-size", defaultValue = "" + EventLoopRingSize.DEFAULT, converter = Converters.RingEntries.class,
            description = "Submission-queue entries of each io_uring ring of the netty-io-uring models, a power of two from "
                    + Converters.RingEntries.MIN + " to " + Converters.RingEntries.MAX + ": how many requests' operations "
                    + "one batch to the kernel holds (default: ${DEFAULT-VALUE}; Netty's own is 128).")
    int ioUringRingSize;

    @Option(names = "--cork-responses", description = "Cork each download's answer (TCP_CORK, as nginx's tcp_nopush), so "
            + "its header, body and trailer leave in as few TCP segments as their bytes need, at two setsockopt calls per "
            + "answer. Faster on loopback, slower over a 1,500-byte MTU in this suite's runs (docs/load.md, \"Corked answers\"); "
            + "off by default.")
    boolean corkResponses;

    @Option(names = "--tls", description = "Serve the TLS methods (tls-jdk) with a self-signed certificate for localhost (and "
            + "--bind), made at start in the temp directory (a keytool run: about a second of CPU) and removed at exit. Its path "
            + "ends the listening line: 'tls-cert=PATH'. Without --tls or --tls-cert, the TLS methods are refused UNAVAILABLE.")
    boolean tlsSelfSigned;

    @Option(names = "--tls-cert", description = "Certificate chain (PEM, leaf first) the TLS methods serve with, instead of a "
            + "self-signed one (implies --tls); with --tls-key. Its path ends the listening line: 'tls-cert=PATH'.")
    Path tlsCert;

    @Option(names = "--tls-key", description = "Private key of --tls-cert (PEM, unencrypted PKCS#8).")
    Path tlsKey;

    @Option(names = "--idle-timeout", defaultValue = "30", converter = Converters.PositiveInt.class, description = "Seconds a connection may stall inside or between requests; a transfer "
            + "no byte of which moves for this long is dropped too (default: ${DEFAULT-VALUE}).")
    int idleTimeoutSeconds;

    @Option(names = "--proxy-to", converter = UpstreamAddress.Converter.class, description = "Run as a proxy relaying every "
            + "connection to this xferbench server (HOST:PORT, port 1..65535; not the proxy's own address and port).")
    UpstreamAddress proxyTo;

    @Option(names = "--relay", defaultValue = "copy", description = "Proxy: relay method for connections that do not choose one "
            + "with a PROXY frame: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).", completionCandidates = RelayIds.class)
    String relay;

    @Option(names = "--relay-buffer", defaultValue = "64KiB", converter = Converters.BufferSize.class, description = "Proxy: user buffer of the copy relay and pipe size of the splice relay when the PROXY "
            + "frame does not set one (default: ${DEFAULT-VALUE}).")
    int relayBuffer;

    /** I/O model ids for the help text. */
    static final class ModelIds implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            // The pooled model takes its pool size: virtual+pool:N.
            return ServerModels.ids().stream().map(id -> id.equals(ServerModels.POOL) ? id + ":N" : id).iterator();
        }
    }

    /** Relay ids for the help text. */
    static final class RelayIds implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return RelayMethods.ids().iterator();
        }
    }

    @Override
    public Integer call() throws Exception {
        OneLineLogging.install();
        if (proxyTo != null) {
            ServerOnlyOption.refuseInProxy(spec.commandLine());
        }
        if (ioUringDepth > 4096) {
            throw new IllegalArgumentException("--io-uring-depth must be at most 4096, not " + ioUringDepth);
        }
        UringDepth.set(ioUringDepth);
        IoUringWorkers.limit(ioUringMaxWorkers);
        EventLoopRingSize.set(ioUringRingSize);
        if (proxyTo != null) {
            return proxy();
        }
        if (dataDir == null || dataDir.toString().isEmpty()) {
            System.err.println("xferbench-server: --data-dir is required (or --proxy-to HOST:PORT to run as a proxy)");
            return 2;
        }
        if (Files.exists(dataDir) && !Files.isDirectory(dataDir)) {
            throw new IllegalArgumentException("--data-dir " + dataDir + " is not a directory");
        }
        String secret = secret();
        if (minRate < 1) {
            throw new IllegalArgumentException("--min-rate must be at least 1 byte per second");
        }
        if (ServerModels.byId(ioModel).isEmpty()) {
            throw new IllegalArgumentException("--io-model must be one of " + ServerModels.ids() + ", not " + ioModel);
        }
        try {
            InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind " + bind + ": unknown host");
        }
        long bufferMemory = bufferMemory();
        // Null without --tls or --tls-cert: no keytool run at start, and the TLS methods are refused with the options' names.
        ServerTls tls = ServerTls.of(tlsSelfSigned, tlsCert, tlsKey, bind);
        XferServer server;
        try {
            ServerConfig config = new ServerConfig(dataDir, bind, port, maxConnections, secret, maxGenerated, maxUpload,
                    Duration.ofSeconds(idleTimeoutSeconds), minRate, Duration.ofSeconds(shutdownGraceSeconds), bufferMemory, ioModel,
                    corkResponses, tls == null ? null : tls.endpoint());
            BindWarning.unlessLoopback(bind, "read and write " + dataDir, secret);
            raiseOpenFilesLimit();
            server = XferServer.start(config);
        } catch (Exception | Error e) {
            if (tls != null) {
                tls.close();
            }
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (tls) {
                server.close();
            } catch (Exception e) {
                System.err.println("xferbench-server: error while stopping: " + e);
            }
            stopped.countDown();
        }, "xferbench-shutdown"));
        // The certificate's path last: it may hold spaces, and ListeningLine takes the rest of the line.
        System.out.println("xferbench-server listening on " + server.host() + ":" + server.port()
                + (tls == null ? "" : " tls-cert=" + tls.certificate().toAbsolutePath()));
        System.out.flush();
        stopped.await();
        return 0;
    }

    private Integer proxy() throws Exception {
        String secret = secret();
        ProxyConfig config = new ProxyConfig(bind, port, maxConnections, proxyTo.host(), proxyTo.port(), relay, relayBuffer,
                Duration.ofSeconds(idleTimeoutSeconds), bufferMemory(), secret);
        if (RelayMethods.byId(relay).isEmpty()) {
            throw new IllegalArgumentException("unknown relay '" + relay + "' (known: "
                    + String.join(", ", RelayMethods.ids()) + ")");
        }
        int least = RelayMethods.byId(relay).orElseThrow().minBufferSize();
        if (relayBuffer < least) {
            throw new IllegalArgumentException("--relay-buffer " + relayBuffer + " is below " + least + ", the least "
                    + relay + " takes (a pipe holds at least a page)");
        }
        try {
            InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind " + bind + ": unknown host");
        }
        if (SelfLoop.reaches(bind, port, proxyTo)) {
            throw new IllegalArgumentException("--proxy-to " + proxyTo + " is this proxy's own address (--bind " + bind
                    + " --port " + port + "): every connection would be relayed to itself");
        }
        BindWarning.unlessLoopback(bind, "relay to " + proxyTo, secret);
        raiseOpenFilesLimit();
        XferProxy proxy = XferProxy.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                proxy.close();
            } catch (Exception e) {
                System.err.println("xferbench-proxy: error while stopping: " + e);
            }
            stopped.countDown();
        }, "xferbench-shutdown"));
        System.out.println("xferbench-proxy listening on " + proxy.host() + ":" + proxy.port() + " -> " + proxyTo
                + " (relay " + relay + ")");
        System.out.flush();
        stopped.await();
        return 0;
    }

    /** The token --token or --token-file requires, or empty when neither is given. */
    private String secret() throws IOException {
        if (tokenFile != null && !(Files.isRegularFile(tokenFile) && Files.isReadable(tokenFile))) {
            throw new IllegalArgumentException("--token-file " + tokenFile + " is not a readable file");
        }
        if (token != null && token.isBlank()) {
            throw new IllegalArgumentException("--token is empty: give one, or leave the option out to serve without");
        }
        String secret = tokenFile != null ? Files.readAllLines(tokenFile).stream().findFirst().orElse("").strip()
                : token != null ? token : "";
        if (tokenFile != null && secret.isEmpty()) {
            throw new IllegalArgumentException("--token-file " + tokenFile + " is empty");
        }
        return secret;
    }

    /** --max-buffer-memory as given (refused past what the JVM can allocate), or the default cut to what it can. */
    private long bufferMemory() {
        long max = JvmDirectMemory.max();
        if (maxBufferMemory != null) {
            BufferMemoryLimit.check(maxBufferMemory, max);
            return maxBufferMemory;
        }
        long capacity = BufferMemoryLimit.capacity(max);
        if (capacity < ServerConfig.DEFAULT_MAX_BUFFER_MEMORY) {
            Logger.getLogger(ServerMain.class.getName()).info("--max-buffer-memory " + Sizes.format(capacity) + ", not the default "
                    + Sizes.format(ServerConfig.DEFAULT_MAX_BUFFER_MEMORY) + ": three quarters of this JVM's direct memory ("
                    + Sizes.format(max) + ")");
            return capacity;
        }
        return ServerConfig.DEFAULT_MAX_BUFFER_MEMORY;
    }

    /** A descriptor per client: the soft limit goes up to the hard one, and the log says what is in force. */
    private static void raiseOpenFilesLimit() {
        try {
            OpenFilesLimit limit = OpenFilesLimit.raiseSoftToHard();
            Logger.getLogger(ServerMain.class.getName()).info("open files limit " + limit.soft() + " (hard " + limit.hard() + ")");
        } catch (NativeException e) {
            Logger.getLogger(ServerMain.class.getName()).warning("cannot read or raise the open files limit: " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        NettyLeakDetection.offUnlessAsked();
        System.exit(Cli.run(new ServerMain(), args));
    }
}
