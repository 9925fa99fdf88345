package io.xferbench.client.load.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * How a load run went, so a number can be reproduced: the {@code settings} of its JSON and the second line of its table
 * header. Each command writes its own.
 */
public sealed interface LoadSettings {

    /**
     * {@code client load} against one server.
     *
     * @param requests a fixed count of requests, else not written
     * @param duration the window, else not written
     */
    record Load(String fileSize, int threads, @JsonInclude(JsonInclude.Include.NON_NULL) Long requests,
                @JsonInclude(JsonInclude.Include.NON_NULL) String duration, String warmup, String loop) implements LoadSettings {
    }

    /**
     * {@code client load-bench}: the servers it starts and how every row runs.
     *
     * @param requests        a fixed count of requests (and wrk's window), else not written
     * @param duration        the window, else not written
     * @param ioUringRingSize when given, else not written
     * @param repeatWarmup    with more than one round, else not written
     * @param network         the client's end of the path the load took (loopback, or veth with its MTU, qdisc, offloads)
     * @param serverLauncher  when the servers run through one, else not written
     */
    record Bench(String fileSize, String xferbenchMethod, List<String> xferbenchIoModels, int threads,
                 @JsonInclude(JsonInclude.Include.NON_NULL) String requests, @JsonInclude(JsonInclude.Include.NON_NULL) String duration,
                 List<String> operations, String uploadMethod, String warmup, String jitSettle,
                 @JsonInclude(JsonInclude.Include.NON_NULL) Integer ioUringRingSize, boolean corkResponses, int repeat,
                 @JsonInclude(JsonInclude.Include.NON_NULL) String repeatWarmup, String loop, String cache, String serverAddress,
                 String network, @JsonInclude(JsonInclude.Include.NON_NULL) String serverLauncher) implements LoadSettings {
    }
}
