package io.xferbench.client.load.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The wait between runs for a server's connections to close: its loop against a fake count and clock, and /proc's table. */
@Timeout(60)
class ConnectionDrainTest {

    /** Time moves only when the drain sleeps. */
    private static final class FakeClock implements ConnectionDrain.Clock {
        long now;
        final List<Long> sleeps = new ArrayList<>();

        @Override
        public long millis() {
            return now;
        }

        @Override
        public void sleep(long millis) {
            sleeps.add(millis);
            now += millis;
        }
    }

    private static ConnectionDrain.ConnectionSource counts(Integer... values) {
        Deque<Integer> left = new ArrayDeque<>(List.of(values));
        return port -> left.size() > 1 ? left.poll() : left.peek();
    }

    @Test
    void returnsAtOnceWhenNothingIsHeld() throws Exception {
        FakeClock clock = new FakeClock();
        ConnectionDrain.Result r = new ConnectionDrain(counts(0), clock, 1_000).await(80);
        assertThat(r).isEqualTo(new ConnectionDrain.Result(0, 0));
        assertThat(clock.sleeps).isEmpty();
    }

    @Test
    void pollsUntilTheCountFallsToZero() throws Exception {
        FakeClock clock = new FakeClock();
        ConnectionDrain.Result r = new ConnectionDrain(counts(500, 320, 4, 0), clock, 1_000).await(80);
        assertThat(r.drained()).isTrue();
        assertThat(clock.sleeps).hasSize(3);
        assertThat(r.waitedMillis()).isEqualTo(clock.now);
    }

    @Test
    void givesUpAtTheBoundAndSaysHowManyAreLeft() throws Exception {
        FakeClock clock = new FakeClock();
        ConnectionDrain.Result r = new ConnectionDrain(counts(7), clock, 50).await(80);
        assertThat(r.drained()).isFalse();
        assertThat(r.held()).isEqualTo(7);
        assertThat(r.waitedMillis()).isEqualTo(50); // the last sleep is cut to the bound, not past it
        assertThat(clock.sleeps.stream().mapToLong(Long::longValue).sum()).isEqualTo(50);
    }

    @Test
    void countsTheServerSideOfAPortInHeldStatesOnly() {
        List<String> table = List.of(
                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
                "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1",  // LISTEN
                "   1: 0100007F:1F90 0100007F:A000 01 00000000:00000000 00:00000000 00000000     0        0 2 1",  // ESTABLISHED
                "   2: 0100007F:1F90 0100007F:A001 08 00000000:00000000 00:00000000 00000000     0        0 3 1",  // CLOSE_WAIT
                "   3: 0100007F:1F90 0100007F:A002 06 00000000:00000000 00:00000000 00000000     0        0 4 1",  // TIME_WAIT
                "   4: 0100007F:A003 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 5 1",  // a client's end
                "   5: 0100007F:1F91 0100007F:A004 01 00000000:00000000 00:00000000 00000000     0        0 6 1",  // another port
                "   6: 0100007F:1F90 0100007F:A005 0b 00000000:00000000 00:00000000 00000000     0        0 7 1"); // CLOSING
        assertThat(ConnectionDrain.count(table, 0x1F90)).isEqualTo(3);
    }

    @Test
    void theKernelTableSeesAnAcceptedConnectionUntilBothEndsClosed() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = server.getLocalPort();
            Socket client = new Socket("127.0.0.1", port);
            Socket accepted = server.accept();
            // A bound of 0: one look at the table, no wait.
            assertThat(ConnectionDrain.kernel(0).await(port).held()).isEqualTo(1);
            client.close(); // the client closes first, as a load run's do: the server's side is in CLOSE_WAIT
            assertThat(ConnectionDrain.kernel(0).await(port).held()).isEqualTo(1);
            accepted.close();
            ConnectionDrain.Result r = ConnectionDrain.kernel(10_000).await(port);
            assertThat(r.drained()).isTrue();
        }
    }
}
