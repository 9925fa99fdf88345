package io.xferbench.client.render;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Locale;

/**
 * Draws a {@link BarChart} with Java2D, horizontally (method names stay readable): the same drawing goes to a PNG or,
 * through a vector Graphics2D, an SVG. The whiskers are drawn here from each bar's own min and max, because a charting
 * library's symmetric error bars would cross the real minimum. Layout is measured once with a scratch image's fonts, so
 * both outputs have the same geometry.
 */
final class BarChartPainter {
    static final int WIDTH = 1200;
    static final Color WHISKER = new Color(0x20, 0x20, 0x20);
    private static final int MARGIN = 16;
    private static final int BAR = 16;
    private static final int BAR_GAP = 3;
    private static final int GROUP_GAP = 12;
    private static final Color[] PALETTE = {new Color(0x4e79a7), new Color(0xf28e2b), new Color(0x59a14f), new Color(0xb07aa1),
            new Color(0x76b7b2), new Color(0xedc948), new Color(0xff9da7), new Color(0x9c755f)};
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 17);
    private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    private static final Font NOTE = new Font(Font.SANS_SERIF, Font.ITALIC, 12);

    private final BarChart chart;
    private final FontMetrics titleMetrics;
    private final FontMetrics smallMetrics;
    private final FontMetrics labelMetrics;
    private final int plotLeft;
    private final int plotRight;
    private final int plotTop;
    private final int height;
    private final double axisMax;
    private final double tick;
    /** The subtitle as drawn: each line wrapped to the chart's width, none cut. */
    private final List<String> headerLines;

    BarChartPainter(BarChart chart) {
        this.chart = chart;
        Graphics2D scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
        titleMetrics = scratch.getFontMetrics(TITLE);
        smallMetrics = scratch.getFontMetrics(SMALL);
        labelMetrics = scratch.getFontMetrics(LABEL);
        scratch.dispose();
        int labels = chart.groups().stream().mapToInt(g -> labelMetrics.stringWidth(g.label())).max().orElse(0);
        int texts = chart.groups().stream().flatMap(g -> g.cells().stream()).filter(c -> c instanceof BarChart.Bar)
                .mapToInt(c -> smallMetrics.stringWidth(((BarChart.Bar) c).text())).max().orElse(0);
        plotLeft = MARGIN + labels + 12;
        plotRight = WIDTH - MARGIN - texts - 10;
        headerLines = wrap(chart.subtitle(), smallMetrics, WIDTH - 2 * MARGIN);
        int headerLines = 1 + this.headerLines.size();
        plotTop = MARGIN + titleMetrics.getHeight() + (headerLines - 1) * smallMetrics.getHeight() + smallMetrics.getHeight() + 16;
        height = plotTop + chart.groups().size() * (groupHeight() + GROUP_GAP) + 2 * smallMetrics.getHeight() + MARGIN + 8;
        double reach = chart.reach();
        tick = tickStep(reach > 0 ? reach : 1);
        axisMax = Math.max(tick, Math.ceil(reach / tick) * tick);
    }

    int height() {
        return height;
    }

    /** Pixel column of a value on the axis. */
    double x(double value) {
        return plotLeft + value / axisMax * (plotRight - plotLeft);
    }

    /** Pixel row of the centre of the bar in group {@code group}, series slot {@code slot}. */
    int barCentre(int group, int slot) {
        return plotTop + group * (groupHeight() + GROUP_GAP) + slot * (BAR + BAR_GAP) + BAR / 2;
    }

    double axisMax() {
        return axisMax;
    }

    private int groupHeight() {
        int n = chart.series().size();
        return n * BAR + (n - 1) * BAR_GAP;
    }

    void paint(Graphics2D g) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, height);
        header(g);
        int bottom = plotTop + chart.groups().size() * (groupHeight() + GROUP_GAP) - GROUP_GAP / 2;
        grid(g, bottom);
        List<BarChart.Group> groups = chart.groups();
        for (int i = 0; i < groups.size(); i++) {
            group(g, i, groups.get(i));
        }
        g.setColor(Color.DARK_GRAY);
        g.setStroke(new BasicStroke(1));
        g.drawLine(plotLeft, plotTop - 6, plotLeft, bottom);
    }

    private void header(Graphics2D g) {
        int y = MARGIN + titleMetrics.getAscent();
        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        g.drawString(chart.title(), MARGIN, y);
        y += titleMetrics.getDescent();
        g.setFont(SMALL);
        g.setColor(new Color(0x55, 0x55, 0x55));
        for (String line : headerLines) {
            y += smallMetrics.getHeight();
            g.drawString(line, MARGIN, y);
        }
        // Legend: one swatch per series, then how to read the whisker and the marks.
        y += smallMetrics.getHeight() + 6;
        int x = MARGIN;
        for (int s = 0; s < chart.series().size(); s++) {
            g.setColor(colour(s));
            g.fillRect(x, y - 10, 14, 10);
            g.setColor(Color.BLACK);
            g.drawString(chart.series().get(s), x + 18, y);
            x += 18 + smallMetrics.stringWidth(chart.series().get(s)) + 16;
        }
        g.setColor(new Color(0x55, 0x55, 0x55));
        boolean whiskers = chart.groups().stream().flatMap(gr -> gr.cells().stream())
                .anyMatch(c -> c instanceof BarChart.Bar b && b.min() != null);
        g.drawString((whiskers ? "|—| min..max over rounds   " : "") + "grey band: skipped or not counted   red band: FAILED", x + 8, y);
    }

    private void grid(Graphics2D g, int bottom) {
        g.setFont(SMALL);
        for (double v = 0; v <= axisMax + tick / 2; v += tick) {
            int x = (int) Math.round(x(v));
            g.setColor(new Color(0xe4, 0xe4, 0xe4));
            g.drawLine(x, plotTop - 6, x, bottom);
            g.setColor(Color.DARK_GRAY);
            String label = ReportCharts.number(v);
            g.drawString(label, x - smallMetrics.stringWidth(label) / 2, bottom + smallMetrics.getAscent() + 4);
        }
        String axis = chart.axisLabel();
        g.setColor(Color.BLACK);
        g.drawString(axis, (plotLeft + plotRight) / 2 - smallMetrics.stringWidth(axis) / 2,
                bottom + smallMetrics.getHeight() + smallMetrics.getAscent() + 6);
    }

    private void group(Graphics2D g, int index, BarChart.Group group) {
        int top = barCentre(index, 0) - BAR / 2;
        if (index % 2 == 1) {
            g.setColor(new Color(0xf6, 0xf6, 0xf6));
            g.fillRect(MARGIN, top - GROUP_GAP / 2, WIDTH - 2 * MARGIN, groupHeight() + GROUP_GAP);
        }
        g.setFont(LABEL);
        g.setColor(Color.BLACK);
        int centre = top + groupHeight() / 2 + labelMetrics.getAscent() / 2 - 1;
        g.drawString(group.label(), plotLeft - 8 - labelMetrics.stringWidth(group.label()), centre);
        for (int s = 0; s < group.cells().size(); s++) {
            int y = barCentre(index, s);
            switch (group.cells().get(s)) {
                case BarChart.Bar bar -> bar(g, s, y, bar);
                case BarChart.Unmeasured u -> unmeasured(g, y, u);
                case BarChart.NotRun n -> {
                    // An empty slot: the other series' bars keep their places.
                }
            }
        }
    }

    private void bar(Graphics2D g, int slot, int y, BarChart.Bar bar) {
        int x0 = (int) Math.round(x(0));
        int x1 = (int) Math.round(x(bar.value()));
        g.setColor(colour(slot));
        g.fillRect(x0, y - BAR / 2, Math.max(1, x1 - x0), BAR);
        if (bar.min() != null) {
            int lo = (int) Math.round(x(bar.min()));
            int hi = (int) Math.round(x(bar.max()));
            g.setColor(WHISKER);
            g.setStroke(new BasicStroke(1.5f));
            g.drawLine(lo, y, hi, y);
            g.drawLine(lo, y - BAR / 2 + 3, lo, y + BAR / 2 - 3);
            g.drawLine(hi, y - BAR / 2 + 3, hi, y + BAR / 2 - 3);
            g.setStroke(new BasicStroke(1));
        }
        g.setFont(SMALL);
        g.setColor(Color.BLACK);
        int textX = (int) Math.round(x(bar.reach())) + 6;
        g.drawString(bar.text(), textX, y + smallMetrics.getAscent() / 2 - 1);
    }

    private void unmeasured(Graphics2D g, int y, BarChart.Unmeasured u) {
        g.setColor(u.failed() ? new Color(0xf8, 0xd0, 0xd0) : new Color(0xe0, 0xe0, 0xe0));
        g.fillRect(plotLeft + 1, y - BAR / 2, plotRight - plotLeft - 1, BAR);
        g.setFont(NOTE);
        g.setColor(u.failed() ? new Color(0xb0, 0x00, 0x00) : new Color(0x40, 0x40, 0x40));
        g.drawString(fit(u.text(), smallMetrics, plotRight - plotLeft - 12), plotLeft + 6, y + smallMetrics.getAscent() / 2 - 1);
    }

    private static Color colour(int slot) {
        return PALETTE[slot % PALETTE.length];
    }

    /**
     * Breaks each line at spaces to fit {@code width}, continuations indented. The header used to cut a long line
     * ("... · s..."), and what was cut was how the numbers were obtained: the server's settings, the command's end.
     */
    static List<String> wrap(List<String> lines, FontMetrics m, int width) {
        List<String> out = new java.util.ArrayList<>();
        for (String line : lines) {
            String rest = line;
            String indent = "";
            while (m.stringWidth(indent + rest) > width) {
                int cut = rest.length();
                while (cut > 0 && (cut == rest.length() || rest.charAt(cut) != ' ' || m.stringWidth(indent + rest.substring(0, cut)) > width)) {
                    cut--;
                }
                if (cut == 0) {
                    break;  // one word wider than the chart: drawn whole, it runs off the edge rather than vanish
                }
                out.add(indent + rest.substring(0, cut));
                rest = rest.substring(cut + 1);
                indent = "    ";
            }
            out.add(indent + rest);
        }
        return out;
    }

    /** Cuts a line to a width, marking the cut. */
    private static String fit(String s, FontMetrics m, int width) {
        if (m.stringWidth(s) <= width) {
            return s;
        }
        String cut = s;
        while (!cut.isEmpty() && m.stringWidth(cut + "...") > width) {
            cut = cut.substring(0, cut.length() - 1);
        }
        return cut + "...";
    }

    /** A round step (1, 2 or 5 times a power of ten) giving four to ten grid lines up to {@code max}. */
    static double tickStep(double max) {
        double rough = max / 5;
        double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double m : new double[]{1, 2, 5, 10}) {
            if (m * magnitude >= rough) {
                return m * magnitude;
            }
        }
        throw new AssertionError(String.format(Locale.ROOT, "no step for %f", max));
    }
}
