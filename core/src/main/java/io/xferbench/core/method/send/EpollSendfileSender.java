package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.netty.NettyFileRegionSender;
import io.xferbench.core.netty.NettyTransport;

/** Netty epoll writing a {@code DefaultFileRegion}: sendfile64(2) driven by epoll_wait readiness. */
public final class EpollSendfileSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("epoll-sendfile",
            "Netty epoll DefaultFileRegion: sendfile64(2) on a non-blocking socket, epoll_wait when the socket is full",
            NettyTransport.EPOLL::availability,
            MethodTraits.twin("sendfile").paced().definedBy("sendfile64"),
            options -> new NettyFileRegionSender(NettyTransport.EPOLL, Long.MAX_VALUE, Long.MAX_VALUE, ""));

    private EpollSendfileSender() {
    }
}
