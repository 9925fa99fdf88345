package io.xferbench.client.render;

import java.util.List;

/**
 * What one chart shows, before it is drawn: one group of horizontal bars per method (in report order), one slot per
 * series (a size, or a proxy scenario) in every group, so a bar always sits under its own method's name whatever
 * other rows were skipped or not run.
 *
 * @param title     what is measured and in which unit
 * @param subtitle  settings, date and environment, one line each
 * @param axisLabel the value axis
 * @param series    legend entries, in slot order
 * @param groups    one per method
 */
public record BarChart(String title, List<String> subtitle, String axisLabel, List<String> series, List<Group> groups) {
    public BarChart {
        for (Group g : groups) {
            if (g.cells().size() != series.size()) {
                throw new IllegalArgumentException(g.label() + ": " + g.cells().size() + " cells for " + series.size() + " series");
            }
        }
    }

    /** One method's slots, one per series. */
    public record Group(String label, List<Cell> cells) {
    }

    /** What a slot holds. */
    public sealed interface Cell permits Bar, Unmeasured, NotRun {
    }

    /**
     * A measured value.
     *
     * @param value the bar's length (the median, for rates)
     * @param min   left end of the whisker, null when the value is one measurement and has no spread
     * @param max   right end of the whisker, null likewise
     * @param text  printed beside the bar
     */
    public record Bar(double value, Double min, Double max, String text) implements Cell {
        public Bar {
            if ((min == null) != (max == null) || min != null && !(min <= value && value <= max)) {
                throw new IllegalArgumentException("whisker " + min + ".." + max + " must hold " + value);
            }
        }

        /** The largest number this bar draws to. */
        double reach() {
            return max == null ? value : max;
        }
    }

    /** A row that exists but has no number: skipped (with its reason), failed, or not counted. */
    record Unmeasured(String text, boolean failed) implements Cell {
    }

    /** No row for this method in this series. */
    record NotRun() implements Cell {
    }

    /** The largest value any bar or whisker reaches; 0 when nothing was measured. */
    double reach() {
        return groups.stream().flatMap(g -> g.cells().stream()).filter(c -> c instanceof Bar)
                .mapToDouble(c -> ((Bar) c).reach()).max().orElse(0);
    }
}
