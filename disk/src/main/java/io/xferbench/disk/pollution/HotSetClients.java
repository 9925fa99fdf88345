package io.xferbench.disk.pollution;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The clients of the hot set: {@code connections} kept-alive HTTP/1.1 connections, one thread each, each GETting a
 * uniformly random hot file at its turn of a shared schedule of {@code ratePerSecond} requests a second (a paced
 * loop: a connection still busy when its turn comes sends late, so a slower server shows as fewer requests per second
 * and higher latency). Paced, not as fast as possible: a file re-read dozens of times a second sits on the LRU's
 * active list, which a streaming read never reaches, and the scenario would show no eviction; a file re-read every
 * few seconds is what "hot data of a server" is and what a big buffered read pushes out. A response counts when its
 * status is 200 and its body has the file's length. {@link #interval} hands out what completed since the last call;
 * {@link #fetchAll} reads every file once, unpaced, so the server (inside the cgroup) brings the whole set in.
 * <p>
 * Not the client module's load engine: that one measures one request (one file) in one window, and this scenario
 * needs many files and a time series.
 */
final class HotSetClients implements AutoCloseable {
    private final InetSocketAddress server;
    private final List<byte[]> requests = new ArrayList<>();
    private final long fileSize;
    private final Recorder latency = new Recorder(3);
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();
    private final long periodNanos;
    /** The next free slot of the schedule (System.nanoTime); each request claims one. */
    private final AtomicLong nextSlot = new AtomicLong(System.nanoTime());
    private volatile boolean stopped;

    /** What completed in one interval: requests (ok), failures, and the latency of the ok ones. */
    record Interval(long requests, long errors, Histogram latencyNanos) {
    }

    HotSetClients(InetSocketAddress server, List<String> names, long fileSize, String method, int ratePerSecond) {
        this.server = server;
        this.fileSize = fileSize;
        this.periodNanos = 1_000_000_000L / ratePerSecond;
        for (String name : names) {
            requests.add(("GET /" + name + "?method=" + method + " HTTP/1.1\r\nHost: " + server.getHostString()
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** Starts the paced connections; {@link #stop} ends them, and they may be started again. */
    void start(int connections) {
        stopped = false;
        nextSlot.set(System.nanoTime());
        for (int i = 0; i < connections; i++) {
            threads.add(Thread.ofPlatform().daemon().name("hot-client-" + i).start(this::loop));
        }
    }

    private void loop() {
        ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
        while (!stopped) {
            try (SocketChannel ch = SocketChannel.open(server)) {
                while (!stopped) {
                    awaitTurn();
                    long t0 = System.nanoTime();
                    get(ch, in, requests.get(ThreadLocalRandom.current().nextInt(requests.size())));
                    latency.recordValue(System.nanoTime() - t0);
                }
            } catch (IOException | RuntimeException e) {
                if (!stopped) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, e.toString());
                    sleepQuietly(); // the server refusing us must not turn into a busy loop
                }
            }
        }
    }

    private void get(SocketChannel ch, ByteBuffer in, byte[] request) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(request);
        while (out.hasRemaining()) {
            ch.write(out);
        }
        receive(ch, in);
    }

    /** Claims the next slot of the schedule and sleeps until it; a schedule fallen behind by 1 s restarts from now. */
    private void awaitTurn() throws IOException {
        long now = System.nanoTime();
        long slot = nextSlot.getAndAdd(periodNanos);
        if (slot < now - 1_000_000_000L) {
            nextSlot.set(now + periodNanos); // no burst to catch up after a stall: a steady rate is the point
            slot = now;
        }
        long wait = slot - now;
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("stopped");
            }
        }
    }

    /** Every hot file once, in order, on a connection of its own (not counted in the intervals). */
    void fetchAll() throws IOException {
        ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
        try (SocketChannel ch = SocketChannel.open(server)) {
            for (byte[] request : requests) {
                get(ch, in, request);
            }
        }
    }

    /** Reads one response: headers to the blank line, then Content-Length bytes of body (discarded). */
    private void receive(SocketChannel ch, ByteBuffer in) throws IOException {
        in.clear();
        int headerEnd;
        while ((headerEnd = headerEnd(in)) < 0) {
            if (!in.hasRemaining()) {
                throw new IOException("response headers larger than " + in.capacity());
            }
            if (ch.read(in) < 0) {
                throw new IOException("server closed the connection");
            }
        }
        String head = StandardCharsets.US_ASCII.decode(in.duplicate().flip().limit(headerEnd)).toString();
        if (!head.startsWith("HTTP/1.1 200")) {
            throw new IOException("unexpected response " + head.lines().findFirst().orElse(""));
        }
        long length = contentLength(head);
        if (length != fileSize) {
            throw new IOException("Content-Length " + length + ", expected " + fileSize);
        }
        long body = in.position() - headerEnd;
        while (body < length) {
            in.clear().limit((int) Math.min(in.capacity(), length - body));
            int n = ch.read(in);
            if (n < 0) {
                throw new IOException("server closed the connection after " + body + " of " + length + " bytes");
            }
            body += n;
        }
        if (body != length) {
            throw new IOException("body longer than Content-Length (pipelining is not used)");
        }
    }

    private static int headerEnd(ByteBuffer in) {
        for (int i = 3; i < in.position(); i++) {
            if (in.get(i) == '\n' && in.get(i - 1) == '\r' && in.get(i - 2) == '\n' && in.get(i - 3) == '\r') {
                return i + 1;
            }
        }
        return -1;
    }

    private static long contentLength(String head) throws IOException {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                return Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        throw new IOException("no Content-Length in " + head.lines().findFirst().orElse(""));
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Requests completed since the last call. */
    Interval interval() {
        Histogram h = latency.getIntervalHistogram();
        return new Interval(h.getTotalCount(), errors.getAndSet(0), h);
    }

    /** The first failure seen, for the report when requests failed; null when none did. */
    String firstError() {
        return firstError.get();
    }

    @Override
    public void close() {
        stop();
    }

    /** Ends the connections and waits for their threads: no hot file is requested after this returns. */
    void stop() {
        stopped = true;
        for (Thread t : threads) {
            t.interrupt(); // closes a channel blocked in read (SocketChannel is interruptible)
        }
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        threads.clear();
    }
}
