package io.xferbench.jmh.drain;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The sending end for benchmarks whose counted process receives (uploads) or relays: in its own JVM, so that its
 * writes are not counted with the receiver's or the relay's syscalls. Listens on loopback, accepts one connection
 * and sends the file over it ({@code FileChannel.transferTo}: sendfile(2), the cheapest sender) once each time the
 * benchmark raises the requested byte count in the shared counters (a release store, no syscall on the benchmark's
 * side), as an upload client sends one body per request, until the peer closes. The byte stream is the file,
 * repeated: whoever reads it in file-sized bodies reads the file each time.
 *
 * <p>One body per request, never ahead: a receiver that keeps a read outstanding (io_uring) finds nothing of the next
 * body, and no bytes are in flight between ops, so a benchmark's syscalls per op are those of exactly one body
 * (a stream would leave megabytes in socket buffers across the profiler's windows). The feeder waits for requests
 * spinning, then yielding: its own CPU, never the counted process's syscalls.
 *
 * <p>Usage: {@code FeedServer <counters-file> <file> <parent-pid>}. Exits when the parent dies.
 */
public final class FeedServer {
    /** Bytes the benchmark has asked for so far: a slot {@link SharedCounters} leaves unused. */
    static final int REQUESTED = 40;
    /** Spins before the feeder starts yielding the CPU while it waits for a request. */
    private static final int SPINS = 1 << 12;

    private FeedServer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: FeedServer <counters-file> <file> <parent-pid>");
            System.exit(2);
        }
        SharedCounters shared = SharedCounters.map(Path.of(args[0]));
        Path file = Path.of(args[1]);
        ParentWatch.exitWith(Long.parseLong(args[2]));
        try {
            feed(shared, file);
            shared.setRelease(SharedCounters.STATUS, 1);
        } catch (IOException | RuntimeException e) {
            if (shared.getAcquire(SharedCounters.CLOSING) == 1) {
                shared.setRelease(SharedCounters.STATUS, 1); // the receiver closed on purpose: the benchmark is over
                return;
            }
            e.printStackTrace();
            shared.setRelease(SharedCounters.STATUS, -1);
            System.exit(1);
        }
    }

    private static void feed(SharedCounters shared, Path file) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open();
             FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = source.size();
            if (size == 0) {
                throw new IOException(file + " is empty: nothing to feed");
            }
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            shared.setRelease(SharedCounters.PORT, ((InetSocketAddress) listener.getLocalAddress()).getPort());
            try (SocketChannel socket = listener.accept()) {
                socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
                long sent = 0;
                while (true) {
                    awaitRequest(shared, sent);
                    for (long pos = 0; pos < size; ) {
                        pos += source.transferTo(pos, size - pos, socket);
                    }
                    sent += size;
                    shared.setRelease(SharedCounters.RECEIVED, sent); // here: bytes sent so far
                }
            }
        }
    }

    /** Waits until more than {@code sent} bytes are requested; spins first, then yields between looks. */
    private static void awaitRequest(SharedCounters shared, long sent) {
        int spins = 0;
        while (shared.getAcquire(REQUESTED) <= sent) {
            if (++spins < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }
}
