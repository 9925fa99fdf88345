package io.xferbench.server.request;

import io.xferbench.core.method.SenderMethod;

/** What an HTTP request is to be answered with, as {@link RequestService} decided it for every I/O model. */
public sealed interface HttpPlan {
    /**
     * A GET (the file's head and body by {@code method}) or a HEAD (its head only).
     *
     * @param name the file, relative to the data directory
     */
    record Get(HttpRequest request, String name, SenderMethod method, boolean head) implements HttpPlan {
    }

    /** An error answer; {@code extraHeaders} end in CRLF each. The connection goes on if the request keeps it alive. */
    record Refusal(int status, String message, String extraHeaders) implements HttpPlan {
    }
}
