package io.xferbench.twin;

import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.uring.UringDepth;
import io.xferbench.nativeio.ResourceUsage;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The Java side of an upload twin pair: receives one body per command into a target file with core's
 * {@link FileReceiver} for a method id, the same classes the server uses, in one long-lived JVM. Same wire and the
 * same steps as {@code xfer_uring_twin uring-recv-write}: the target is created before the accept
 * ({@code CREATE_NEW}, read and write, as the server's upload temp file), then accept, TCP_NODELAY, the 8-byte
 * big-endian length, the body, then EOF expected.
 * <pre>
 * TwinReceive METHOD TARGET [bufsize] [--bind 127.0.0.1] [--io-uring-depth N]
 * </pre>
 * Prints {@code twin-receive listening on HOST:PORT} once. Then per line {@code receive} on stdin ({@code quit} or EOF
 * ends): creates TARGET, prints {@code twin-receive accepting port=P}, accepts one connection and prints
 * {@code twin-receive method=M bytes=N seconds=S mibs=X user=U sys=Y vcsw=V ivcsw=I crc32c=HEX}, timed from accept()
 * returning to the receiver's return (its last write completed), CPU and context switches of the whole process over
 * the same span (getrusage RUSAGE_SELF: the Netty event loop and io-wq workers included); or
 * {@code twin-receive error=...}. The driver removes TARGET between receives. No fsync, no re-read: the receiver does
 * neither (the server's optional verify follows it), nor does the C twin.
 */
@Command(name = "twin-receive", mixinStandardHelpOptions = true,
        description = "The Java side of an upload twin pair: receives one body per 'receive' line on stdin into TARGET.")
public final class TwinReceive implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "METHOD", converter = MethodId.class, description = "An upload method id.")
    ReceiverMethod method;
    @Parameters(index = "1", paramLabel = "TARGET", description = "Created for each receive; the driver removes it between receives.")
    Path target;
    @Parameters(index = "2", paramLabel = "bufsize", arity = "0..1", converter = Converters.BufferSizeOrDefault.class,
            description = "The method's buffer; 0 or absent: the default.")
    int buffer; // 0: TransferOptions' default
    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;
    @Option(names = "--io-uring-depth", defaultValue = "" + UringDepth.DEFAULT, converter = Converters.PositiveInt.class,
            description = "As the server's option (at most " + UringDepth.MAX + ").")
    int uringDepth;

    /** An upload method id, checked while the command line is parsed. */
    static final class MethodId implements CommandLine.ITypeConverter<ReceiverMethod> {
        @Override
        public ReceiverMethod convert(String id) {
            return UploadMethods.byId(id).orElseThrow(
                    () -> new CommandLine.TypeConversionException("unknown method " + id + "; known: " + UploadMethods.ids()));
        }
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new TwinReceive(), args)); // Netty event loops are daemon threads, but do not wait for their shutdown
    }

    @Override
    public Integer call() throws IOException {
        UringDepth.set(uringDepth); // as the server's option; out of range: a usage error
        if (!method.availability().isAvailable()) {
            System.err.println("twin-receive: " + method.id() + " unavailable: " + method.availability().unavailableReason());
            return 3;
        }
        TransferOptions options = new TransferOptions(buffer, false);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(bind, 0), 1);
            InetSocketAddress local = (InetSocketAddress) server.getLocalAddress();
            System.out.println("twin-receive listening on " + local.getHostString() + ":" + local.getPort());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null && line.strip().equals("receive")) {
                try {
                    Received r = receiveOnce(method, options, server, target, local.getPort());
                    report(method, r);
                } catch (IOException | RuntimeException e) {
                    System.out.println("twin-receive error=" + e.toString().replace('\n', ' '));
                }
                System.out.flush();
            }
        }
        return 0;
    }

    /** Bytes, wall time and process CPU of one receive, and the receiver's CRC32C of the bytes. */
    record Received(long bytes, double seconds, ResourceUsage usage, long crc32c) {
    }

    /** One connection: create the target, accept, header, body through a new receiver, EOF; timed from accept. */
    static Received receiveOnce(ReceiverMethod method, TransferOptions options, ServerSocketChannel server, Path target, int port)
            throws IOException {
        try (FileChannel file = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            System.out.println("twin-receive accepting port=" + port);
            System.out.flush();
            try (SocketChannel socket = server.accept()) {
                ResourceUsage before = ResourceUsage.process();
                long t0 = System.nanoTime();
                socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ByteBuffer header = ByteBuffer.allocate(Long.BYTES);
                while (header.hasRemaining()) {
                    if (socket.read(header) < 0) {
                        throw new EOFException("connection closed inside the 8-byte length header");
                    }
                }
                long length = header.getLong(0);
                long crc;
                try (FileReceiver receiver = method.newReceiver(options)) { // one per connection, as the server's
                    crc = receiver.receive(socket, file, target, length);
                }
                long t1 = System.nanoTime();
                ResourceUsage usage = ResourceUsage.process().minus(before);
                expectEof(socket, length);
                return new Received(length, (t1 - t0) / 1e9, usage, crc);
            }
        }
    }

    private static void expectEof(SocketChannel socket, long length) throws IOException {
        ByteBuffer probe = ByteBuffer.allocate(1);
        long extra = 0;
        int r;
        while ((r = socket.read(probe.clear())) >= 0) {
            extra += r;
        }
        if (extra > 0) {
            throw new IOException(extra + " bytes after the announced " + length);
        }
    }

    private static void report(ReceiverMethod method, Received r) {
        ResourceUsage u = r.usage();
        System.out.printf(Locale.ROOT, "twin-receive method=%s bytes=%d seconds=%.6f mibs=%.1f user=%.6f sys=%.6f vcsw=%d ivcsw=%d"
                        + " crc32c=%08x%n", method.id(), r.bytes(), r.seconds(), r.bytes() / 1048576.0 / r.seconds(),
                u.userSeconds(), u.systemSeconds(), u.voluntarySwitches(), u.involuntarySwitches(), r.crc32c());
    }
}
