package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LimitsTest {
    @TempDir
    Path dataDir;

    @Test
    void uploadsOverMaxUploadAreRefusedBeforeAnyByteAndLeaveNothing() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withMaxUpload(1000));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            TestFile big = server.data().generated(1001);
            Request r = new Request(Op.UPLOAD, "stream", "too-big.dat", "", 1001, big.crc32c(), Flags.VERIFY_CRC32C, 0);
            assertThatThrownBy(() -> c.upload(r, big))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.TOO_LARGE))
                    .hasMessageContaining("--max-upload");
            assertThat(Files.exists(dataDir.resolve("too-big.dat"))).isFalse();
            TestFile ok = server.data().generated(1000);
            assertThat(c.upload(new Request(Op.UPLOAD, "stream", "fits.dat", "", 1000, ok.crc32c(), Flags.VERIFY_CRC32C, 0), ok)
                    .verified()).isTrue();
        }
    }

    @Test
    void aTokenIsRequiredWhenConfigured() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withToken("s3cret"))) {
            try (XferConnection none = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThatThrownBy(() -> none.control(Op.INFO))
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.FORBIDDEN));
            }
            try (XferConnection wrong = XferConnection.open("127.0.0.1", server.port(), "s3cres")) {
                assertThatThrownBy(() -> wrong.download(Request.download("stream", 10, 0, 0))).isInstanceOf(RemoteException.class);
            }
            try (XferConnection right = XferConnection.open("127.0.0.1", server.port(), "s3cret")) {
                assertThat(right.download(Request.download("stream", 10, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }
}
