package io.xferbench.twin;

import io.xferbench.nativeio.JvmFlags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command lines for the harness's child JVMs (drain, Java sender and receiver): this JVM's java, the flags xferbench
 * needs, this class path; where util-linux's setpriv exists, with TERM as the parent-death signal, so a SIGKILLed
 * harness leaves no drain waiting in accept (the C receiver sets its own, xfer_uring_twin.c).
 */
final class ChildJvm {
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    private final List<String> prefix;

    ChildJvm() {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETPRIV)) {
            command.addAll(List.of(SETPRIV.toString(), "--pdeathsig", "TERM", "--"));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.required());
        command.addAll(List.of("-cp", System.getProperty("java.class.path")));
        this.prefix = List.copyOf(command);
    }

    List<String> command(Class<?> mainClass, String... args) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(mainClass.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }
}
