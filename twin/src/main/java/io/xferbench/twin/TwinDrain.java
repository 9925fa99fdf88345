package io.xferbench.twin;

import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.net.BodyReceiver;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
@Command(name = "twin-drain", mixinStandardHelpOptions = true,
        description = "The twin benchmark's receiver: drains length-prefixed bodies, one connection at a time.")
public final class TwinDrain implements Callable<Integer> {
    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;
    @Option(names = "--port", defaultValue = "0", converter = Converters.Port.class, description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;
    @Option(names = "--connections", defaultValue = "0", converter = Converters.NonNegativeLong.class,
            description = "Connections to drain before exiting; 0: until killed (default: ${DEFAULT-VALUE}).")
    long connections;

    public static void main(String[] args) {
        System.exit(Cli.run(new TwinDrain(), args));
    }

    @Override
    public Integer call() throws IOException {
        BodyReceiver receiver = new BodyReceiver().reserve(); // its buffer before any clock starts
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
        return 0;
    }
}
