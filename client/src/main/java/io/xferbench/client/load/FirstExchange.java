package io.xferbench.client.load;

import io.xferbench.core.net.NoAnswerException;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import java.io.IOException;
import java.time.Duration;

/**
 * Before a native load's rows, one exchange with the server, bounded by the answer timeout: the generated file's
 * download where the rows read it (it exists once a download asked for it, and generating it is not the rows' to pay
 * for, nor their requests' deadlines'), an INFO otherwise. A server that accepts and never answers fails the command
 * here, in one line naming it and the exchange, instead of every row timing out (and a minute's wait for its
 * measurement window first). A refusal is not an error here: the rows' requests are refused too, and say why.
 */
final class FirstExchange {
    private FirstExchange() {
    }

    /** @param generated the generated file's download, or null when the rows do not read it */
    static void run(String host, int port, String token, Duration answerTimeout, Request generated) throws IOException {
        try (XferConnection c = XferConnection.open(host, port, token, answerTimeout)) {
            if (generated != null) {
                c.download(generated);
            } else {
                c.control(Op.INFO);
            }
        } catch (RemoteException refused) {
            // Said again, per request, by the rows.
        } catch (NoAnswerException silent) {
            throw silent.waitingFor(generated != null ? "the generated file's download before the rows" : "INFO before the rows");
        }
    }
}
