package io.xferbench.client.load.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.xferbench.client.load.SilentServer;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.exchange.NativeDownloadExchange;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Every load request has a deadline: a server that accepts and never answers, or stops mid-answer, gets its requests
 * counted as TIMEOUT, their connections replaced, and the run ends (the old workers waited for good: each test here
 * hung until its preemptive timeout).
 */
class LoadTimeoutTest {
    private static final int FILE = 50 * 1024;
    private static final int CRC = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);
    private static final Duration ANSWER = Duration.ofMillis(300);
    private static final Duration BOUND = Duration.ofSeconds(15);

    private static LoadPlan plan(InetSocketAddress target, int connections, long requests) {
        return new LoadPlan(target, connections, 1, requests, null, Duration.ZERO, 0, Duration.ofSeconds(30), ANSWER);
    }

    @Test
    void nativeRequestsToASilentServerTimeOutAndTheRunEnds() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            long start = System.nanoTime();
            LoadResult r = assertTimeoutPreemptively(BOUND, () -> LoadEngine.run(plan(silent.address(), 3, 6),
                    new NativeDownloadExchange("transfer-to", FILE, 0, "", CRC)));
            double seconds = (System.nanoTime() - start) / 1e9;

            assertThat(r.requests()).isZero();
            assertThat(r.errors()).isEqualTo(Map.of(LoadWorker.TIMEOUT, 6L));
            assertThat(r.operations().get("download").errors()).isEqualTo(Map.of(LoadWorker.TIMEOUT, 6L));
            assertThat(r.unfinished()).isZero();
            assertThat(r.verified()).isFalse();
            // No latency sample: a timed-out request is known only to have taken longer than the timeout.
            assertThat(r.latency().max()).isZero();
            // Two timeouts in turn on each of the 3 connections, each on a connection of its own.
            assertThat(seconds).isGreaterThanOrEqualTo(2 * ANSWER.toMillis() / 1e3);
            assertThat(silent.accepted()).isGreaterThanOrEqualTo(6);
        }
    }

    @Test
    void httpRequestsToASilentServerTimeOutAndTheRunEnds() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            LoadResult r = assertTimeoutPreemptively(BOUND, () -> LoadEngine.run(plan(silent.address(), 2, 4),
                    new HttpGetExchange("localhost", "/f", false, FILE, CRC)));

            assertThat(r.requests()).isZero();
            assertThat(r.errors()).isEqualTo(Map.of(LoadWorker.TIMEOUT, 4L));
            assertThat(silent.accepted()).isGreaterThanOrEqualTo(4);
        }
    }

    @Test
    void aTimedRunAgainstASilentServerCountsItsTimeoutsAndEndsWithItsWindow() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            LoadPlan timed = new LoadPlan(silent.address(), 2, 1, 0, Duration.ofMillis(1000), Duration.ZERO, 0,
                    Duration.ofSeconds(30), ANSWER);
            LoadResult r = assertTimeoutPreemptively(BOUND, () -> LoadEngine.run(timed,
                    new HttpGetExchange("localhost", "/f", false, FILE, CRC)));

            // Each connection times out at 0.3, 0.6 and 0.9 s; its fourth request is in flight when the window closes.
            assertThat(r.errors()).containsOnlyKeys(LoadWorker.TIMEOUT);
            assertThat(r.errors().get(LoadWorker.TIMEOUT)).isBetween(2L, 6L);
            assertThat(r.requests()).isZero();
        }
    }

    /**
     * A run bounded by count against a port nobody listens on: each refused connect stands for a request that could not
     * be sent and takes its ticket, so the run ends with N errors (the old worker retried every 50 ms for good).
     */
    @Test
    void aRunByCountAgainstARefusingPortEnds() throws Exception {
        InetSocketAddress refusing;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            refusing = new InetSocketAddress("127.0.0.1", s.getLocalPort());
        }
        LoadResult r = assertTimeoutPreemptively(BOUND, () -> LoadEngine.run(plan(refusing, 2, 6),
                new HttpGetExchange("localhost", "/f", false, FILE, CRC)));

        assertThat(r.requests()).isZero();
        assertThat(r.errorCount()).isEqualTo(6);
        assertThat(r.errors().keySet()).allMatch(k -> k.startsWith("connect: ") || k.startsWith("io: "));
    }

    /** An answer that starts, then stops mid-body: the deadline runs from the last byte, not only to the first. */
    @Test
    void anAnswerThatStopsMidBodyTimesOut() throws Exception {
        byte[] body = body();
        try (ScriptedHttpServer server = new ScriptedHttpServer((connection, request, out) -> {
            out.write(head(body.length));
            out.write(body, 0, body.length / 2);
            out.flush();
            return false; // then silence, the connection left open
        })) {
            LoadResult r = assertTimeoutPreemptively(BOUND, () -> LoadEngine.run(plan(server.address(), 1, 2),
                    new HttpGetExchange("localhost", "/f", false, FILE, CRC)));

            assertThat(r.errors()).isEqualTo(Map.of(LoadWorker.TIMEOUT, 2L));
        }
    }

    /**
     * The first request of the first connection is answered after 3 answer timeouts, with a corrupt body; every other
     * request promptly and right. The late answer must die with its connection: one TIMEOUT, the other requests
     * verified, no crc mismatch (a worker that kept the connection would read it as the next request's answer; the
     * old worker, with no deadline, counted the late answer itself: a crc mismatch and no TIMEOUT).
     */
    @Test
    void aLateAnswerIsNotCountedAgainstTheNextRequest() throws Exception {
        byte[] body = body();
        byte[] corrupt = body.clone();
        corrupt[FILE / 2] ^= 1;
        try (ScriptedHttpServer server = new ScriptedHttpServer((connection, request, out) -> {
            boolean late = connection == 0 && request == 0;
            if (late) {
                sleep(ANSWER.toMillis() * 3);
            }
            out.write(head(FILE));
            out.write(late ? corrupt : body);
            out.flush();
            return true;
        })) {
            LoadResult r = assertTimeoutPreemptively(BOUND, () -> LoadEngine.run(plan(server.address(), 1, 5),
                    new HttpGetExchange("localhost", "/f", false, FILE, CRC)));

            assertThat(r.errors()).isEqualTo(Map.of(LoadWorker.TIMEOUT, 1L));
            assertThat(r.requests()).isEqualTo(4);
            assertThat(server.requestsOn(0)).isEqualTo(1); // the late connection carried nothing after its timeout
            assertThat(server.connections()).isEqualTo(2);
        }
    }

    private static byte[] body() {
        byte[] body = new byte[FILE];
        new ContentGenerator(DataDirectory.SEED).fill(ByteBuffer.wrap(body), 0);
        return body;
    }

    private static byte[] head(long length) {
        return ("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An HTTP/1.1 server whose every answer a test writes by hand, a thread per connection. */
    static final class ScriptedHttpServer implements AutoCloseable {
        interface Answer {
            /** @return whether to go on reading requests on this connection */
            boolean write(int connection, int request, OutputStream out) throws IOException;
        }

        private final ServerSocket listener;
        private final Thread acceptor;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final List<AtomicInteger> requests = new CopyOnWriteArrayList<>();

        ScriptedHttpServer(Answer answer) throws IOException {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = Thread.ofPlatform().daemon().name("scripted-http").start(() -> {
                try {
                    while (true) {
                        Socket s = listener.accept();
                        int index = sockets.size();
                        AtomicInteger count = new AtomicInteger();
                        sockets.add(s);
                        requests.add(count);
                        Thread.ofVirtual().start(() -> serve(s, index, count, answer));
                    }
                } catch (IOException closed) {
                    // The test is over.
                }
            });
        }

        private static void serve(Socket s, int index, AtomicInteger count, Answer answer) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                while (readHead(in)) {
                    if (!answer.write(index, count.getAndIncrement(), out)) {
                        in.transferTo(OutputStream.nullOutputStream()); // silent until the client closes
                        return;
                    }
                }
            } catch (IOException gone) {
                // The client closed: a late answer's write may fail here, as it should.
            }
        }

        /** Reads one request head (a GET has no body); false at the end of the stream. */
        private static boolean readHead(InputStream in) throws IOException {
            int matched = 0;
            int b;
            while ((b = in.read()) >= 0) {
                matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
                if (matched == 4) {
                    return true;
                }
            }
            return false;
        }

        InetSocketAddress address() {
            return new InetSocketAddress("127.0.0.1", listener.getLocalPort());
        }

        int connections() {
            return sockets.size();
        }

        int requestsOn(int connection) {
            return requests.get(connection).get();
        }

        @Override
        public void close() throws IOException {
            listener.close();
            try {
                acceptor.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
