package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An upstream name that does not resolve is told to each client as the docs promise (SERVER_ERROR, the connection
 * kept for another PROXY frame), not a bare disconnect (the old code's UnresolvedAddressException).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyUnresolvableUpstreamTest {

    @Test
    void eachClientIsToldTheUpstreamCannotBeResolved() throws Exception {
        ProxyConfig config = new ProxyConfig("127.0.0.1", 0, 16, "no.such.host.invalid", 7070, "copy", 64 * 1024,
                Duration.ofSeconds(30), ServerConfig.DEFAULT_MAX_BUFFER_MEMORY);
        try (XferProxy proxy = XferProxy.start(config)) {
            try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
                for (int attempt = 0; attempt < 2; attempt++) {
                    assertThatThrownBy(() -> c.proxy("copy", 0)).isInstanceOfSatisfying(RemoteException.class, e -> {
                        assertThat(e.status()).isEqualTo(Status.SERVER_ERROR);
                        assertThat(e.reason()).isEqualTo("proxy cannot reach upstream no.such.host.invalid:7070: cannot resolve host");
                    });
                }
            }
            try (XferConnection plain = XferConnection.open("127.0.0.1", proxy.port(), "")) {
                assertThatThrownBy(() -> plain.download(Request.download("stream", 10, 0, 0)))
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.SERVER_ERROR));
            }
        }
    }
}
