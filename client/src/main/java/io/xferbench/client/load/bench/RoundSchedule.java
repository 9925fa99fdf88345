package io.xferbench.client.load.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of a repeated group's windows: round by round, every cell (server, concurrency, client, protocol) once per
 * round, so a slow drift of the machine falls on every cell of the round alike and a round's windows are the closest in
 * time. Odd rounds run the cells in reverse order (A B, B A): a drift within a round then favours no cell over two
 * rounds, where in a fixed order the first cell would always run before the others.
 */
final class RoundSchedule {
    private RoundSchedule() {
    }

    /** One window to measure: {@code cell} in round {@code round} (0-based). */
    record Turn<C>(int round, C cell) {
    }

    static <C> List<Turn<C>> interleave(List<C> cells, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be positive: " + rounds);
        }
        List<Turn<C>> turns = new ArrayList<>(cells.size() * rounds);
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < cells.size(); i++) {
                turns.add(new Turn<>(r, cells.get(r % 2 == 0 ? i : cells.size() - 1 - i)));
            }
        }
        return turns;
    }
}
