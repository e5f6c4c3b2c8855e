package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's {@code --help} renders as written. Picocli reads descriptions as format strings: a bare "90% upper"
 * is a broken conversion, which it reports on stderr at every start of the command and then prints unformatted.
 */
class HelpTextTest {

    @Test
    void everyCommandsHelpRendersWithoutPicocliWarnings() {
        CommandLine root = new CommandLine(new RaglogCli());
        List<CommandLine> commands = new ArrayList<>();
        collect(root, commands);

        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        List<String> usages = new ArrayList<>();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            for (CommandLine command : commands) {
                usages.add(command.getUsageMessage(CommandLine.Help.Ansi.OFF));
            }
        } finally {
            System.setErr(stderr);
        }

        assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
        assertThat(commands).hasSizeGreaterThan(10);
        assertThat(usages).allSatisfy(usage -> assertThat(usage).doesNotContain("%n").doesNotContain("%%"));
        assertThat(String.join("\n", usages)).contains("90% upper bound");
    }

    private static void collect(CommandLine command, List<CommandLine> into) {
        into.add(command);
        command.getSubcommands().values().forEach(sub -> collect(sub, into));
    }
}
