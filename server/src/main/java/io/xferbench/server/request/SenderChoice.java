package io.xferbench.server.request;

import io.xferbench.core.method.SenderMethod;

/**
 * The sender a download is answered by, once {@link RequestService} has looked its method up and checked it. One of
 * the server's seams ({@code model.Seams}): a test may wrap the method (its senders' checks, their writes) to fail as
 * a sender would; the server uses {@link #AS_LOOKED_UP}.
 */
@FunctionalInterface
public interface SenderChoice {
    SenderChoice AS_LOOKED_UP = (method, name) -> method;

    /** @param name the file the download names ("" for a generated one) */
    SenderMethod sender(SenderMethod method, String name);
}
