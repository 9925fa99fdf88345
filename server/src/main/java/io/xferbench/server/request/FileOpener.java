package io.xferbench.server.request;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import java.io.IOException;

/**
 * The opens of a download's (or PREPARE's, or HEAD's) file, as {@link DataDirectory} makes them, on every model: the
 * quick ones (a checksum record remembered, or a descriptor the loop's ring opened) and the full ones (hashing or
 * generating). One of the server's seams ({@code model.Seams}): a test may wrap it to fail as the file work would;
 * the server uses {@link #of}.
 */
public interface FileOpener {
    /** The data directory's own opens. */
    static FileOpener of(DataDirectory data) {
        return new DirectoryOpener(data);
    }

    /** {@link DataDirectory#openExisting}. */
    OpenedFile openExisting(String name) throws IOException;

    /** {@link DataDirectory#openExistingIfRecorded}. */
    OpenedFile openExistingIfRecorded(String name) throws IOException;

    /** {@link DataDirectory#openGenerated}. */
    OpenedFile openGenerated(long size) throws IOException;

    /** {@link DataDirectory#openGeneratedIfRecorded}. */
    OpenedFile openGeneratedIfRecorded(long size) throws IOException;

    /** {@link DataDirectory#adoptIfRemembered}: takes over {@code fd} in every case. */
    OpenedFile adoptIfRemembered(String entry, int fd, long size) throws IOException;
}
