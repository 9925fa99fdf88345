package io.xferbench.server.request;

import java.io.IOException;

/** An upload's received bytes are not the declared ones (answered VERIFY_FAILED). */
public final class VerifyFailed extends IOException {
    public VerifyFailed(String message) {
        super(message);
    }
}
