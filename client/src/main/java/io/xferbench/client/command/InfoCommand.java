package io.xferbench.client.command;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "info", mixinStandardHelpOptions = true, description = "Print the server's environment and methods as JSON.")
public final class InfoCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Override
    public Integer call() throws Exception {
        try (XferConnection c = server.open()) {
            System.out.println(new String(c.control(Op.INFO), StandardCharsets.UTF_8));
        }
        return 0;
    }
}
