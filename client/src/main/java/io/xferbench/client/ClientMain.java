package io.xferbench.client;

import io.xferbench.client.command.CompareCommand;
import io.xferbench.client.command.DownloadCommand;
import io.xferbench.client.command.InfoCommand;
import io.xferbench.client.command.MergeCommand;
import io.xferbench.client.command.ProxyCommand;
import io.xferbench.client.command.RenderCommand;
import io.xferbench.client.command.UploadCommand;
import io.xferbench.client.load.LoadCommand;
import io.xferbench.client.load.bench.LoadBenchCommand;
import io.xferbench.client.netpath.VethBenchCommand;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.netty.NettyLeakDetection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code java -jar xferbench-client.jar download|upload|proxy|render|compare|merge|info|load|load-bench|veth ...} */
@Command(name = "xferbench-client", mixinStandardHelpOptions = true, version = "xferbench-client 0.1.0",
        description = "Drives transfers against an xferbench server and reports throughput, latency, CPU and syscalls.",
        subcommands = {DownloadCommand.class, UploadCommand.class, ProxyCommand.class, RenderCommand.class, CompareCommand.class, MergeCommand.class, InfoCommand.class, LoadCommand.class, LoadBenchCommand.class,
                VethBenchCommand.class})
public final class ClientMain implements Runnable {
    @Spec
    CommandSpec spec;

    /** No command given: a usage error, like any other, with the commands to choose from. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is needed: " + String.join(", ", spec.subcommands().keySet()));
    }

    public static void main(String[] args) {
        NettyLeakDetection.offUnlessAsked();
        // Later occurrences of an option win, so scripts can set defaults that users override.
        System.exit(Cli.run(new ClientMain(), args));
    }
}
