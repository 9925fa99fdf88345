package io.xferbench.server;

import io.xferbench.server.http.HttpResponses;
import io.xferbench.server.request.FailureStatus;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.protocol.Status;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.NativeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

/**
 * Out of descriptors is BUSY (HTTP 503 with Retry-After), not SERVER_ERROR (500): a GET on a connection already open
 * while the server had no descriptor left was answered 500 "EMFILE", though the same GET succeeds once connections go,
 * as a client refused at accept is told BUSY.
 */
class FailureStatusTest {
    @Test
    void outOfDescriptorsIsBusyHoweverItSurfaces() {
        assertThat(FailureStatus.of(new NativeException("open(f.bin)", Errno.EMFILE))).isEqualTo(Status.BUSY);
        assertThat(FailureStatus.of(new IOException("cannot open", new NativeException("openat(f.bin)", Errno.ENFILE))))
                .isEqualTo(Status.BUSY);
        assertThat(FailureStatus.of(new FileSystemException("/data/f.bin: Too many open files"))).isEqualTo(Status.BUSY);
    }

    @Test
    void otherFailuresKeepTheirStatus() {
        assertThat(FailureStatus.of(new NativeException("write", Errno.ENOSPC))).isEqualTo(Status.NO_SPACE);
        assertThat(FailureStatus.of(new NativeException("read", Errno.EIO))).isEqualTo(Status.SERVER_ERROR);
        assertThat(FailureStatus.of(new IOException("Input/output error"))).isEqualTo(Status.SERVER_ERROR);
    }

    @Test
    void overHttpBusyIs503WithRetryAfterAndTheRest500() {
        String busy = StandardCharsets.ISO_8859_1.decode(HttpResponses.failure(Status.BUSY, "/f.bin: EMFILE", true, false)).toString();
        assertThat(busy).startsWith("HTTP/1.1 503 ").contains("\r\nRetry-After: 1\r\n").endsWith("/f.bin: EMFILE\n");
        String other = StandardCharsets.ISO_8859_1.decode(HttpResponses.failure(Status.SERVER_ERROR, "/f.bin: EIO", true, false)).toString();
        assertThat(other).startsWith("HTTP/1.1 500 ").doesNotContain("Retry-After");
    }
}
