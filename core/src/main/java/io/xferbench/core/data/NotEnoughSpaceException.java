package io.xferbench.core.data;

import java.io.IOException;

/** What was to be written does not fit in the usable space; refused before any byte was written ({@link FreeSpace}). */
public final class NotEnoughSpaceException extends IOException {
    public NotEnoughSpaceException(String message) {
        super(message);
    }
}
