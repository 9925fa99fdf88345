package io.xferbench.core.method;

import java.io.IOException;

/** A method cannot move this particular range (e.g. an API limit); raised before any byte is sent. */
public final class UnsupportedTransferException extends IOException {
    public UnsupportedTransferException(String message) {
        super(message);
    }
}
