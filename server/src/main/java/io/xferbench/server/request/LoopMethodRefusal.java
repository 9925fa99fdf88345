package io.xferbench.server;

import io.xferbench.core.method.SenderMethod;
import io.xferbench.server.loop.EventLoopTransport;

/** Why a model that serves on threads refuses an event loop's own method (answered UNAVAILABLE), never sending another way. */
final class LoopMethodRefusal {
    /** Where a loop method runs, as INFO says ({@code MethodDescription.otherModels}): the models on an event loop. */
    static String models() {
        return ServerModels.all().stream().map(ServerModels.Model::id)
                .filter(id -> java.util.Arrays.stream(EventLoopTransport.values()).anyMatch(t -> id.startsWith(t.model)))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private LoopMethodRefusal() {
    }

    /** Null when {@code method} runs on a thread, else the refusal's text for a server of {@code model}. */
    static String onThreads(SenderMethod method, String model) {
        if (method.loopSender() == null) {
            return null;
        }
        return method.id() + ": sends from a Netty event loop, and this server's --io-model " + model
                + " serves on threads (ask a netty-* model, or a blocking method such as transfer-to)";
    }
}
