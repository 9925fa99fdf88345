package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.TcpInfo;
import io.xferbench.server.config.ServerConfig;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How many TCP segments one download's answer takes on loopback (a 16 KiB body, under one segment's 64 KiB), counted by
 * the client's kernel ({@code tcpi_data_segs_in}). With {@code --cork-responses} every model's answer is one. Without it
 * (the default): the thread models send the head with MSG_MORE ({@link AnswerHead}), and so do the epoll models
 * before their sendfile ({@link EventLoopAnswerHead}; they wrote head, body and trailer apart before), so it leaves
 * with the body and only the native trailer follows on its own; the io_uring models write the head with the copied
 * body, then the native trailer.
 */
@Timeout(60)
class AnswerSegmentsTest {
    private static final int SIZE = 16 * 1024;
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?i)content-length: *(\\d+)");

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void segmentsPerAnswerWithAndWithoutTheCork(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        MethodAssumptions.assumeAvailable("TCP_INFO", NativeSupport.available(), NativeSupport.unavailableReason());
        ServerConfig config = ServerConfig.loopback(dataDir).withIoModel(model);
        assertThat(config.corkResponses()).as("not corked by default").isFalse();
        try (XferServer corked = XferServer.start(config.withCorkResponses(true));
             XferServer plain = XferServer.start(config)) {
            corked.data().generated(SIZE);
            assertThat(infoSaysCorked(corked)).as("INFO's environment.corkResponses").isTrue();
            assertThat(infoSaysCorked(plain)).isFalse();
            assertThat(fewestSegments(corked, false)).as("native, corked").isEqualTo(1);
            assertThat(fewestSegments(corked, true)).as("HTTP, corked").isEqualTo(1);
            assertThat(fewestSegments(plain, false)).as("native, not corked: head+body, trailer").isEqualTo(2);
            assertThat(fewestSegments(plain, true)).as("HTTP, not corked: head+body").isEqualTo(1);
        }
    }

    /**
     * The fewest data segments one download's answer took over three tries: the kernel sends a corked partial segment
     * after 200 ms anyway, so a stall that long inside one answer (a loaded machine) splits it.
     */
    private static long fewestSegments(XferServer server, boolean http) throws IOException {
        long fewest = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3; attempt++) {
            fewest = Math.min(fewest, http ? httpSegments(server) : nativeSegments(server));
        }
        return fewest;
    }

    private static boolean infoSaysCorked(XferServer server) throws IOException {
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            JsonNode flag = new ObjectMapper().readTree(c.control(Op.INFO)).path("environment").path("corkResponses");
            assertThat(flag.isBoolean()).as("environment.corkResponses").isTrue();
            return flag.asBoolean();
        }
    }

    private static long nativeSegments(XferServer server) throws IOException {
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            long before = TcpInfo.dataSegmentsIn(c.channel());
            assertThat(c.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            return TcpInfo.dataSegmentsIn(c.channel()) - before;
        }
    }

    private static long httpSegments(XferServer server) throws IOException {
        try (SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            long before = TcpInfo.dataSegmentsIn(s);
            String get = "GET /" + DataDirectory.generatedName(SIZE) + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
            s.write(ByteBuffer.wrap(get.getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer in = ByteBuffer.allocate(SIZE + 4096);
            int headEnd = -1;
            long expected = Long.MAX_VALUE;
            while (in.position() < expected) {
                if (s.read(in) < 0) {
                    throw new EOFException("closed after " + in.position() + " bytes");
                }
                if (headEnd < 0) {
                    String text = new String(in.array(), 0, in.position(), StandardCharsets.ISO_8859_1);
                    headEnd = text.indexOf("\r\n\r\n");
                    if (headEnd >= 0) {
                        assertThat(text).startsWith("HTTP/1.1 200");
                        Matcher m = CONTENT_LENGTH.matcher(text.substring(0, headEnd));
                        assertThat(m.find()).as("Content-Length in " + text.substring(0, headEnd)).isTrue();
                        expected = headEnd + 4 + Long.parseLong(m.group(1));
                    }
                }
            }
            assertThat(in.position()).isEqualTo((int) expected);
            return TcpInfo.dataSegmentsIn(s) - before;
        }
    }
}
