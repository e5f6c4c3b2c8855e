package io.raglog.job;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The entry class for Flink's application mode (the Kubernetes operator's {@code job.entryClass}), e.g. with the
 * arguments {@code run --config /opt/raglog/raglog.yaml}.
 *
 * <p>A command line's {@code main} ends with {@code System.exit}, right for a terminal and wrong here: in application
 * mode {@code main} runs inside the JobManager, and {@code execute()} returns as soon as the job is submitted, so an
 * exit would stop the JobManager under the job it just started. This entry point runs {@link RunCommand}, the one
 * command a cluster has, and simply returns; a failure is thrown, not printed and turned into an exit code, so Flink
 * reports the real cause.
 */
public final class ApplicationModeEntryPoint {

    /** The cluster's command line: the same {@code run} as {@code ./raglog run}, and nothing else. */
    @Command(name = "raglog", mixinStandardHelpOptions = true, subcommands = RunCommand.class)
    static final class ClusterCommands {}

    private ApplicationModeEntryPoint() {}

    public static void main(String[] args) throws Exception {
        CommandLine cli = new CommandLine(new ClusterCommands()).setCaseInsensitiveEnumValuesAllowed(true);
        CommandLine.ParseResult parsed = cli.parseArgs(args);
        if (CommandLine.printHelpIfRequested(parsed)) {
            return;
        }
        List<CommandLine> chain = parsed.asCommandLineList();
        CommandLine leaf = chain.get(chain.size() - 1);
        if (!(leaf.getCommand() instanceof Callable<?> command)) {
            throw new IllegalArgumentException("name the command to run, e.g. run --config /opt/raglog/raglog.yaml;"
                    + " got " + (args.length == 0 ? "no arguments" : String.join(" ", args)));
        }
        Object exitCode = command.call();
        if (exitCode instanceof Integer code && code != 0) {
            throw new IllegalStateException("raglog " + leaf.getCommandName() + " ended with exit code " + code);
        }
    }
}
