package io.xferbench.twin;

import io.xferbench.core.net.BodyReceiver;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Locale;

/**
 * The one receiver of the twin benchmark, for Java and C senders alike: accepts connections one at a time, reads
 * an 8-byte big-endian body length, then drains the body with core's {@link BodyReceiver} (page-aligned 1 MiB
 * direct buffer, {@code SocketChannel.read}, no checksum: the client's {@code --verify length}), then expects EOF.
 * <p>
 * Prints {@code twin-drain listening on HOST:PORT} when ready, then per connection
 * {@code twin-drain conn=N bytes=B seconds=S mibs=X}, timed from accept() returning to the last body byte read.
 * A short body or trailing bytes print {@code twin-drain conn=N error=...} and the drain goes on.
 * <pre>
 * TwinDrain [--bind 127.0.0.1] [--port 0] [--connections N]   (N = 0: until killed)
 * </pre>
 */
public final class TwinDrain {
    private TwinDrain() {
    }

    public static void main(String[] args) throws IOException {
        String bind = "127.0.0.1";
        int port = 0;
        long connections = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bind" -> bind = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--connections" -> connections = Long.parseLong(args[++i]);
                default -> {
                    System.err.println("usage: TwinDrain [--bind 127.0.0.1] [--port 0] [--connections N]");
                    System.exit(2);
                }
            }
        }
        BodyReceiver receiver = new BodyReceiver();
        ByteBuffer header = ByteBuffer.allocate(Long.BYTES);
        ByteBuffer probe = ByteBuffer.allocate(1);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(bind, port));
            InetSocketAddress local = (InetSocketAddress) server.getLocalAddress();
            System.out.println("twin-drain listening on " + local.getHostString() + ":" + local.getPort());
            System.out.flush();
            for (long n = 1; connections == 0 || n <= connections; n++) {
                try (SocketChannel ch = server.accept()) {
                    long t0 = System.nanoTime();
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    try {
                        header.clear();
                        while (header.hasRemaining()) {
                            if (ch.read(header) < 0) {
                                throw new EOFException("connection closed inside the 8-byte length header");
                            }
                        }
                        long length = header.getLong(0);
                        receiver.receive(ch, length, false);
                        long t1 = System.nanoTime();
                        long extra = 0;
                        int r;
                        while ((r = ch.read(probe.clear())) >= 0) {
                            extra += r;
                        }
                        if (extra > 0) {
                            throw new IOException(extra + " bytes after the announced " + length);
                        }
                        double seconds = (t1 - t0) / 1e9;
                        System.out.printf(Locale.ROOT, "twin-drain conn=%d bytes=%d seconds=%.6f mibs=%.1f%n",
                                n, length, seconds, length / 1048576.0 / seconds);
                    } catch (IOException e) {
                        System.out.println("twin-drain conn=" + n + " error=" + e.toString().replace('\n', ' '));
                    }
                    System.out.flush();
                }
            }
        }
    }
}
