package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A FIFO where a file should be, behind a record that matches it: answered at once, never a hung thread. */
@Timeout(60)
class FifoDownloadTest {
    @TempDir
    Path dataDir;

    /** For the default model, and for the two that open a download's file off the pool: on the ring, on the loop. */
    @ParameterizedTest
    @ValueSource(strings = {"platform", "netty-io-uring", "netty-epoll-inline"})
    void aFifoBehindAMatchingRecordIsRefusedAndTheServerKeepsServing(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withMaxConnections(2).withIoModel(model))) {
            TestFile empty = server.data().generated(0);
            Files.delete(empty.path());
            assertThat(new ProcessBuilder("mkfifo", empty.path().toString()).start().waitFor()).isZero();
            long mtime = Files.getLastModifiedTime(empty.path()).to(TimeUnit.NANOSECONDS);
            Files.writeString(dataDir.resolve(".xferbench-0.dat.crc32c"), "0 " + mtime + " 0\n");
            for (String method : new String[] {"stream", "transfer-to", "direct-io"}) {
                for (int i = 0; i < 3; i++) {   // more requests than --max-connections: no thread may stay stuck
                    try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                        assertThatThrownBy(() -> c.download(Request.download(method, 0, Flags.VERIFY_CRC32C, 0)))
                                .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.FORBIDDEN))
                                .hasMessageContaining("not a regular file");
                    }
                    MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0, "the refused connection's thread is free");
                }
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThat(c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }
}
