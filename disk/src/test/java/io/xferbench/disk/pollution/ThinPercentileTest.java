package io.xferbench.disk.pollution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThinPercentileTest {

    @Test
    void aP99IsThinUntilFiveRequestsLieBeyondIt() {
        assertTrue(ThinPercentile.thin(40, 99));
        assertTrue(ThinPercentile.thin(499, 99));
        assertFalse(ThinPercentile.thin(500, 99));
        assertEquals("2.70*", ThinPercentile.p99Cell(2.7, 40));
        assertEquals("2.70", ThinPercentile.p99Cell(2.7, 5000));
    }

    @Test
    void theReportStarsAThinP99AndSaysWhy() throws IOException {
        PollutionRow thinDuring = row(1000, 36, 1000);
        String table = PollutionReport.format(Map.of(), List.of(thinDuring), "table");
        assertTrue(table.contains("1.00 / 2.70* / 1.10"), table);
        assertTrue(table.contains("* p99 of a window with fewer than 500 hot requests"), table);
        assertEquals(List.of("during"), thinDuring.hotP99Thin());
        assertTrue(PollutionReport.format(Map.of(), List.of(thinDuring), "json").contains("\"hotP99Thin\" : [ \"during\" ]"));

        String full = PollutionReport.format(Map.of(), List.of(row(1000, 1000, 1000)), "table");
        assertFalse(full.contains("*"), full);
    }

    @Test
    void everyPassOfTheBigReadIsVerifiedAndSummed() throws IOException {
        PollutionScenario.ReadResult two = PollutionScenario.ReadResult.NONE
                .plus(PollutionScenario.Pass.parse("pass 100 10 7"), 7)
                .plus(PollutionScenario.Pass.parse("pass 100 30 7"), 7);
        assertEquals(new PollutionScenario.ReadResult(200, 40, 2, true), two);
        // One wrong pass among right ones fails the read.
        assertFalse(two.plus(PollutionScenario.Pass.parse("pass 100 10 8"), 7).plus(
                PollutionScenario.Pass.parse("pass 100 10 7"), 7).verified());
        for (String bad : List.of("done 1 2 3", "pass 1 2", "pass x 2 3", "")) {
            assertThrows(IOException.class, () -> PollutionScenario.Pass.parse(bad), bad);
        }
    }

    private static PollutionRow row(long before, long during, long after) {
        return new PollutionRow("buffered-read", 1L << 30, 1, 1000, true, 0, 100, 50, 90, 50, null, 40, 40, 40, 1.0,
                2.7, 1.1, before, during, after, 0, 1.0, 30, 0, 0, 0, 0, 256L << 20, null, null);
    }
}
