package io.xferbench.core.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One method in an INFO answer.
 *
 * @param direction         {@code download} (file → socket), {@code upload} (socket → file) or {@code proxy}
 *                          (socket → socket relay of {@code xferbench-server --proxy-to})
 * @param available         whether it can run on that machine; if not, {@code unavailableReason} says why
 * @param maxLength         upload methods with a length limit: the largest body they take, else absent
 * @param limitReason       why there is such a limit, else absent
 * @param otherModels       a method that runs only on other I/O models than the answering server's (an event loop's
 *                          own way of sending, asked of a threaded server): the I/O models it runs on, else absent. It is
 *                          unavailable here by the server's design, not for want of a capability, so {@code all} leaves
 *                          it out
 */
public record MethodDescription(String direction, String id, String summary, boolean available, String unavailableReason,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Long maxLength,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String limitReason,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String otherModels) {

    public static MethodDescription of(String direction, String id, String summary, boolean available, String unavailableReason) {
        return new MethodDescription(direction, id, summary, available, unavailableReason, null, null, null);
    }

    public MethodDescription withLimit(long max, String reason) {
        return new MethodDescription(direction, id, summary, available, unavailableReason, max, reason, otherModels);
    }

    /** The same, marked as running only on {@code models}. */
    public MethodDescription onlyOn(String models) {
        return new MethodDescription(direction, id, summary, available, unavailableReason, maxLength, limitReason, models);
    }
}
