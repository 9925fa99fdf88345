package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The proxy, too, drops clients that never finish their first frame, and keeps relaying for others. */
class ProxyStallTest {
    @TempDir
    Path dataDir;

    @Test
    void silentClientsAreDroppedAfterTheIdleTimeout() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferProxy proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy").withIdleTimeout(Duration.ofSeconds(1)))) {
            List<SocketChannel> stalled = new ArrayList<>();
            ByteBuffer frame = RequestCodec.encode(Request.download("stream", 10, 0, 0));
            for (int i = 0; i < 50; i++) {
                SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", proxy.port()));
                ch.write(frame.duplicate().limit(i % (frame.limit() - 1))); // nothing, or half a header
                stalled.add(ch);
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
                assertThat(c.download(Request.download("transfer-to", Sizes.MiB, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
            for (SocketChannel ch : stalled) {
                ch.socket().setSoTimeout(10_000);
                int n;
                try {
                    n = ch.socket().getInputStream().read(new byte[256]);
                } catch (IOException reset) {
                    n = -1;
                }
                assertThat(n).as("proxy closed the silent connection").isEqualTo(-1);
                ch.close();
            }
        }
    }
}
