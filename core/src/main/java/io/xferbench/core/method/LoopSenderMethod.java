package io.xferbench.core.method;

import java.io.IOException;

/**
 * A {@link SenderMethod} that sends from a Netty event loop ({@link LoopSender}): the event-loop models run it on their
 * loop; a model that serves on threads refuses it UNAVAILABLE, and no blocking-socket harness (JMH, the C twins) runs it.
 */
public final class LoopSenderMethod extends DefinedMethod implements SenderMethod {
    /** Why a loop method is in no JMH benchmark and has no C twin: both drive a blocking socket from a thread. */
    public static final String LOOP_ONLY = "sends from a Netty event loop of the server's netty-* models only";

    private final LoopSender sender;

    /** @param definingSyscalls the syscalls (perf names) that make the method what it is */
    public LoopSenderMethod(String id, String summary, LoopSender sender, String... definingSyscalls) {
        super(id, summary, () -> Availability.AVAILABLE, MethodTraits.noTwin(LOOP_ONLY).notInJmh(LOOP_ONLY).definedBy(definingSyscalls));
        this.sender = sender;
    }

    @Override
    public LoopSender loopSender() {
        return sender;
    }

    @Override
    public FileSender newSender(TransferOptions options) throws IOException {
        throw new IOException(id() + " " + LOOP_ONLY + ", not on a blocking socket");
    }
}
