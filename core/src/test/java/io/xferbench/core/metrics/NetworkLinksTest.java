package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class NetworkLinksTest {

    @Test
    void offloadsAreTheRecordedTopLevelFeaturesOfEthtool() {
        String ethtool = """
                Features for veth0:
                rx-checksumming: on
                tx-checksumming: on
                \ttx-checksum-ipv4: off [fixed]
                scatter-gather: on
                tcp-segmentation-offload: on
                \ttx-tcp-segmentation: on
                generic-segmentation-offload: on
                generic-receive-offload: off
                large-receive-offload: off [fixed]
                rx-gro-hw: off [fixed]
                highdma: on
                """;
        assertThat(NetworkLinks.parseOffloads(ethtool))
                .containsEntry("tcp-segmentation-offload", true)
                .containsEntry("generic-receive-offload", false)
                .containsEntry("large-receive-offload", false)
                .doesNotContainKeys("tx-checksum-ipv4", "tx-tcp-segmentation", "highdma")
                .hasSize(NetworkLinks.RECORDED_OFFLOADS.size());
    }

    @Test
    void loopbackIsFoundByTheRouteTowardsIt() throws Exception {
        NetworkLink link = NetworkLinks.towards(InetAddress.getLoopbackAddress());
        assertThat(link.kind()).isEqualTo(NetworkLink.LOOPBACK);
        assertThat(link.device()).isEqualTo("lo");
        assertThat(link.mtu()).isPositive();
        assertThat(link.summary()).startsWith("lo loopback mtu " + link.mtu());
    }
}
