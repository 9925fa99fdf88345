package io.xferbench.server.request;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.protocol.Prepared;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.function.Supplier;

/**
 * The blocking part of a plan, through the data directory: opening (generating, hashing) a download's file, preparing
 * its cache state, STAT, DELETE, INFO. A thread model runs it on the connection's thread, an event loop on its file
 * pool; a failure is thrown, and {@link FailureAnswers} says what the client hears.
 */
public final class FileWork {
    private final DataDirectory data;
    private final FileOpener opener;
    private final RequestService service;

    /** @param opener the opens of {@code data}'s files ({@link FileOpener#of}, or a test's around it) */
    public FileWork(DataDirectory data, FileOpener opener, RequestService service) {
        this.data = data;
        this.opener = opener;
        this.service = service;
    }

    public DataDirectory data() {
        return data;
    }

    /**
     * The file a DOWNLOAD or PREPARE names (the generated one created on demand), opened, with the checksum of the
     * opened bytes.
     *
     * @throws Refused a generated file over the limit; a file that could not be created or hashed (a full disk, say)
     */
    public OpenedFile open(Request request) throws IOException {
        refuseTooLarge(request);
        try {
            return request.name().isEmpty() ? opener.openGenerated(request.size()) : opener.openExisting(request.name());
        } catch (NoSuchFileException | AccessDeniedException e) {
            throw e;
        } catch (IOException e) {
            // The request is answered, the connection lives.
            throw new Refused(FailureStatus.of(e), "cannot prepare " + (request.name().isEmpty()
                    ? DataDirectory.generatedName(request.size()) : request.name()) + ": " + ClientMessages.of(e, data.root()));
        }
    }

    /** The file a DOWNLOAD names, if it is there with its checksum record; null if it must be hashed or generated. */
    public OpenedFile openIfRecorded(Request request) throws IOException {
        refuseTooLarge(request);
        return request.name().isEmpty() ? opener.openGeneratedIfRecorded(request.size()) : opener.openExistingIfRecorded(request.name());
    }

    public void refuseTooLarge(Request request) throws Refused {
        Refused tooLarge = service.generatedTooLarge(request);
        if (tooLarge != null) {
            throw tooLarge;
        }
    }

    /** PREPARE: the file opened and put in the asked cache state; the answer's frame with the residency found and left. */
    public ByteBuffer prepare(Request request) throws IOException {
        long start = System.nanoTime();
        int found;
        int left;
        try (OpenedFile file = open(request)) {
            found = CacheControl.residency(file.path());
            try {
                left = CacheControl.prepare(file.path(), request.flags());
            } catch (IOException e) {
                throw new Refused(Status.UNAVAILABLE, "cannot put " + file.path().getFileName() + " in the asked cache state: "
                        + ClientMessages.of(e, data.root()));
            }
        }
        return ResponseCodec.prepared(new Prepared(found, left, System.nanoTime() - start));
    }

    /** STAT, DELETE or INFO ({@code info} describes the server as the connection sees it): the answer's frame. */
    public ByteBuffer answer(Request request, Supplier<ServerDescription> info) throws IOException {
        return switch (request.op()) {
            case STAT -> ResponseCodec.stat(data.stat(request.name()));
            case DELETE -> {
                data.delete(request.name());
                yield ResponseCodec.deleted();
            }
            case INFO -> ResponseCodec.json(ProtocolJson.write(info.get()));
            default -> throw new IllegalArgumentException(request.op() + " is not file work");
        };
    }
}
