package io.xferbench.twin;

import java.io.IOException;
import java.util.Map;

/** One side of an upload pair, Java ({@link JavaReceiverProcess}) or C ({@link CReceiver}): ready for one connection, then its result. */
interface ReceiverSide {

    /** Creates the target and gets ready to accept one connection; returns the port to send to. */
    int arm() throws IOException, InterruptedException;

    /** The result line's fields of the connection {@link #arm()} prepared for, once its last write completed. */
    Map<String, String> result() throws IOException, InterruptedException;
}
