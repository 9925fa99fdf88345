package io.xferbench.server.request;

import io.xferbench.core.method.SenderMethod;

/** Why a model that serves on threads refuses an event loop's own method (answered UNAVAILABLE), never sending another way. */
public final class LoopMethodRefusal {
    private LoopMethodRefusal() {
    }

    /** Null when {@code method} runs on a thread, else the refusal's text for a server of {@code model}. */
    public static String onThreads(SenderMethod method, String model) {
        if (method.loopSender() == null) {
            return null;
        }
        return method.id() + ": sends from a Netty event loop, and this server's --io-model " + model
                + " serves on threads (ask a netty-* model, or a blocking method such as transfer-to)";
    }
}
