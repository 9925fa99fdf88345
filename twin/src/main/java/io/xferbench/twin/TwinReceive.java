package io.xferbench.twin;

import io.xferbench.core.Sizes;
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
public final class TwinReceive {
    private TwinReceive() {
    }

    public static void main(String[] args) throws Exception {
        java.util.List<String> positional = new java.util.ArrayList<>();
        String bind = "127.0.0.1";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bind" -> bind = args[++i];
                case "--io-uring-depth" -> UringDepth.set(Integer.parseInt(args[++i])); // as the server's option
                default -> positional.add(args[i]);
            }
        }
        if (positional.size() < 2 || positional.size() > 3) {
            System.err.println("usage: TwinReceive METHOD TARGET [bufsize] [--bind 127.0.0.1] [--io-uring-depth N]");
            System.err.println("methods: " + UploadMethods.ids());
            System.exit(2);
        }
        ReceiverMethod method = UploadMethods.byId(positional.get(0)).orElseThrow(
                () -> new IllegalArgumentException("unknown method " + positional.get(0) + "; known: " + UploadMethods.ids()));
        if (!method.availability().isAvailable()) {
            System.err.println("twin-receive: " + method.id() + " unavailable: " + method.availability().unavailableReason());
            System.exit(3);
        }
        Path target = Path.of(positional.get(1));
        TransferOptions options = positional.size() == 3
                ? new TransferOptions(Math.toIntExact(Sizes.parse(positional.get(2))), false)
                : TransferOptions.DEFAULT;
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
        System.exit(0); // Netty event loops are daemon threads, but do not wait for their shutdown
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
