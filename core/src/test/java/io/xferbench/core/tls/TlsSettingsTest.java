package io.xferbench.core.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;

class TlsSettingsTest {
    @Test
    void anUnknownCipherOrProtocolIsRefusedInOneLineNamingTheAllowed() {
        assertThatThrownBy(() -> TlsSettings.cipher("TLS_RSA_WITH_NULL_SHA"))
                .hasMessage("TLS cipher suite 'TLS_RSA_WITH_NULL_SHA' is not allowed (allowed: TLS_AES_128_GCM_SHA256, "
                        + "TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256)");
        assertThatThrownBy(() -> new TlsSettings("TLSv1.2", TlsSettings.ALLOWED_CIPHERS))
                .hasMessage("TLS protocol 'TLSv1.2' is not supported (allowed: TLSv1.3)");
        assertThatThrownBy(() -> new TlsSettings("TLSv1.3", List.of())).hasMessageStartingWith("no TLS cipher suite given");
    }

    @Test
    void anEngineGetsExactlyTheSettings() throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        SSLEngine engine = TlsSettings.cipher("TLS_CHACHA20_POLY1305_SHA256").applyTo(context.createSSLEngine());
        assertThat(engine.getEnabledProtocols()).containsExactly("TLSv1.3");
        assertThat(engine.getEnabledCipherSuites()).containsExactly("TLS_CHACHA20_POLY1305_SHA256");
    }
}
