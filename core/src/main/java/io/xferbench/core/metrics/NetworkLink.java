package io.xferbench.core.metrics;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One end of a network path: the interface a process's socket uses, as {@link NetworkLinks} found it. The same
 * bytes cost different syscalls and CPU over loopback (64 KiB MTU, no segmentation), a veth pair and a NIC whose
 * offloads split and merge segments, so results carry the link they ran over.
 *
 * @param kind     {@code loopback}, {@code veth}, another link kind {@code ip -d link} names (bridge, vlan, ...),
 *                 {@code nic (DRIVER)} for a device with a driver, or {@code unknown}
 * @param device   interface name, e.g. {@code lo}, {@code eth0}
 * @param address  the local address on it
 * @param mtu      the interface's MTU in bytes
 * @param qdisc    the root queueing discipline as {@code tc qdisc show} prints it without handles (e.g.
 *                 {@code noqueue}, {@code netem limit 1000 delay 1ms rate 10Gbit}); null when tc could not tell
 * @param offloads segmentation, receive-coalescing and checksum offloads ({@code ethtool -k} names, true = on);
 *                 null when ethtool could not tell
 * @param missing  what could not be found out and why (e.g. {@code offloads: ethtool not installed})
 */
public record NetworkLink(String kind, String device, String address, Integer mtu,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String qdisc,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Boolean> offloads,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> missing) {
    public static final String LOOPBACK = "loopback";
    public static final String VETH = "veth";

    public NetworkLink {
        offloads = offloads == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(offloads));  // ethtool's order
        missing = missing == null ? List.of() : List.copyOf(missing);
    }

    /** One line for a table's header: {@code veth0 veth mtu 1500 qdisc noqueue tso on gso on gro on lro off}. */
    public String summary() {
        StringBuilder b = new StringBuilder(device + " " + kind + " mtu " + mtu + " qdisc " + (qdisc == null ? "?" : qdisc));
        if (offloads != null) {
            for (String feature : NetworkLinks.SUMMARY_OFFLOADS.keySet()) {
                Boolean on = offloads.get(feature);
                if (on != null) {
                    b.append(' ').append(NetworkLinks.SUMMARY_OFFLOADS.get(feature)).append(on ? " on" : " off");
                }
            }
        }
        return b.toString();
    }
}
