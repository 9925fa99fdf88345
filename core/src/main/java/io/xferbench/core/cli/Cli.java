package io.xferbench.core.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * How every xferbench program runs its command line: a usage error is one line on stderr and exit 2 (checked before
 * any work starts, by the typed converters in {@link Converters}); a server that cannot be reached or an I/O failure
 * is one line and exit 1; a command returns 1 itself when a transfer failed or was not verified. Never a stack
 * trace, unless {@code XFERBENCH_DEBUG=1} asks for one.
 */
public final class Cli {
    /** Exit status of a bad command line. */
    public static final int USAGE = 2;
    /** Exit status of a run that failed: unreachable server, I/O error, failed or unverified transfer. */
    public static final int FAILED = 1;

    private Cli() {
    }

    /** Builds the command line of {@code command} with the house rules; later occurrences of an option win. */
    public static CommandLine commandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(Cli::usageError);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> runError(e, commandLine));
        return cl;
    }

    /** Runs and returns the exit status. */
    public static int run(Object command, String... args) {
        return commandLine(command).execute(args);
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = cl.getErr();
        err.println(cl.getCommandName() + ": " + firstLine(e.getMessage()) + " (see --help)");
        err.flush();
        return USAGE;
    }

    private static int runError(Exception e, CommandLine cl) throws Exception {
        if ("1".equals(System.getenv("XFERBENCH_DEBUG"))) {
            throw e;
        }
        PrintWriter err = cl.getErr();
        if (e instanceof ParameterException || e instanceof IllegalArgumentException) {
            err.println(cl.getCommandName() + ": " + firstLine(e.getMessage()) + " (see --help)");
            err.flush();
            return USAGE;
        }
        err.println(cl.getCommandName() + ": " + describe(e));
        err.flush();
        return FAILED;
    }

    /** What went wrong, in one line for a person: the file, host or reason, not the exception's class. */
    public static String describe(Exception e) {
        if (e instanceof ConnectException || e instanceof NoRouteToHostException) {
            return "cannot connect: " + firstLine(e.getMessage());
        }
        if (e instanceof NoSuchFileException f) {
            return "no such file: " + f.getFile();
        }
        if (e instanceof AccessDeniedException f) {
            return "access denied: " + f.getFile() + (f.getReason() == null ? "" : " (" + f.getReason() + ")");
        }
        if (e instanceof UnknownHostException) {
            return "unknown host: " + firstLine(e.getMessage());
        }
        if (e instanceof IOException) {
            return firstLine(e.getMessage() == null ? e.toString() : e.getMessage());
        }
        return "internal error: " + firstLine(e.toString()) + " (XFERBENCH_DEBUG=1 shows the stack trace)";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
