package io.xferbench.core.read;

import java.io.IOException;

/**
 * An engine found only while setting up that it cannot run here (e.g. the kernel refused to pin its registered
 * buffers): its row is skipped with the message as the reason, as if {@link ReadEngine#unsupported} had said so.
 */
public final class ReadUnsupportedException extends IOException {
    public ReadUnsupportedException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
