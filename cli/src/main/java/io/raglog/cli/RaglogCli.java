package io.raglog.cli;

import io.raglog.job.RunCommand;
import io.raglog.cli.review.ExportCommand;
import io.raglog.cli.review.ReviewCommand;
import io.raglog.proxy.ProxyCommand;
import io.raglog.simulator.SimulateCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code raglog} command line. */
@Command(name = "raglog",
        mixinStandardHelpOptions = true,
        versionProvider = RaglogCli.Version.class,
        description = "Finds which stage of a RAG pipeline went wrong, from the pipeline's own API calls.",
        subcommands = {DemoCommand.class, RunCommand.class, ReplayCommand.class, SimulateCommand.class, ProxyCommand.class,
            TrainCommand.class, EvaluateCommand.class, ThresholdsCommand.class, ChaosCommand.class, ReviewCommand.class,
            ExportCommand.class, CommandLine.HelpCommand.class})
public final class RaglogCli {

    public static void main(String[] args) {
        int code = new CommandLine(new RaglogCli()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        System.exit(code);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = RaglogCli.class.getPackage().getImplementationVersion();
            return new String[] {"raglog " + (v == null ? "development build" : v)};
        }
    }
}
