package io.xferbench.server.loop;

import io.xferbench.server.measure.Measurements;

/**
 * The request an event-loop connection serves now: how a failure's log names it, whether an HTTP error answer to it
 * has a body, whether part of its answer may be out, and whether other connections' measurement windows are told of
 * its transfer. Loop only.
 */
final class EventLoopServing {
    private final Measurements measurements;
    private final int id;
    private String peer = "unknown";
    /** A native Request or an HttpRequest; null between requests. */
    private Object current;
    /** The request is an HTTP HEAD: an error answer to it has no body. */
    private boolean head;
    /** Part of the request's answer may be out (a download's head): no error answer may follow it. */
    private boolean answerStarted;
    /** The request is a transfer other measurement windows are told of. */
    private boolean transferring;

    EventLoopServing(Measurements measurements, int id) {
        this.measurements = measurements;
        this.id = id;
    }

    /** The client's address, once the connection is active. */
    void peer(String address) {
        peer = address;
    }

    String peer() {
        return peer;
    }

    /** A request is being served from now on (null: none). */
    void serving(Object request, boolean headRequest) {
        current = request;
        head = headRequest;
        answerStarted = false;
    }

    Object current() {
        return current;
    }

    boolean head() {
        return head;
    }

    void answerStarts() {
        answerStarted = true;
    }

    /** The file pool refused before writing anything of the answer it had been handed: it can still be answered. */
    void answerWithdrawn() {
        answerStarted = false;
    }

    boolean answerStarted() {
        return answerStarted;
    }

    /** The connection's transfer starts: measurement windows of other connections hear of it. */
    void transferStarts() {
        transferring = true;
        measurements.started(id, peer);
    }

    void transferDone() {
        if (transferring) {
            transferring = false;
            measurements.finished(id);
        }
    }
}
