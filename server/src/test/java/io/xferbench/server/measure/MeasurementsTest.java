package io.xferbench.server.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.WindowOverlap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The board's bookkeeping of other connections' work, without a server: what a window's overlap says. */
class MeasurementsTest {
    @Test
    void aWindowCountsOtherConnectionsRequestsByPeerAndATransferInFlightWhenItBegins() throws Exception {
        try (Measurements board = new Measurements(MeasurementReport.SERVER)) {
            board.started(7, "10.0.0.7:4000"); // in flight before the window opens
            Measurements.Window w = board.begin(1, false);
            board.finished(7);
            for (int i = 0; i < 3; i++) {
                board.started(8, "10.0.0.8:4000");
                board.finished(8);
            }
            board.started(9, "10.0.0.8:4000"); // another connection from the same peer address
            board.finished(9);
            board.started(1, "10.0.0.1:4000"); // the window's own connection is not someone else's work
            board.finished(1);

            WindowOverlap overlap = w.end().overlap();

            assertThat(overlap.connections()).isEqualTo(3);
            assertThat(overlap.requests()).isEqualTo(5);
            assertThat(overlap.peers()).isEqualTo(Map.of("10.0.0.7:4000", 1L, "10.0.0.8:4000", 4L));
            assertThat(overlap.peersComplete()).isTrue();
            assertThat(board.openWindows()).isZero();
        }
    }

    @Test
    void pastTheBoundOnPeersConnectionsAreStillCountedButTheListSaysItIsIncomplete() throws Exception {
        try (Measurements board = new Measurements(MeasurementReport.SERVER)) {
            Measurements.Window w = board.begin(0, false);
            int others = WindowOverlap.MAX_PEERS + 2;
            for (int round = 0; round < 2; round++) {
                for (int conn = 1; conn <= others; conn++) {
                    board.started(conn, "10.1." + (conn >> 8) + "." + (conn & 0xFF) + ":80");
                    board.finished(conn);
                }
            }

            WindowOverlap overlap = w.end().overlap();

            assertThat(overlap.connections()).isEqualTo(others);
            assertThat(overlap.requests()).isEqualTo(2L * others);
            assertThat(overlap.peers()).hasSize(WindowOverlap.MAX_PEERS).containsEntry("10.1.0.1:80", 2L);
            assertThat(overlap.peers().values()).allMatch(n -> n == 2L); // the listed ones, both rounds each
            assertThat(overlap.peersComplete()).isFalse();
        }
    }

    @Test
    void aWindowAloneOverlapsNothingAndTwoWindowsSeeEachOthersConnections() throws Exception {
        try (Measurements board = new Measurements(MeasurementReport.SERVER)) {
            Measurements.Window a = board.begin(1, false);
            Measurements.Window b = board.begin(2, false);
            board.started(1, "a:1");
            board.finished(1);
            board.started(2, "b:2");
            board.finished(2);
            board.started(2, "b:2");
            board.finished(2);

            WindowOverlap ofA = a.end().overlap();
            WindowOverlap ofB = b.end().overlap();

            assertThat(ofA.peers()).isEqualTo(Map.of("b:2", 2L));
            assertThat(ofB.peers()).isEqualTo(Map.of("a:1", 1L));
            Measurements.Window alone = board.begin(3, false);
            assertThat(alone.end().overlap()).isEqualTo(WindowOverlap.NONE);
        }
    }
}
