package io.xferbench.client.compare;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.xferbench.core.Sizes;
import java.util.List;

/**
 * One row of a load report ({@code xferbench-load/1}) as compare reads it back: its identity and the figures compare
 * puts side by side. The report writes many more fields; they are left unread.
 *
 * @param method                    the download method asked of the server, or null when none was
 * @param methodRun                 the method the answers said ran, or null when unknown
 * @param skipped                   why the row did not run, or null
 * @param noAnswer                  set when every request of its single window timed out (its zeros are not a result)
 * @param requestsPerSec            the median window's requests/s
 * @param requestsPerSecByRound     every window's requests/s in round order ({@code load-bench --repeat}), else null
 * @param latencyP99Millis          the median window's p99 latency
 * @param serverCpuMicrosPerRequest the median window's server CPU per request
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record LoadRow(String server, String model, String client, String protocol, String operation, Long fileSizeBytes, Integer concurrency,
               String method, String methodRun, String skipped, String noAnswer, Double requestsPerSec,
               List<Double> requestsPerSecByRound, Double latencyP99Millis, Double serverCpuMicrosPerRequest, Boolean verified) {

    /** What a row is, in both runs, but for the method asked ({@link #sameMethod}): the same bench row whatever it measured. */
    List<Object> key() {
        return java.util.Arrays.asList(server, model, client, protocol, operation, fileSizeBytes, concurrency);
    }

    /** The same method asked; a skipped row's JSON does not say which it would have asked, so it matches any. */
    boolean sameMethod(LoadRow other) {
        return skipped != null || other.skipped != null || java.util.Objects.equals(method, other.method);
    }

    /** The field a row cannot be matched without, or null when it has them all. */
    String missing() {
        String[] names = {"server", "model", "client", "protocol", "operation", "fileSizeBytes", "concurrency"};
        List<Object> values = key();
        for (int i = 0; i < names.length; i++) {
            if (values.get(i) == null) {
                return names[i];
            }
        }
        return null;
    }

    /** {@code nginx sendfile (xferbench, http, download, 50KiB, 500 conns)}: how compare names it. */
    String name() {
        return server + " " + model + " (" + client + ", " + protocol + ", " + operation + ", " + Sizes.format(fileSizeBytes) + ", "
                + concurrency + " conns)";
    }

    /** Its figures are a result: it ran, something answered, and it has a rate. */
    boolean measured() {
        return skipped == null && noAnswer == null && !rounds().isEmpty();
    }

    /** requests/s of each window; a single window's when the row has no rounds. */
    List<Double> rounds() {
        if (requestsPerSecByRound != null && !requestsPerSecByRound.isEmpty()) {
            return requestsPerSecByRound;
        }
        return requestsPerSec == null ? List.of() : List.of(requestsPerSec);
    }
}
