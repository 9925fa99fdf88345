package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.ServerProcess;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A proxy with a token refuses, as the server does, every frame it reads without it, before anything is relayed. */
@Timeout(120)
class ProxyTokenTest {
    private static final String TOKEN = "s3cret";

    @TempDir
    Path dataDir;

    /** What a client sends first on a connection to the proxy. */
    private interface FirstFrame {
        Object send(XferConnection c) throws Exception;
    }

    /**
     * The upstream requires no token, so whatever refuses a client here is the proxy: a PROXY frame, a plain request
     * (forwarded otherwise) and a frame about the proxy itself, each without the token, with a wrong one and with a
     * longer one. With the token all three are answered.
     */
    @Test
    void framesWithoutTheTokenAreRefusedByTheProxy() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferProxy proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy").withToken(TOKEN))) {
            List<FirstFrame> frames = List.of(c -> c.proxy("copy", 0),
                    c -> c.download(Request.download("stream", 10, Flags.VERIFY_CRC32C, 0)), c -> c.proxySelf(Op.INFO));
            for (String token : List.of("", "s3cres", TOKEN + "x")) {
                for (FirstFrame frame : frames) {
                    try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), token)) {
                        assertThatThrownBy(() -> frame.send(c)).as("token '%s'", token).isInstanceOfSatisfying(RemoteException.class, e -> {
                            assertThat(e.status()).isEqualTo(Status.FORBIDDEN);
                            assertThat(e.reason()).isEqualTo("missing or wrong token");
                        });
                    }
                }
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), TOKEN)) {
                assertThat(new ObjectMapper().readTree(c.proxySelf(Op.INFO)).get("server").asText()).isEqualTo(ServerDescription.PROXY);
                assertThat(c.proxy("copy", 0)).isEqualTo("copy");
                assertThat(c.download(Request.download("stream", 10, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
            try (XferConnection plain = XferConnection.open("127.0.0.1", proxy.port(), TOKEN)) {
                assertThat(plain.download(Request.download("stream", 10, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }

    /** The client's token reaches the upstream unchanged: one token serves a proxy and its server alike. */
    @Test
    void theTokenIsForwardedToAnUpstreamThatRequiresTheSame() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withToken(TOKEN));
             XferProxy proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy").withToken(TOKEN))) {
            try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), TOKEN)) {
                assertThat(c.proxy("copy", 0)).isEqualTo("copy");
                assertThat(c.download(Request.download("stream", 10, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
                assertThat(new ObjectMapper().readTree(c.control(Op.INFO)).get("server").asText()).isEqualTo("xferbench");
            }
            try (XferConnection plain = XferConnection.open("127.0.0.1", proxy.port(), TOKEN)) {
                assertThat(plain.download(Request.download("stream", 10, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }

    /**
     * The command line: {@code --token-file} is the proxy's token, and a non-loopback {@code --bind} gets the server's
     * warning, naming what the proxy exposes.
     */
    @Test
    void theCommandLinesTokenIsRequiredAndAWildcardBindWarned(@TempDir Path tmp) throws Exception {
        Path tokenFile = Files.writeString(tmp.resolve("token"), TOKEN + "\n");
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             ServerProcess proxy = ServerProcess.startProxy(List.of(), "127.0.0.1:" + server.port(),
                     "--bind", "0.0.0.0", "--token-file", tokenFile.toString())) {
            assertThat(proxy.startup).contains("xferbench-server: WARNING: listening on 0.0.0.0, not loopback: anyone who "
                    + "can reach it can relay to 127.0.0.1:" + server.port());
            try (XferConnection none = XferConnection.open("127.0.0.1", proxy.port, "")) {
                assertThatThrownBy(() -> none.proxy("copy", 0)).isInstanceOfSatisfying(RemoteException.class,
                        e -> assertThat(e.status()).isEqualTo(Status.FORBIDDEN));
            }
            try (XferConnection right = XferConnection.open("127.0.0.1", proxy.port, TOKEN)) {
                assertThat(right.proxy("copy", 0)).isEqualTo("copy");
                assertThat(right.download(Request.download("stream", 10, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }
}
