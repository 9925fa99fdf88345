package io.xferbench.client.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.result.MethodResult;
import io.xferbench.core.method.Direction;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.ProtocolJson;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A proxy still tearing down the previous row's relays when the next row's window begins reports them as other
 * connections in that window. They are this client's own: the row must not say "shared" (found with
 * {@code client proxy --method copy,splice --scenario small,connect --concurrency 2}: the connect row said
 * sharedWithConnections 1 with no other client present).
 */
@Timeout(30)
class EarlierRowsOverlapTest {
    /** A connection with a local address of its own, as the far side names it. */
    record Endpoint(String address) implements AutoCloseable, TransferDriver.LocalEndpoints {
        @Override
        public Collection<String> localAddresses() {
            return List.of(address);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void connectionsOfEarlierRowsAreNotAnotherClients() {
        AtomicInteger ports = new AtomicInteger(40_000);
        TransferDriver driver = new TransferDriver(new TransferDriver.Rounds(1, 0, 1, false));
        MethodResult first = driver.run(job(ports, "{}"), null);
        assertThat(first.sharing().shared()).isFalse();
        // The far side still saw the first row's connection (127.0.0.1:40000) when the second row's window began.
        MethodResult second = driver.run(job(ports, """
                {"connections": 1, "requests": 1, "peers": {"127.0.0.1:40000": 1}, "peersComplete": true}"""), null);
        assertThat(second.sharing().shared()).as("the earlier row's connection is this run's own").isFalse();
        MethodResult third = driver.run(job(ports, """
                {"connections": 1, "requests": 1, "peers": {"127.0.0.1:39999": 1}, "peersComplete": true}"""), null);
        assertThat(third.sharing().sharedWithConnections()).as("a connection this run never had is another's").isEqualTo(1);
    }

    private static TransferDriver.Job<Endpoint> job(AtomicInteger ports, String overlap) {
        return new TransferDriver.Job<>(MethodResult.Row.served(Direction.DOWNLOAD, "m", 1), 1,
                () -> new Endpoint("127.0.0.1:" + ports.getAndIncrement()),
                (c, index) -> new Outcome(1, 1_000_000, null, 1000, 1000, 1_000_000, -1, -1),
                conns -> new TransferDriver.Window() {
                    @Override
                    public void begin() {
                    }

                    @Override
                    public MeasurementReport end() throws java.io.IOException {
                        String json = "{\"cpuUserSeconds\": 0.5, \"cpuSystemSeconds\": 0.5"
                                + ("{}".equals(overlap) ? "" : ", \"overlap\": " + overlap) + "}";
                        return ProtocolJson.read(json.getBytes(StandardCharsets.UTF_8), MeasurementReport.class);
                    }
                });
    }
}
