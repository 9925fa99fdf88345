package io.xferbench.server.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ClientMessagesTest {
    private static final Path ROOT = Path.of("/srv/data");

    @Test
    void pathsInsideTheDataDirectoryAreToldRelativeToIt() {
        assertThat(ClientMessages.of(new FileSystemException("/srv/data/base/x", null, "Not a directory"), ROOT))
                .isEqualTo("base/x: Not a directory");
        assertThat(ClientMessages.of(new FileSystemException("/srv/data/a", "/srv/data/b", "Invalid cross-device link"), ROOT))
                .isEqualTo("a -> b: Invalid cross-device link");
        assertThat(ClientMessages.relative("cannot prepare base/x: /srv/data/base/x: Not a directory", ROOT))
                .isEqualTo("cannot prepare base/x: base/x: Not a directory");
        assertThat(ClientMessages.relative("/srv/data: moved", ROOT)).isEqualTo(".: moved");
        assertThat(ClientMessages.relative("in '/srv/data/' and (/srv/data)", ROOT)).isEqualTo("in '.' and (.)");
    }

    @Test
    void onlyWholePathsAreTouched() {
        assertThat(ClientMessages.relative("/srv/data2/x: gone", ROOT)).isEqualTo("/srv/data2/x: gone");
        assertThat(ClientMessages.relative("a/srv/data/b: a client's own name", ROOT)).isEqualTo("a/srv/data/b: a client's own name");
        assertThat(ClientMessages.relative("nothing here", ROOT)).isEqualTo("nothing here");
        assertThat(ClientMessages.relative(null, ROOT)).isNull();
    }

    @Test
    void aReasonTheJdkLeftOutIsSaid() {
        assertThat(ClientMessages.of(new NoSuchFileException("/srv/data/missing"), ROOT)).isEqualTo("missing: no such file or directory");
        assertThat(ClientMessages.of(new AccessDeniedException("/srv/data/locked"), ROOT)).isEqualTo("locked: permission denied");
        assertThat(ClientMessages.of(new NoSuchFileException("x", null, "no such file in the data directory"), ROOT))
                .isEqualTo("x: no such file in the data directory");
    }

    /** HTTP names the file as the client asked and adds only the reason: never "null" (HttpForbiddenReasonTest). */
    @Test
    void aReasonAloneIsSaidWhenTheJdkLeftItOut() {
        assertThat(ClientMessages.reason(new AccessDeniedException("/srv/data/locked/f"))).isEqualTo("permission denied");
        assertThat(ClientMessages.reason(new NoSuchFileException("/srv/data/missing"))).isEqualTo("no such file or directory");
        assertThat(ClientMessages.reason(new AccessDeniedException("x", null, "not a regular file"))).isEqualTo("not a regular file");
        assertThat(ClientMessages.reason(new FileSystemException("x"))).isNull();
    }
}
