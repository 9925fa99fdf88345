package io.xferbench.twin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The C side of the pairs: {@code native/c/xfer_twin} for the plain-syscall modes, {@code xfer_uring_twin} (liburing)
 * for the io_uring ones, run once per send with the same file, buffer size and io_uring depth as the Java side.
 */
final class CTwin {
    private final String plain;
    private final String uring;
    private final int buffer;
    private final int uringDepth;
    private final Path file;

    /** @param uring xfer_uring_twin, or null when it could not be built */
    CTwin(String plain, String uring, int buffer, int uringDepth, Path file) {
        this.plain = plain;
        this.uring = uring;
        this.buffer = buffer;
        this.uringDepth = uringDepth;
        this.file = file;
    }

    boolean built(String mode) {
        return program(mode) != null;
    }

    private String program(String mode) {
        return TwinModes.isUring(mode) ? uring : plain;
    }

    /** Sends bytes [0, length) of the file to the drain once; the fields of the twin's result line. */
    Map<String, String> send(String mode, long length, int port) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(program(mode), mode, file.toString(), "127.0.0.1", Integer.toString(port),
                Integer.toString(buffer), Long.toString(length)));
        if (TwinModes.isUring(mode)) {
            cmd.add(Integer.toString(uringDepth));
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            line = out.readLine();
        }
        int rc = p.waitFor();
        if (rc != 0 || line == null || !line.startsWith("xfer_twin mode=")) {
            throw new IOException("C twin " + mode + " failed (exit " + rc + "): " + line);
        }
        return ResultFields.of(line);
    }
}
