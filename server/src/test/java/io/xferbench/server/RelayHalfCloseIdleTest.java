package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request and its FIN that are already queued when the relay starts are relayed (Netty io_uring read them before the
 * relay's handlers were in place and dropped them, until the channels were registered with their handlers). And a
 * relay whose client has ended its stream but whose upstream has not answered yet must wait without work: that is
 * the normal state of every proxied request/response between the request's FIN and the response. Netty 4.2.18's epoll
 * splice path leaves EPOLLIN armed on a half-closed, auto-read channel (only the ByteBuf read path marks the input as
 * fully read), so a level-triggered loop would wake and splice 0 bytes in a busy loop until the connection closes —
 * hundreds of splice/epoll_pwait2 calls per request in the proxy's {@code connect} scenario. Counted by the kernel
 * (perf), so the check is a count, not a time.
 */
@Timeout(60)
class RelayHalfCloseIdleTest {
    /** Calls a relay makes when it moves or waits for bytes; the JVM's own background makes none of them in the hold. */
    private static final List<String> RELAY_CALLS = List.of("splice", "read", "write", "recvfrom", "sendto", "epoll_wait",
            "epoll_pwait", "epoll_pwait2", "io_uring_enter", "poll", "ppoll");
    private static final long HOLD_MILLIS = 500;

    static Stream<String> relays() {
        return RelayMethods.ids().stream();
    }

    @ParameterizedTest
    @MethodSource("relays")
    void aHalfClosedConnectionWaitsIdleForTheAnswer(String id) throws Exception {
        RelayMethod method = RelayMethods.byId(id).orElseThrow();
        MethodAssumptions.assumeAvailable(id, method.availability());
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (ServerSocketChannel clientListener = ServerSocketChannel.open().bind(any);
             ServerSocketChannel upstreamListener = ServerSocketChannel.open().bind(any);
             SocketChannel client = SocketChannel.open(clientListener.getLocalAddress());
             SocketChannel proxyClientSide = clientListener.accept();
             SocketChannel proxyUpstreamSide = SocketChannel.open(upstreamListener.getLocalAddress());
             SocketChannel upstream = upstreamListener.accept();
             Relay relay = method.newRelay(TransferOptions.DEFAULT)) {
            // The request and the client's end of stream are queued before the relay adopts the sockets, as when a
            // client pipelines them behind its PROXY frame: the relay's first poll must deliver both.
            client.write(ByteBuffer.wrap("request".getBytes(StandardCharsets.US_ASCII)));
            client.shutdownOutput();
            FutureTask<Relay.Relayed> relayed = new FutureTask<>(() -> relay.relay(proxyClientSide, proxyUpstreamSide));
            Thread pump = new Thread(relayed, "relay-" + id);
            pump.setDaemon(true);
            pump.start();
            assertThat(readToEnd(upstream)).isEqualTo("request");

            SyscallCounts held;
            try (PerfSyscallCounter perf = PerfSyscallCounter.attach(ProcessHandle.current().pid(), RELAY_CALLS)) {
                perf.awaitAttached();
                perf.enable();
                Thread.sleep(HOLD_MILLIS); // the upstream "thinks"; the relay has nothing to do
                perf.disable();
                held = perf.stop();
            }
            long relayCalls = RELAY_CALLS.stream().mapToLong(held::of).sum();
            // A busy loop makes thousands of these in the hold; waiting makes none (a few for stray wake-ups).
            assertThat(relayCalls).as("%s: relay syscalls while half-closed for %d ms: %s", id, HOLD_MILLIS, held.nonZero())
                    .isLessThan(50);

            // The answer still arrives whole, then the end of stream, and the relay returns.
            upstream.write(ByteBuffer.wrap("response".getBytes(StandardCharsets.US_ASCII)));
            upstream.shutdownOutput();
            assertThat(readToEnd(client)).isEqualTo("response");
            relayed.get(30, TimeUnit.SECONDS);
        }
    }

    private static String readToEnd(SocketChannel channel) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(256);
        while (channel.read(buf) >= 0) {
            if (!buf.hasRemaining()) {
                throw new IOException("more than " + buf.capacity() + " bytes");
            }
        }
        return new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
    }
}
