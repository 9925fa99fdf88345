package io.xferbench.server.proxy;

import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.measure.Measurements;

/** What every connection of one proxy works with. */
record ProxyShared(ProxyConfig config, ConnectionRegistry registry, Measurements measurements, OpenSockets sockets,
                   RelaySetup setup, UpstreamDial upstream, RelayFactory relays) {
}
