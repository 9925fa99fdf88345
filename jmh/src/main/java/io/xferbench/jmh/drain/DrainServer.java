package io.xferbench.jmh.drain;

import io.xferbench.core.net.BodyReceiver;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * The receiving end of {@code FileToSocketBenchmark}, in its own JVM so that its read(2)s are not counted
 * with the sender's syscalls. Listens on loopback, accepts one connection and drains it with the suite's
 * {@link BodyReceiver} (page-aligned 1 MiB direct buffer, {@code SocketChannel.read}) — the receiver every
 * method is measured against — one {@code size}-byte body after another until the sender closes. The first
 * body is checksummed so the benchmark can check the method sent the right bytes; after every body the total
 * is published in the shared counters file.
 *
 * <p>Usage: {@code DrainServer <counters-file> <size> <parent-pid>}. Exits when the parent dies.
 */
public final class DrainServer {
    private DrainServer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: DrainServer <counters-file> <size> <parent-pid>");
            System.exit(2);
        }
        SharedCounters shared = SharedCounters.map(Path.of(args[0]));
        long size = Long.parseLong(args[1]);
        long parent = Long.parseLong(args[2]);
        ParentWatch.exitWith(parent);
        try {
            drain(shared, size);
            shared.setRelease(SharedCounters.STATUS, 1);
        } catch (IOException | RuntimeException e) {
            e.printStackTrace();
            shared.setRelease(SharedCounters.STATUS, -1);
            System.exit(1);
        }
    }

    private static void drain(SharedCounters shared, long size) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            shared.setRelease(SharedCounters.PORT, ((InetSocketAddress) listener.getLocalAddress()).getPort());
            try (SocketChannel socket = listener.accept()) {
                socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
                BodyReceiver receiver = new BodyReceiver().reserve(); // its buffer before any clock starts
                long received = 0;
                boolean first = true;
                while (true) {
                    int crc;
                    try {
                        crc = receiver.receive(socket, size, first);
                    } catch (EOFException e) {
                        if (shared.getAcquire(SharedCounters.CLOSING) == 1) {
                            return; // the sender closed the connection on purpose: the benchmark is over
                        }
                        throw e;
                    }
                    if (first) {
                        shared.setRelease(SharedCounters.FIRST_CRC, (crc & 0xFFFFFFFFL) + 1);
                        first = false;
                    }
                    received += size;
                    shared.setRelease(SharedCounters.RECEIVED, received);
                }
            }
        }
    }
}
