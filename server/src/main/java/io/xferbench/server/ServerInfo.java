package io.xferbench.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.NetworkLinks;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.metrics.MachineDescription;
import io.xferbench.core.protocol.MethodDescription;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.loop.EventLoopTransport;
import io.xferbench.server.proxy.RelayDescriptions;
import io.xferbench.server.request.LoopMethodRefusal;
import io.xferbench.server.request.TlsRefusal;
import io.xferbench.server.thread.PlatformPollers;
import io.xferbench.server.thread.ResponseCork;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The INFO answer of a server ({@link ServerDescription}); its methods in every direction and its I/O models
 * (direction {@code io-model}), available or not.
 */
public final class ServerInfo {

    /**
     * The server's INFO environment: its machine, then how it serves.
     *
     * @param ioModel              the I/O model serving (the others are listed as io-model methods)
     * @param corkResponses        whether download answers are corked
     * @param virtualThreadPollers the virtual model only: the JDK's poller mode in effect; else not written
     */
    record ServerEnvironment(@JsonUnwrapped MachineDescription machine, String ioModel, boolean corkResponses,
                             @JsonInclude(JsonInclude.Include.NON_NULL) String virtualThreadPollers) {
    }

    private ServerInfo() {
    }

    /**
     * {@code local}: the server's address on the connection asking, whose link INFO describes; {@code dataDir}: the
     * verdicts of the data directory's file system, probed at start.
     */
    static ServerDescription describe(ServerConfig config, DataDirectoryVerdicts dataDir, InetAddress local) {
        List<MethodDescription> methods = new ArrayList<>();
        boolean onLoops = java.util.Arrays.stream(EventLoopTransport.values()).anyMatch(t -> config.ioModel().startsWith(t.model));
        for (SenderMethod m : DownloadMethods.all()) {
            // An event loop's own method, on this server's model: refused on a threaded one.
            String loopOnly = onLoops ? null : LoopMethodRefusal.onThreads(m, config.ioModel());
            // A TLS method: only on the threaded models, and only with a certificate.
            String tls = TlsRefusal.whyNot(m, !onLoops, config.ioModel(), config.tls() != null);
            String refused = loopOnly != null ? loopOnly : tls;
            MethodDescription e = entry("download", m.id(), m.summary(), refused == null ? dataDir.of(m) : Availability.unavailable(refused));
            methods.add(loopOnly != null ? e.onlyOn(loopModels()) : onLoops && tls != null ? e.onlyOn(threadModels()) : e);
        }
        for (ReceiverMethod m : UploadMethods.all()) {
            MethodDescription e = entry("upload", m.id(), m.summary(), m.availability());
            methods.add(m.maxLength() == Long.MAX_VALUE ? e : e.withLimit(m.maxLength(), m.limitReason()));
        }
        methods.addAll(RelayDescriptions.all());
        // The I/O models this server knows, and whether each could run here (the one serving is environment.ioModel).
        for (ServerModels.Model m : ServerModels.all()) {
            methods.add(entry("io-model", m.id(), m.summary(), m.availability().get()));
        }
        // Whether download answers are corked here: asked for, and set through Netty's option on the event loops or the
        // shim's setsockopt on the thread models.
        ServerEnvironment environment = new ServerEnvironment(EnvironmentInfo.describe(config.dataDir()), config.ioModel(),
                onLoops ? config.corkResponses() : ResponseCork.corks(config),
                config.ioModel().equals(ServerModels.VIRTUAL) ? PlatformPollers.inEffect() : null);
        return ServerDescription.server(environment, methods, NetworkLinks.of(local));
    }

    private static MethodDescription entry(String direction, String id, String summary, Availability availability) {
        return MethodDescription.of(direction, id, summary, availability.isAvailable(), availability.unavailableReason());
    }

    /**
     * Where a TLS method runs, as INFO says of it on an event-loop server: the threaded models, the pooled one as the
     * option is given ({@code virtual+pool:N}).
     */
    private static String threadModels() {
        return ServerModels.all().stream().map(ServerModels.Model::id)
                .filter(id -> java.util.Arrays.stream(EventLoopTransport.values()).noneMatch(t -> id.startsWith(t.model)))
                .map(id -> id.equals(ServerModels.POOL) ? id + ":N" : id)
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /** Where a loop method runs, as INFO says ({@code MethodDescription.otherModels}): the models on an event loop. */
    private static String loopModels() {
        return ServerModels.all().stream().map(ServerModels.Model::id)
                .filter(id -> java.util.Arrays.stream(EventLoopTransport.values()).anyMatch(t -> id.startsWith(t.model)))
                .collect(java.util.stream.Collectors.joining(", "));
    }
}
