package io.xferbench.core.method;

import java.io.IOException;

/** A way to move a file to a socket: its id on the command line, and a factory of per-connection senders. */
public interface SenderMethod {

    /** Stable id used by the client, the server, JMH params and result files, e.g. {@code transfer-to}. */
    String id();

    /** One line on the syscall path, e.g. "FileChannel.transferTo loop: sendfile(2)". */
    String summary();

    /** Checked once per process; methods that cannot run here say why. */
    Availability availability();

    FileSender newSender(TransferOptions options) throws IOException;
}
