package io.xferbench.twin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The C side of an upload pair: one {@code xfer_uring_twin MODE TARGET 127.0.0.1 0 bufsize length depth} process per
 * receive (its ring is set up before it accepts, as the JVM's exists before a transfer). The process dies with its
 * parent (PR_SET_PDEATHSIG), so a killed harness leaves none waiting in accept.
 */
final class CReceiver implements ReceiverSide {
    private final String program;
    private final String mode;
    private final Path target;
    private final int buffer;
    private final long length;
    private final int uringDepth;
    private Process process;
    private BufferedReader out;

    CReceiver(String program, String mode, Path target, int buffer, long length, int uringDepth) {
        this.program = program;
        this.mode = mode;
        this.target = target;
        this.buffer = buffer;
        this.length = length;
        this.uringDepth = uringDepth;
    }

    @Override
    public int arm() throws IOException, InterruptedException {
        process = new ProcessBuilder(List.of(program, mode, target.toString(), "127.0.0.1", "0", Integer.toString(buffer),
                Long.toString(length), Integer.toString(uringDepth))).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        String line = out.readLine();
        if (line == null || !line.startsWith("xfer_uring_twin accepting port=")) {
            throw failed(line);
        }
        return Integer.parseInt(ResultFields.of(line).get("port"));
    }

    @Override
    public Map<String, String> result() throws IOException, InterruptedException {
        String line = out.readLine();
        if (line == null || !line.startsWith("xfer_twin mode=")) {
            throw failed(line);
        }
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw failed(line);
        }
        out.close();
        return ResultFields.of(line);
    }

    private IOException failed(String line) throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
        return new IOException("C receiver " + mode + " failed (exit " + process.exitValue() + "): " + line);
    }
}
