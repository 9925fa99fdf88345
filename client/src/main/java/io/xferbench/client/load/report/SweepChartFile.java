package io.xferbench.client.load.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javax.imageio.ImageIO;

/**
 * Draws a {@link SweepChart} as a PNG with Java2D: two panels side by side (requests/s, peak server threads), the
 * concurrencies evenly spaced on x (they usually grow ten-fold: evenly spaced reads like a log axis without one),
 * a line and a marker per design and point, the legend below. Only this class draws: moving the drawing to a
 * charting library changes nothing else.
 */
public final class SweepChartFile {
    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    static final int WIDTH = 1200;
    private static final int PANEL_HEIGHT = 380;
    private static final int MARGIN = 16;
    private static final Color[] PALETTE = {new Color(0x4e79a7), new Color(0xf28e2b), new Color(0x59a14f), new Color(0xb07aa1),
            new Color(0x76b7b2), new Color(0xedc948), new Color(0xff9da7), new Color(0x9c755f), new Color(0xe15759)};
    static final int COLOURS = PALETTE.length;
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 17);
    private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.BOLD, 13);

    private SweepChartFile() {
    }

    public static void write(SweepChart chart, Path png) throws IOException {
        if (chart.lines().isEmpty()) {
            throw new IOException("nothing to chart: no measured download row");
        }
        ImageIO.write(image(chart), "png", png.toFile());
    }

    static BufferedImage image(SweepChart chart) {
        int legendRows = (chart.lines().size() + 2) / 3;
        int top = MARGIN + 24 + chart.subtitle().size() * 16 + 12;
        int height = top + PANEL_HEIGHT + 40 + legendRows * 20 + MARGIN;
        BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, height);
            g.setColor(Color.BLACK);
            g.setFont(TITLE);
            g.drawString(chart.title(), MARGIN, MARGIN + 18);
            g.setFont(SMALL);
            for (int i = 0; i < chart.subtitle().size(); i++) {
                g.drawString(chart.subtitle().get(i), MARGIN, MARGIN + 24 + 14 + i * 16);
            }
            int half = WIDTH / 2;
            panel(g, chart, "requests/s", l -> l.requestsPerSec(), MARGIN, top, half - 2 * MARGIN);
            panel(g, chart, "server threads (peak live)", l -> l.threadsPeak(), half + MARGIN, top, half - 2 * MARGIN);
            legend(g, chart, top + PANEL_HEIGHT + 40);
        } finally {
            g.dispose();
        }
        return image;
    }

    private static void panel(Graphics2D g, SweepChart chart, String label, Function<SweepChart.Line, Map<Integer, ? extends Number>> values,
                              int left, int top, int width) {
        FontMetrics fm = g.getFontMetrics(SMALL);
        double max = chart.lines().stream().flatMap(l -> values.apply(l).values().stream())
                .mapToDouble(Number::doubleValue).max().orElse(1);
        double tick = tick(max > 0 ? max : 1);
        double axisMax = Math.ceil((max > 0 ? max : 1) / tick) * tick;
        Plot plot = new Plot(left + fm.stringWidth(format(axisMax, axisMax)) + 10, left + width - 10, top + 22,
                top + PANEL_HEIGHT - 30, axisMax);
        g.setFont(LABEL);
        g.setColor(Color.BLACK);
        g.drawString(label, plot.left(), top + 12);
        g.setFont(SMALL);
        List<Integer> xs = chart.concurrencies();
        axes(g, fm, plot, tick, xs);
        lines(g, plot, pointsY(chart, values, xs, plot));
    }

    /** A panel's plotting area in pixels, and the figure its top stands for. */
    private record Plot(int left, int right, int top, int bottom, double axisMax) {
    }

    /** The grid and labels of the y axis every {@code tick}, the concurrencies on x, the two axis lines. */
    private static void axes(Graphics2D g, FontMetrics fm, Plot p, double tick, List<Integer> xs) {
        for (double v = 0; v <= p.axisMax() + tick / 2; v += tick) {
            int y = y(v, p.axisMax(), p.top(), p.bottom());
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(p.left(), y, p.right(), y);
            g.setColor(Color.DARK_GRAY);
            String t = format(v, p.axisMax());
            g.drawString(t, p.left() - 6 - fm.stringWidth(t), y + fm.getAscent() / 2 - 1);
        }
        for (int i = 0; i < xs.size(); i++) {
            int x = x(i, xs.size(), p.left(), p.right());
            String t = String.valueOf(xs.get(i));
            g.setColor(Color.DARK_GRAY);
            g.drawLine(x, p.bottom(), x, p.bottom() + 4);
            g.drawString(t, x - fm.stringWidth(t) / 2, p.bottom() + 18);
        }
        String axis = "concurrent connections";
        g.drawString(axis, (p.left() + p.right() - fm.stringWidth(axis)) / 2, p.bottom() + 34);
        g.setColor(Color.BLACK);
        g.drawLine(p.left(), p.bottom(), p.right(), p.bottom());
        g.drawLine(p.left(), p.top(), p.left(), p.bottom());
    }

    /** Each line's y pixel at each concurrency, null where it has no point. */
    private static Integer[][] pointsY(SweepChart chart, Function<SweepChart.Line, Map<Integer, ? extends Number>> values,
                                       List<Integer> xs, Plot p) {
        int lines = chart.lines().size();
        Integer[][] ys = new Integer[lines][xs.size()];
        for (int li = 0; li < lines; li++) {
            Map<Integer, ? extends Number> points = values.apply(chart.lines().get(li));
            for (int i = 0; i < xs.size(); i++) {
                Number v = points.get(xs.get(i));
                ys[li][i] = v == null ? null : y(v.doubleValue(), p.axisMax(), p.top(), p.bottom());
            }
        }
        return ys;
    }

    /** Every line's segments and markers, the lines others cover drawn bigger ({@link #coveredBy}). */
    private static void lines(Graphics2D g, Plot p, Integer[][] ys) {
        for (int li = 0; li < ys.length; li++) {
            g.setColor(PALETTE[li % PALETTE.length]);
            Integer lastX = null;
            Integer lastY = null;
            int count = ys[li].length;
            for (int i = 0; i < count; i++) {
                Integer y = ys[li][i];
                if (y == null) {
                    lastX = null; // no row here: the line breaks
                    continue;
                }
                int x = x(i, count, p.left(), p.right());
                if (lastX != null) {
                    g.setStroke(stroke(li, 2f + 3f * Math.min(coveredBy(ys, li, i - 1), coveredBy(ys, li, i))));
                    g.drawLine(lastX, lastY, x, y);
                }
                g.fill(marker(li, x, y, 4 + 3 * coveredBy(ys, li, i)));
                lastX = x;
                lastY = y;
            }
            g.setStroke(new BasicStroke(1f));
        }
    }

    /**
     * How many later lines draw a point within 2 pixels of line {@code li}'s point {@code i}: equal figures (two designs
     * at the same thread count, say) would hide the earlier line under the later one, so the earlier one's marker and
     * segment are drawn that much bigger, and show as a rim around the later.
     */
    static int coveredBy(Integer[][] ys, int li, int i) {
        if (ys[li][i] == null) {
            return 0;
        }
        int n = 0;
        for (int later = li + 1; later < ys.length; later++) {
            if (ys[later][i] != null && Math.abs(ys[later][i] - ys[li][i]) <= 2) {
                n++;
            }
        }
        return n;
    }

    private static void legend(Graphics2D g, SweepChart chart, int top) {
        g.setFont(SMALL);
        int column = (WIDTH - 2 * MARGIN) / 3;
        for (int i = 0; i < chart.lines().size(); i++) {
            int x = MARGIN + (i % 3) * column;
            int y = top + (i / 3) * 20;
            g.setColor(PALETTE[i % PALETTE.length]);
            g.setStroke(stroke(i, 3f));
            g.drawLine(x, y - 7, x + 34, y - 7);
            g.setStroke(new BasicStroke(1f));
            g.fill(marker(i, x + 17, y - 7));
            g.setColor(Color.BLACK);
            g.drawString(chart.lines().get(i).label(), x + 42, y - 2);
        }
    }

    /** Solid for the palette's first round of colours, then dashed, then dotted: no two lines look alike. */
    static BasicStroke stroke(int line, float width) {
        return switch (line / PALETTE.length % 3) {
            case 0 -> new BasicStroke(width);
            case 1 -> new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f);
            default -> new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 4f}, 0f);
        };
    }

    /**
     * The point's marker, centred on (x, y): a circle for the palette's first round of colours, then a square, then a
     * triangle, so designs that share a colour differ where only points show (a run at one concurrency has no lines).
     */
    static Shape marker(int line, double x, double y) {
        return marker(line, x, y, 4);
    }

    /** {@link #marker(int, double, double)} of half-width {@code r}. */
    static Shape marker(int line, double x, double y, double r) {
        return switch (line / PALETTE.length % 3) {
            case 0 -> new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r);
            case 1 -> new Rectangle2D.Double(x - r, y - r, 2 * r, 2 * r);
            default -> {
                Path2D.Double t = new Path2D.Double();
                t.moveTo(x, y - 1.25 * r);
                t.lineTo(x + 1.25 * r, y + r);
                t.lineTo(x - 1.25 * r, y + r);
                t.closePath();
                yield t;
            }
        };
    }

    private static int x(int index, int count, int left, int right) {
        return count == 1 ? (left + right) / 2 : left + 30 + (int) Math.round(index * (right - left - 60) / (double) (count - 1));
    }

    private static int y(double v, double axisMax, int top, int bottom) {
        return bottom - (int) Math.round(v / axisMax * (bottom - top));
    }

    /** A round step giving 4 to 10 ticks. */
    private static double tick(double max) {
        double step = Math.pow(10, Math.floor(Math.log10(max)));
        while (max / step < 4) {
            step /= 2;
        }
        return step;
    }

    /** One format per axis: thousands as "12.5k" when the axis reaches 10,000, plain numbers otherwise. */
    private static String format(double v, double axisMax) {
        if (axisMax < 10_000 || v == 0) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        String k = String.format(Locale.ROOT, "%.1f", v / 1000);
        return (k.endsWith(".0") ? k.substring(0, k.length() - 2) : k) + "k";
    }
}
