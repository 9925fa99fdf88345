package io.xferbench.client.load.fileops;

import io.xferbench.core.net.NoAnswerException;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * Deletes named files on an xferbench server over one blocking connection, after a run (not measured); each answer
 * is awaited at most the answer timeout ({@link XferConnection#DEFAULT_ANSWER_TIMEOUT} unless told), so a server that
 * stopped answering ends the clean-up with an error naming it and the DELETE instead of hanging the run.
 */
final class RemoteDeletes {
    private RemoteDeletes() {
    }

    /** @return how many were there and are now gone (NOT_FOUND counts as gone, not as removed) */
    static int delete(InetSocketAddress server, String token, List<String> names) throws IOException {
        return delete(server, token, names, XferConnection.DEFAULT_ANSWER_TIMEOUT);
    }

    /** @return how many were there and are now gone (NOT_FOUND counts as gone, not as removed) */
    static int delete(InetSocketAddress server, String token, List<String> names, Duration answerTimeout) throws IOException {
        if (names.isEmpty()) {
            return 0;
        }
        int removed = 0;
        try (XferConnection c = XferConnection.open(server.getHostString(), server.getPort(), token, answerTimeout)) {
            for (String name : names) {
                try {
                    c.delete(name);
                    removed++;
                } catch (RemoteException e) {
                    if (e.status() != Status.NOT_FOUND) {
                        throw e;
                    }
                } catch (NoAnswerException e) {
                    throw e.waitingFor("the DELETE of the load's file " + name);
                }
            }
        }
        return removed;
    }
}
