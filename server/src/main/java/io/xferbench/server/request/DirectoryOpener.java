package io.xferbench.server.request;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import java.io.IOException;

/** The server's {@link FileOpener}: the data directory's opens, passed through. */
final class DirectoryOpener implements FileOpener {
    private final DataDirectory data;

    DirectoryOpener(DataDirectory data) {
        this.data = data;
    }

    @Override
    public OpenedFile openExisting(String name) throws IOException {
        return data.openExisting(name);
    }

    @Override
    public OpenedFile openExistingIfRecorded(String name) throws IOException {
        return data.openExistingIfRecorded(name);
    }

    @Override
    public OpenedFile openGenerated(long size) throws IOException {
        return data.openGenerated(size);
    }

    @Override
    public OpenedFile openGeneratedIfRecorded(long size) throws IOException {
        return data.openGeneratedIfRecorded(size);
    }

    @Override
    public OpenedFile adoptIfRemembered(String entry, int fd, long size) throws IOException {
        return data.adoptIfRemembered(entry, fd, size);
    }
}
