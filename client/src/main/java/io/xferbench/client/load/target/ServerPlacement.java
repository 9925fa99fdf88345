package io.xferbench.client.load.target;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a load bench runs the servers it starts: on loopback, or (from {@code client veth load-bench}) behind a command
 * prefix such as {@code ip netns exec NS taskset -c 0} and listening on that namespace's address.
 *
 * @param launcher prefix of every server command; empty on loopback
 * @param address  the address servers listen on and the load is sent to
 */
public record ServerPlacement(List<String> launcher, String address) {
    public static final ServerPlacement LOOPBACK = new ServerPlacement(List.of(), "127.0.0.1");

    /** Where the load went, for a chart or a heading: loopback, or the servers' address and launcher. */
    public String described() {
        return launcher.isEmpty() && address.equals(LOOPBACK.address)
                ? "loopback, client and server sharing the machine's CPUs"
                : "servers at " + address + (launcher.isEmpty() ? "" : " started with '" + String.join(" ", launcher) + "'");
    }

    /** {@code command} behind the launcher. */
    List<String> command(List<String> command) {
        List<String> cmd = new ArrayList<>(launcher);
        cmd.addAll(command);
        return cmd;
    }
}
