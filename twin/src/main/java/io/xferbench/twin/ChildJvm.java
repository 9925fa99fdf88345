package io.xferbench.twin;

import io.xferbench.nativeio.JvmFlags;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command lines for the harness's child JVMs (drain, Java sender): this JVM's java, the flags xferbench needs, this class path. */
final class ChildJvm {
    private final List<String> prefix;

    ChildJvm() {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
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
