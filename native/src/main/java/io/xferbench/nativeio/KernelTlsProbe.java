package io.xferbench.nativeio;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This machine's kernel TLS verdict ({@link KernelTls}), for the environment reports and the server's INFO: one loopback
 * TCP connection made for it, probed once per JVM and closed. A refusal of ENOENT names the upper layer protocols the
 * kernel does have ({@code /proc/sys/net/ipv4/tcp_available_ulp}), so "tls" missing from them shows.
 */
public final class KernelTlsProbe {
    static final Path AVAILABLE_ULPS = Path.of("/proc/sys/net/ipv4/tcp_available_ulp");

    /** The kernel's answer, kept: it changes only when someone loads the module. */
    private static volatile KernelTls.Support known;

    private KernelTlsProbe() {
    }

    public static KernelTls.Support here() {
        KernelTls.Support k = known;
        if (k != null) {
            return k;
        }
        String unavailable = NativeSupport.unavailableReason() != null ? NativeSupport.unavailableReason() : Fds.unavailableReason();
        if (unavailable != null) {
            return known = new KernelTls.Support(0, unavailable);
        }
        KernelTls.Support answer;
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept()) {
            answer = KernelTls.probe(Fds.of(client));
        } catch (IOException e) {
            // Not kept: no connection now (EMFILE, say) says nothing about the kernel.
            return new KernelTls.Support(0, "no loopback TCP connection to probe with: " + e.getMessage());
        }
        if (answer.errno() == Errno.ENOENT) {
            answer = new KernelTls.Support(answer.errno(), answer.unavailableReason() + " (the kernel's ULPs: " + availableUlps() + ")");
        }
        return known = answer;
    }

    /** What the kernel lists, e.g. {@code mptcp}; {@code none} for an empty list. */
    static String availableUlps() {
        try {
            String ulps = Files.readString(AVAILABLE_ULPS).strip();
            return ulps.isEmpty() ? "none" : ulps;
        } catch (IOException e) {
            return "unknown, " + AVAILABLE_ULPS + " unreadable";
        }
    }
}
