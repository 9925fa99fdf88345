package io.xferbench.client.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.ServerDescription;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProxyCommandTest {
    private static final MethodCatalog RELAYS;

    static {
        try {
            RELAYS = MethodCatalog.of(ProtocolJson.read("""
                    {"server": "xferbench-proxy", "methods": [
                      {"direction": "proxy", "id": "copy", "available": true, "unavailableReason": null},
                      {"direction": "proxy", "id": "io-uring", "available": false, "unavailableReason": "no io_uring"},
                      {"direction": "proxy", "id": "splice", "available": true, "unavailableReason": null},
                      {"direction": "download", "id": "transfer-to", "available": true, "unavailableReason": null}]}""".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    ServerDescription.class), "proxy");
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Test
    void theCatalogKeepsOneDirectionAndTheReasons() {
        assertThat(RELAYS.known()).containsExactly("copy", "io-uring", "splice");
        assertThat(RELAYS.unavailableReason("io-uring")).isEqualTo("no io_uring");
        assertThat(RELAYS.unavailableReason("copy")).isNull();
    }

    @Test
    void relaySpecsTakeABufferPerRelayAndAllForTheRest() {
        List<ProxyCommand.RelaySpec> specs = ProxyCommand.relays(List.of("copy:1KiB", "all"), RELAYS, null);
        assertThat(specs).containsExactly(new ProxyCommand.RelaySpec("copy", 1024), new ProxyCommand.RelaySpec("copy", null),
                new ProxyCommand.RelaySpec("io-uring", null), new ProxyCommand.RelaySpec("splice", null));
        assertThat(specs.get(0).frameBuffer()).isEqualTo(1024);
        assertThat(specs.get(1).frameBuffer()).as("0 = the proxy's default").isZero();
    }

    @Test
    void theDefaultBufferAppliesWhereNoneIsGivenAndDuplicatesGo() {
        assertThat(ProxyCommand.relays(List.of("splice", "splice:4KiB", "splice"), RELAYS, 4096))
                .containsExactly(new ProxyCommand.RelaySpec("splice", 4096));
    }

    /** A pipe holds at least a page: "splice 1" would label a row with a buffer that was not in effect. */
    @Test
    void relayBuffersBelowWhatTakesEffectAreRefused() {
        assertThatThrownBy(() -> ProxyCommand.relays(List.of("splice:1"), RELAYS, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("splice").hasMessageContaining("at least 4096");
        assertThatThrownBy(() -> ProxyCommand.relays(List.of("copy", "splice"), RELAYS, 1024))
                .as("a default buffer too").isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 4096");
        assertThat(ProxyCommand.relays(List.of("copy:1"), RELAYS, null)).as("copy reads 1 byte at a time: in effect")
                .containsExactly(new ProxyCommand.RelaySpec("copy", 1));
        assertThat(ProxyCommand.relays(List.of("splice:4KiB"), RELAYS, null)).containsExactly(new ProxyCommand.RelaySpec("splice", 4096));
    }

    @Test
    void unknownRelaysAreRefusedWithTheKnownOnes() {
        assertThatThrownBy(() -> ProxyCommand.relays(List.of("teleport"), RELAYS, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("teleport").hasMessageContaining("copy, io-uring, splice");
        assertThatThrownBy(() -> ProxyCommand.relays(List.of("copy:9GiB"), RELAYS, null)).isInstanceOf(IllegalArgumentException.class);
    }
}
