package io.xferbench.client.load;

import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.List;

/** Deletes named files on an xferbench server over one blocking connection, after a run (not measured). */
final class RemoteDeletes {
    private RemoteDeletes() {
    }

    /** @return how many were there and are now gone (NOT_FOUND counts as gone, not as removed) */
    static int delete(InetSocketAddress server, String token, List<String> names) throws IOException {
        int removed = 0;
        try (SocketChannel ch = SocketChannel.open(server)) {
            for (String name : names) {
                Frames.writeFully(ch, RequestCodec.encode(Request.onFile(Op.DELETE, name).withToken(token)));
                try {
                    ResponseCodec.readDeleted(ch);
                    removed++;
                } catch (RemoteException e) {
                    if (e.status() != Status.NOT_FOUND) {
                        throw e;
                    }
                }
            }
        }
        return removed;
    }
}
