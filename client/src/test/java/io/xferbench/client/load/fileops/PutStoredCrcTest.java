package io.xferbench.client.load.fileops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.exchange.HttpPutExchange;
import io.xferbench.client.load.exchange.HttpResponseParser;
import io.xferbench.client.load.exchange.LoadProtocolException;
import io.xferbench.client.load.exchange.ResponseParser;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadReportFormat;
import io.xferbench.client.load.report.TestEnvironments;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HTTP PUTs are checked by what the answer says of the bytes stored ({@code X-Xferbench-Crc32c}) when it says it, and
 * a row whose PUTs were answered by status only says how many, and how many files were read back.
 */
@Timeout(120)
class PutStoredCrcTest {
    private static final int FILE = 20 * 1024;
    private static final int CRC = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);

    /**
     * A WebDAV-like file server in memory: PUT stores the body and answers 201, with {@code X-Xferbench-Crc32c} when
     * {@code header}: {@code announced} of the stored body's CRC32C (the first PUT, the row's probe, the truth); GET and
     * DELETE serve and remove what was stored.
     */
    private static HttpServer dav(boolean header, IntUnaryOperator announced, Map<String, byte[]> files) throws IOException {
        AtomicInteger puts = new AtomicInteger();
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        http.createContext("/", exchange -> {
            String name = exchange.getRequestURI().getPath();
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            switch (exchange.getRequestMethod()) {
                case "PUT" -> {
                    files.put(name, body);
                    CRC32C crc = new CRC32C();
                    crc.update(body);
                    int stored = (int) crc.getValue();
                    int said = puts.getAndIncrement() == 0 ? stored : announced.applyAsInt(stored);
                    if (header) {
                        exchange.getResponseHeaders().add("X-Xferbench-Crc32c", String.format("%08x", said));
                    }
                    exchange.sendResponseHeaders(201, -1);
                }
                case "GET" -> {
                    byte[] stored = files.get(name);
                    if (stored == null) {
                        exchange.sendResponseHeaders(404, -1);
                    } else {
                        exchange.sendResponseHeaders(200, stored.length);
                        try (OutputStream out = exchange.getResponseBody()) {
                            out.write(stored);
                        }
                    }
                }
                case "DELETE" -> exchange.sendResponseHeaders(files.remove(name) == null ? 404 : 204, -1);
                default -> exchange.sendResponseHeaders(405, -1);
            }
            exchange.close();
        });
        http.setExecutor(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory()));
        http.start();
        return http;
    }

    private static FileOpsRun.Outcome run(HttpServer http, FileOpsWorkload.Kind kind) throws Exception {
        LoadPlan plan = new LoadPlan(new InetSocketAddress("127.0.0.1", http.getAddress().getPort()), 2, 1, 20, null,
                Duration.ZERO, 0, Duration.ofSeconds(30));
        return FileOpsRun.run(plan, FileOpsRun.Wire.overHttp(), kind, FILE, CRC, "crc", null, null, LoadEngine.WindowObserver.NONE);
    }

    @Test
    void aPutAnsweredWithAnotherCrcIsAVerificationFailure() throws Exception {
        Map<String, byte[]> files = new ConcurrentHashMap<>();
        HttpServer http = dav(true, crc -> crc ^ 1, files); // stores the right bytes, says it stored others
        try {
            FileOpsRun.Outcome o = run(http, FileOpsWorkload.Kind.UPLOAD);
            assertThat(o.skipped()).isNull();
            assertThat(o.result().requests()).isZero();
            assertThat(o.result().errors()).isEqualTo(Map.of("crc mismatch", 20L));
            assertThat(o.result().verified()).isFalse();
            assertThat(files).isEmpty(); // cleaned up all the same
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aPutWhoseAnswerRepeatsTheBodysCrcIsVerifiedByIt() throws Exception {
        HttpServer http = dav(true, crc -> crc, new ConcurrentHashMap<>());
        try {
            FileOpsRun.Outcome o = run(http, FileOpsWorkload.Kind.UPLOAD);
            assertThat(o.result().errors()).isEmpty();
            assertThat(o.result().requests()).isEqualTo(20);
            assertThat(o.readBack().ok()).isTrue();
            assertThat(o.readBack().files()).isEqualTo(2);
            assertThat(o.readBack().checked()).isEqualTo(2);
            assertThat(o.readBack().puts()).isGreaterThanOrEqualTo(20);
            assertThat(o.readBack().putsStatusOnly()).isZero();
            assertThat(o.readBack().statusOnlyNote()).isNull();
        } finally {
            http.stop(0);
        }
    }

    /** nginx's way: a status and nothing more. What was checked is said: PUTs by status only, files read back of those written. */
    @Test
    void withoutTheHeaderTheRowSaysWhatWasChecked() throws Exception {
        HttpServer http = dav(false, crc -> crc, new ConcurrentHashMap<>());
        try {
            FileOpsRun.Outcome o = run(http, FileOpsWorkload.Kind.DELETE);
            assertThat(o.result().errors()).isEmpty();
            ReadBack r = o.readBack();
            assertThat(r.files()).isEqualTo(2);
            assertThat(r.puts()).isGreaterThanOrEqualTo(20).isEqualTo(r.putsStatusOnly());
            assertThat(r.checked()).isLessThanOrEqualTo(2); // deleted files cannot be read back: only what is left
            assertThat(r.statusOnlyNote()).isEqualTo(r.puts() + " of " + r.puts() + " PUTs by status only; " + r.checked()
                    + " of 2 files read back (their last PUT)");
            LoadReport.Row row = new LoadReport.Row("nginx", "sendfile", "xferbench", "http", "delete", FILE, 2, o.result(), null,
                    null, null, r, null);
            assertThat(LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, List.of(row), LoadReportFormat.TABLE))
                    .contains("yes (" + r.statusOnlyNote() + ")");
            assertThat(LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, List.of(row), LoadReportFormat.JSON))
                    .contains("\"putsStatusOnly\" : " + r.puts()).contains("\"files\" : 2");
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aMalformedStoredCrcIsAProtocolError() {
        ResponseParser p = HttpResponseParser.forPut(HttpPutExchange.STORED, CRC);
        ByteBuffer answer = ByteBuffer.wrap("HTTP/1.1 201 Created\r\nContent-Length: 0\r\nX-Xferbench-Crc32c: nothex\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> p.feed(answer)).isInstanceOf(LoadProtocolException.class).hasMessageContaining("X-Xferbench-Crc32c");
    }
}
