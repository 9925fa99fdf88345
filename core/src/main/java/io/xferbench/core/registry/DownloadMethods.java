package io.xferbench.core.registry;

import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.loop.AutoLoopSender;
import io.xferbench.core.method.loop.BufferLoopSender;
import io.xferbench.core.method.loop.FileRegionLoopSender;
import io.xferbench.core.method.loop.SendfileLoopSender;
import io.xferbench.core.method.send.DirectChannelSender;
import io.xferbench.core.method.send.DirectIoSender;
import io.xferbench.core.method.send.DontCacheSender;
import io.xferbench.core.method.send.EpollSendfileSender;
import io.xferbench.core.method.send.HeapChannelSender;
import io.xferbench.core.method.send.IoUringDirectSender;
import io.xferbench.core.method.send.IoUringReadSendSender;
import io.xferbench.core.method.send.IoUringSendZcSender;
import io.xferbench.core.method.send.IoUringSpliceLinkedSender;
import io.xferbench.core.method.send.IoUringSpliceSender;
import io.xferbench.core.method.send.JdkDirectIoSender;
import io.xferbench.core.method.send.MmapSender;
import io.xferbench.core.method.send.SendfileSender;
import io.xferbench.core.method.send.StreamSender;
import io.xferbench.core.method.send.TlsJdkSender;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.method.send.TransferToSender;
import io.xferbench.core.method.send.UringFixedSendSender;
import io.xferbench.core.method.send.UringFixedSendZcSender;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The registry of download (file → socket) methods, in the order results are shown. Add a method here (its class plus this line); see docs/architecture.md. */
public final class DownloadMethods {
    private static final List<SenderMethod> ALL = MethodOverrides.apply(List.of(
            StreamSender.METHOD,
            HeapChannelSender.METHOD,
            DirectChannelSender.METHOD,
            TransferToSender.METHOD,
            SendfileSender.METHOD,
            MmapSender.METHOD,
            EpollSendfileSender.METHOD,
            IoUringSpliceSender.METHOD,
            IoUringReadSendSender.METHOD,
            IoUringSendZcSender.METHOD,
            IoUringSpliceLinkedSender.METHOD,
            UringFixedSendSender.METHOD,
            UringFixedSendZcSender.METHOD,
            DirectIoSender.METHOD,
            JdkDirectIoSender.METHOD,
            IoUringDirectSender.METHOD,
            DontCacheSender.METHOD,
            TlsJdkSender.METHOD,
            AutoLoopSender.METHOD,
            SendfileLoopSender.METHOD,
            BufferLoopSender.METHOD,
            FileRegionLoopSender.METHOD), SenderMethod.class);

    /** By id, for the per-request lookup (a stream over the list per download showed in a pooled server's profile). */
    private static final Map<String, SenderMethod> BY_ID = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(SenderMethod::id, m -> m));

    private DownloadMethods() {
    }

    public static List<SenderMethod> all() {
        return ALL;
    }

    public static Optional<SenderMethod> byId(String id) {
        return id == null ? Optional.empty() : Optional.ofNullable(BY_ID.get(id));
    }

    /** The methods that send on a blocking socket: every one but the event-loop models' own ({@link SenderMethod#loopSender}). */
    public static List<SenderMethod> blocking() {
        return ALL.stream().filter(m -> m.loopSender() == null).toList();
    }

    /**
     * {@link Flags#TLS} for a TLS method ({@link io.xferbench.core.method.MethodTraits#tls}), else 0: a client ORs it
     * into a DOWNLOAD's flags, and the server refuses a request whose flag and method disagree.
     */
    public static int tlsFlag(String id) {
        return byId(id).map(m -> m.traits().tls()).orElse(false) ? Flags.TLS : 0;
    }

    public static List<String> ids() {
        return ALL.stream().map(SenderMethod::id).toList();
    }
}
