package io.xferbench.twin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The one sender of the upload pairs, the same for Java and C receivers: {@code xfer_twin sendfile} of the warm file
 * (connect, 8-byte length, sendfile64 loop, close), so the receivers differ and nothing else does.
 */
final class SendfileFeeder {
    private final String xferTwin;
    private final Path file;

    SendfileFeeder(String xferTwin, Path file) {
        this.xferTwin = xferTwin;
        this.file = file;
    }

    /** Sends bytes [0, length) of the file to 127.0.0.1:port and waits until the feeder closed its socket. */
    void send(int port, long length) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(xferTwin, "sendfile", file.toString(), "127.0.0.1", Integer.toString(port),
                "64K", Long.toString(length))).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            line = out.readLine();
        }
        int rc = p.waitFor();
        if (rc != 0 || line == null || !line.startsWith("xfer_twin mode=sendfile")) {
            throw new IOException("sendfile feeder failed (exit " + rc + "): " + line);
        }
    }
}
