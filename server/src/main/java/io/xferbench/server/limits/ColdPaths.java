package io.xferbench.server.limits;

import io.netty.channel.unix.FileDescriptor;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.nativeio.Unlink;
import io.xferbench.server.fault.ServerFault;
import io.xferbench.server.http.HttpResponses;
import io.xferbench.server.request.ClientMessages;
import io.xferbench.server.request.FailureAnswer;
import io.xferbench.server.request.FailureAnswers;
import io.xferbench.server.request.FailureStatus;
import io.xferbench.server.request.Refused;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * Runs, once and on nothing, the paths a server first takes when it is out of file descriptors, so that their classes
 * are loaded while descriptors are free. Run from directories of classes (tests, an IDE), loading a class opens a
 * file: a class first needed with no descriptor left throws {@link NoClassDefFoundError}, and it was: a refused client's
 * answer, an HTTP request's 503 ({@link FailureStatus}: the connection closed unanswered instead), a native request's
 * BUSY ({@link Refused}: SERVER_ERROR and the connection closed instead), an upload's record
 * file failing to be created ({@link Unlink} of its temp name: the upload failed). From a jar, which stays open, they
 * load either way.
 */
public final class ColdPaths {
    private static final Path NOWHERE = Path.of("/");

    static {
        // The refusal at accept: what arrived (an invalid descriptor: EBADF, caught) and the answer in either protocol.
        ArrivedBytes.take(new FileDescriptor(Integer.MAX_VALUE), ByteBuffer.allocateDirect(1));
        for (String first : new String[] {"GET / HTTP/1.1\r\n", "HEAD / HTTP/1.1\r\n", ""}) {
            BusyAnswer.to(ByteBuffer.wrap(first.getBytes(StandardCharsets.US_ASCII)), "");
        }
        // A request on an open connection whose file cannot be opened (EMFILE): BUSY, or 503 over HTTP.
        IOException emfile = new IOException("Too many open files");
        Status busy = FailureStatus.of(emfile);
        ClientMessages.of(emfile, NOWHERE);
        HttpResponses.failure(busy, "", false, false);
        ResponseCodec.error(busy, "");
        // Its answer as every model finds it: each switch's labels (a refusal, an answer, an internal error) load when it
        // first runs.
        FailureAnswers failures = new FailureAnswers(NOWHERE);
        FileSystemException emfileOpen = new FileSystemException("x", null, "Too many open files");
        failures.of(emfileOpen, "");
        failures.of(new Refused(busy, ""), "");
        failures.ofHttp(emfileOpen, "");
        for (FailureAnswer a : new FailureAnswer[] {failures.of((Throwable) emfileOpen, ""), failures.of(new IllegalStateException(), "")}) {
            switch (a) {
                case FailureAnswer.Answered answered -> answered.status();
                case FailureAnswer.Internal internal -> internal.cause();
            }
        }
        // A connection reset while out of descriptors: an event loop's exceptionCaught looks for the server's own fault.
        ServerFault.of(emfile);
        // A temp file removed after a failed create or write (an upload's record file): an invalid descriptor, EBADF.
        try {
            Unlink.entry(-1, "x", "x");
        } catch (IOException | RuntimeException expected) {
            // Loaded is all that was asked.
        }
    }

    private ColdPaths() {
    }

    /** Loads the classes above; the first call does it, later ones nothing. */
    public static void load() {
        // The static initializer above.
    }
}
