package io.xferbench.client.load.fileops;

import io.xferbench.client.load.exchange.ExchangeOutcome;
import io.xferbench.client.load.exchange.HttpDeleteExchange;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.exchange.HttpResponseParser;
import io.xferbench.client.load.exchange.LoadProtocolException;
import io.xferbench.client.load.exchange.ResponseParser;
import io.xferbench.core.net.NoAnswerException;
import io.xferbench.core.net.XferConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One kept-alive HTTP/1.1 connection for the requests around a run, never measured: the probe PUT before it, reading
 * back what it placed and deleting what it left after it. Reopened when the server closes. Every wait is bounded by
 * the answer timeout (the connect, and each stretch in which no byte moves): a server that stopped answering fails the
 * call with {@link NoAnswerException} instead of hanging the run. Non-blocking under a selector of its own, because a
 * blocking channel has no timeout.
 */
public final class HttpFileClient implements AutoCloseable {
    private final InetSocketAddress server;
    private final String peer;
    private final Duration answerTimeout;
    /** The timeout as the failures say it, e.g. {@code 60s}. */
    private final String within;
    private final ByteBuffer in = ByteBuffer.allocate(64 * 1024);
    private Selector selector;
    private SocketChannel channel;
    private SelectionKey key;

    public HttpFileClient(InetSocketAddress server) {
        this(server, XferConnection.DEFAULT_ANSWER_TIMEOUT);
    }

    public HttpFileClient(InetSocketAddress server, Duration answerTimeout) {
        this.server = server;
        this.peer = server.getHostString() + ":" + server.getPort();
        this.answerTimeout = answerTimeout;
        this.within = NoAnswerException.format(answerTimeout);
    }

    /**
     * Sends one request and reads its answer; an I/O failure or a malformed answer is an outcome, not an exception.
     *
     * @throws NoAnswerException when the connect, the request or its answer did not move for the answer timeout (the
     *                           connection is then closed)
     */
    public ExchangeOutcome send(ByteBuffer request, ResponseParser parser) throws NoAnswerException {
        try {
            if (channel == null) {
                connect();
            }
            long deadline = System.nanoTime() + answerTimeout.toNanos();
            while (request.hasRemaining()) {
                if (channel.write(request) > 0) {
                    deadline = System.nanoTime() + answerTimeout.toNanos();
                } else {
                    await(SelectionKey.OP_WRITE, deadline, "no answer from " + peer + " within " + within);
                }
            }
            boolean answering = false;
            while (true) {
                int n;
                try {
                    n = channel.read(in.clear());
                } catch (IOException reset) {
                    if (!parser.closed()) {
                        throw reset;
                    }
                    n = -1; // reset rather than shut down after a whole, good Connection: close answer
                }
                if (n < 0) {
                    if (parser.closed()) {
                        break;
                    }
                    throw new IOException("closed mid-response");
                }
                if (n == 0) {
                    await(SelectionKey.OP_READ, deadline, answering ? "the transfer with " + peer + " stalled: no byte for " + within
                            : "no answer from " + peer + " within " + within);
                    continue;
                }
                answering = true;
                deadline = System.nanoTime() + answerTimeout.toNanos();
                in.flip();
                if (parser.feed(in)) {
                    break;
                }
            }
            // After a refusal the server may not have read the request's body: what follows on this connection is unknown.
            if (parser.closesConnection() || !parser.outcome().ok()) {
                closeChannel();
            }
            return parser.outcome();
        } catch (NoAnswerException e) {
            closeChannel();
            throw e;
        } catch (IOException e) {
            closeChannel();
            return ExchangeOutcome.failed("io: " + e.getMessage(), 0);
        } catch (LoadProtocolException e) {
            closeChannel();
            return ExchangeOutcome.failed("protocol: " + e.getMessage(), 0);
        }
    }

    /**
     * GETs every name and checks its length and CRC32C against what the run uploaded.
     *
     * @return how many were read back, and the failures by cause (prefixed {@code read-back})
     */
    ReadBack readBack(String hostHeader, List<String> names, long size, int crc) throws NoAnswerException {
        Map<String, Long> errors = new TreeMap<>();
        for (String name : names) {
            ExchangeOutcome o;
            try {
                o = send(new HttpGetExchange(hostHeader, "/" + name, false, size, crc).request(),
                        new HttpResponseParser(200, false, size, crc));
            } catch (NoAnswerException e) {
                throw e.waitingFor("the read-back GET of " + name + ", after the row");
            }
            if (!o.ok()) {
                errors.merge("read-back: " + o.error(), 1L, Long::sum);
            }
        }
        return new ReadBack(names.size(), errors);
    }

    /** @return how many DELETEs were answered OK or 404 (gone either way) */
    int deleteAll(HttpDeleteExchange delete, List<String> names) throws NoAnswerException {
        int gone = 0;
        for (String name : names) {
            ExchangeOutcome o;
            try {
                o = send(delete.request(name), delete.newParser());
            } catch (NoAnswerException e) {
                throw e.waitingFor("the DELETE of the load's file " + name);
            }
            if (o.ok() || o.absent()) {
                gone++;
            }
        }
        return gone;
    }

    private void connect() throws IOException {
        if (selector == null) {
            selector = Selector.open();
        }
        channel = SocketChannel.open();
        channel.configureBlocking(false);
        key = channel.register(selector, 0);
        if (!channel.connect(server)) {
            long deadline = System.nanoTime() + answerTimeout.toNanos();
            while (!channel.finishConnect()) {
                await(SelectionKey.OP_CONNECT, deadline, "no connection to " + peer + " within " + within);
            }
        }
    }

    /** Waits until the channel is ready for {@code ops}, or fails with {@code late} once {@code deadline} has passed. */
    private void await(int ops, long deadline, String late) throws IOException {
        long wait = deadline - System.nanoTime();
        if (wait <= 0) {
            throw new NoAnswerException(late);
        }
        key.interestOps(ops);
        selector.select(Math.max(1, wait / 1_000_000));
        selector.selectedKeys().clear();
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Closing a connection we are done with: nothing to report.
            }
            channel = null;
            key = null;
        }
    }

    @Override
    public void close() {
        closeChannel();
        if (selector != null) {
            try {
                selector.close();
            } catch (IOException ignored) {
                // Nothing registered is left to release.
            }
            selector = null;
        }
    }
}
