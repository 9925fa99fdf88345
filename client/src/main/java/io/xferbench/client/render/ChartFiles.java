package io.xferbench.client.render;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import io.xferbench.client.report.Report;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/** Writes a report's charts as PNG and SVG files: {@code BASE.png/.svg} (throughput), {@code BASE-cpu.png/.svg}, ... */
public final class ChartFiles {
    static {
        // Charts are drawn off-screen; without this, AWT may look for a display on a server.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private ChartFiles() {
    }

    /**
     * Writes every chart of the report beside {@code base} (its .png or .svg extension, if any, is dropped).
     *
     * @return the files written
     */
    public static List<Path> write(Report report, Path base) throws IOException {
        List<ReportCharts.Named> charts = ReportCharts.of(report);
        if (charts.isEmpty()) {
            throw new IOException("nothing to chart: the report has no rows");
        }
        String stem = base.getFileName().toString().replaceFirst("\\.(png|svg)$", "");
        List<Path> written = new ArrayList<>();
        for (ReportCharts.Named named : charts) {
            Path png = base.resolveSibling(stem + named.suffix() + ".png");
            Path svg = base.resolveSibling(stem + named.suffix() + ".svg");
            // Through our own stream: ImageIO.write(.., File) prints a stack trace and a vague IIOException when the
            // file cannot be made; Files names the file and the reason in one line.
            try (OutputStream out = Files.newOutputStream(png)) {
                ImageIO.write(png(named.chart()), "png", out);
            }
            Files.writeString(svg, svg(named.chart()), StandardCharsets.UTF_8);
            written.add(png);
            written.add(svg);
        }
        return written;
    }

    static BufferedImage png(BarChart chart) {
        BarChartPainter painter = new BarChartPainter(chart);
        BufferedImage image = new BufferedImage(BarChartPainter.WIDTH, painter.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            painter.paint(g);
        } finally {
            g.dispose();
        }
        return image;
    }

    static String svg(BarChart chart) throws IOException {
        BarChartPainter painter = new BarChartPainter(chart);
        VectorGraphics2D g = new VectorGraphics2D();
        painter.paint(g);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SVGProcessor().getDocument(g.getCommands(), new PageSize(BarChartPainter.WIDTH, painter.height())).writeTo(out);
        // The SVG writer leaves out the size of 12 px text (its default) and a browser would draw it at 16 px, too wide
        // for the layout: the root element states it.
        return out.toString(StandardCharsets.UTF_8).replaceFirst("<svg ", "<svg style=\"font-size:12px\" ");
    }
}
