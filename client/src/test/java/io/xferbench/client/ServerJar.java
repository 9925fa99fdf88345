package io.xferbench.client;

import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.file.Files;
import java.nio.file.Path;

/** The server jar the client's end-to-end tests start, as the reactor builds it beside this module. */
public final class ServerJar {
    public static final Path PATH = Path.of("..", "server", "target", "xferbench-server.jar");

    private ServerJar() {
    }

    /** Skips the calling test, with the reason, under {@code what} when the jar is not built. */
    public static void assumeBuilt(String what) {
        MethodAssumptions.assumeAvailable(what, Files.isRegularFile(PATH) ? Availability.AVAILABLE
                : Availability.unavailable("the server jar is not built (" + PATH + ")"));
    }
}
