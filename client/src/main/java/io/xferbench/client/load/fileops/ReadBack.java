package io.xferbench.client.load.fileops;

import java.util.Map;
import java.util.TreeMap;

/**
 * The files a run's uploads placed, read back after the run, and how each of its uploads was checked: a PUT's status
 * says nothing about the bytes stored, and only each file's last version can be read back.
 *
 * @param checked         files read back (every name whose last request was a verified upload)
 * @param errors          failures by cause, e.g. {@code read-back: crc mismatch}
 * @param files           distinct files the run's verified uploads wrote (some may have been deleted since)
 * @param puts            uploads answered as stored (warm-up and drain included)
 * @param putsStatusOnly  of those, the ones accepted on their status alone: the answer carried no CRC32C of the stored
 *                        bytes ({@code X-Xferbench-Crc32c}); the rest had it, equal to the body's. Only the last of each
 *                        file read back was checked further.
 */
public record ReadBack(long checked, Map<String, Long> errors, long files, long puts, long putsStatusOnly) {
    public ReadBack {
        errors = Map.copyOf(errors);
    }

    /** What a read-back found, before the run's uploads are known. */
    ReadBack(long checked, Map<String, Long> errors) {
        this(checked, errors, 0, 0, 0);
    }

    /** How the run's verified uploads were checked when answered. */
    record Uploads(long files, long puts, long statusOnly) {
    }

    ReadBack with(Uploads u) {
        return new ReadBack(checked, errors, u.files(), u.puts(), u.statusOnly());
    }

    /** Both windows' read-backs and uploads, summed. */
    public ReadBack plus(ReadBack other) {
        Map<String, Long> failed = new TreeMap<>(errors);
        other.errors.forEach((k, v) -> failed.merge(k, v, Long::sum));
        return new ReadBack(checked + other.checked, failed, files + other.files, puts + other.puts,
                putsStatusOnly + other.putsStatusOnly);
    }

    public boolean ok() {
        return errors.isEmpty();
    }

    long failed() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * What was checked, exactly, when some uploads were accepted on their status, e.g. {@code 11950 of 12000 PUTs by
     * status only; 50 of 50 files read back (their last PUT)}; null when every upload's answer carried its CRC32C.
     */
    public String statusOnlyNote() {
        if (putsStatusOnly == 0) {
            return null;
        }
        return putsStatusOnly + " of " + puts + " PUTs by status only; " + checked + " of " + files
                + " files read back (their last PUT)";
    }
}
