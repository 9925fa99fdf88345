package io.xferbench.core.method;

/** What every method is, whichever way it moves bytes: the descriptor the registry and the tools read. */
public interface TransferMethod {

    /** Stable id used by the client, the server, JMH params and result files, e.g. {@code transfer-to}. */
    String id();

    /** One line on the syscall path it promises, e.g. "FileChannel.transferTo loop: sendfile(2)". */
    String summary();

    Direction direction();

    /** Checked once per process; methods that cannot run here say why. */
    Availability availability();

    MethodTraits traits();

    /**
     * Transfer buffer memory one instance built for {@code options} holds, which the server reserves from its
     * {@code --max-buffer-memory} while the instance lives: the buffer size, unless the method keeps several.
     */
    default long bufferBytes(TransferOptions options) {
        return options.bufferSize();
    }
}
