package io.xferbench.server.loop;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import io.xferbench.server.HttpServingTest;
import io.xferbench.server.IoModelTest;

/**
 * The io_uring models' small bodies by sendfile from the loop ({@link LoopSendfile}): a body the socket takes only in
 * part goes on through the ring from where sendfile stopped, every byte once and in order, answer after answer.
 */
@Timeout(60)
@ParameterizedClass
@ValueSource(strings = {"netty-io-uring", "netty-io-uring-inline"})
class LoopSendfileTest {
    private static final int BODY = 128 * 1024; // the largest body sent from the loop (EventLoopTransport.copiedBodyLimit)
    /**
     * Pipelined, 6 MiB in all: more than the server's socket may hold (on loopback the kernel sizes its send buffer
     * from the 64 KiB MSS to about 2.6 MiB, at most tcp_wmem's 4 MiB), so one of the bodies meets a full socket.
     */
    private static final int ANSWERS = 48;

    @Parameter
    String model;

    @TempDir
    Path dataDir;

    @BeforeEach
    void available() {
        IoModelTest.assumeModelRuns(model);
        MethodAssumptions.assumeAvailable("sendfile from the event loop", LoopSendfile.AVAILABLE,
                "the JNA shim or the JDK's file descriptors are unavailable: bodies go through the ring");
    }

    @Test
    void bodiesASocketCannotTakeWholeArriveWholeAndInOrder() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             Socket s = new Socket()) {
            TestFile f = server.data().generated(BODY);
            s.setReceiveBufferSize(4096); // before connecting: the client's window stays small
            s.connect(new InetSocketAddress("127.0.0.1", server.port()));
            long cutBefore = LoopSendfile.cutShort();
            String get = "GET /" + f.path().getFileName() + " HTTP/1.1\r\nHost: x\r\n\r\n";
            s.getOutputStream().write(get.repeat(ANSWERS).getBytes(StandardCharsets.US_ASCII));
            Thread.sleep(300); // nothing read yet: the server's socket fills in the middle of a body
            InputStream in = s.getInputStream();
            for (int i = 0; i < ANSWERS; i++) {
                HttpServingTest.Response r = HttpServingTest.read(in, false);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.headers().get("x-xferbench-method")).isEqualTo("loop-sendfile");
                assertThat(r.body()).as("answer %d", i).hasSize(BODY);
                assertThat(r.crc()).as("answer %d", i).isEqualTo(f.crc32c());
            }
            assertThat(LoopSendfile.cutShort() - cutBefore).as("bodies the socket took only in part").isPositive();
        }
    }
}
