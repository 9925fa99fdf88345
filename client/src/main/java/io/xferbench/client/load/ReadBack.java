package io.xferbench.client.load;

import java.util.Map;

/**
 * The files a run's uploads placed, read back after the run: a PUT's answer says nothing about the bytes stored.
 *
 * @param checked files read back (every name whose last request was a verified upload)
 * @param errors  failures by cause, e.g. {@code read-back: crc mismatch}
 */
record ReadBack(long checked, Map<String, Long> errors) {
    ReadBack {
        errors = Map.copyOf(errors);
    }

    boolean ok() {
        return errors.isEmpty();
    }

    long failed() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
