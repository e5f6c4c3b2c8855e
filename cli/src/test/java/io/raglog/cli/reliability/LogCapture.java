package io.raglog.cli.reliability;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.AppenderRef;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Every log line of the process while it is open, with stack traces, in memory: what an operator's log would hold.
 * Every logger at INFO at least (the level a production job runs at; the test configuration silences Kafka and parts
 * of Flink below ERROR), raglog's own at every level. The console gets nothing meanwhile; {@link #writeTo} keeps the
 * capture for whoever has to read it.
 */
final class LogCapture implements AutoCloseable {

    private final StringWriter text = new StringWriter();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final WriterAppender appender;
    private final Map<LoggerConfig, Level> levels = new HashMap<>();
    private final Map<Appender, Level> rootAppenders = new HashMap<>();

    LogCapture() {
        Configuration config = context.getConfiguration();
        appender = WriterAppender.newBuilder().setName("raglog-reliability-capture-" + System.nanoTime())
                .setTarget(text)
                .setLayout(PatternLayout.newBuilder().withPattern("%d{HH:mm:ss.SSS} %p %c %m%n%throwable").build())
                .build();
        appender.start();
        config.addAppender(appender);
        LoggerConfig root = config.getRootLogger();
        for (AppenderRef ref : List.copyOf(root.getAppenderRefs())) {
            Appender a = config.getAppender(ref.getRef());
            rootAppenders.put(a, ref.getLevel());
            root.removeAppender(ref.getRef());
        }
        root.addAppender(appender, null, null);
        lower(root, Level.INFO);
        for (LoggerConfig logger : config.getLoggers().values()) {
            lower(logger, logger.getName().startsWith("io.raglog") ? Level.ALL : Level.INFO);
        }
        context.updateLoggers();
    }

    private void lower(LoggerConfig logger, Level to) {
        levels.putIfAbsent(logger, logger.getLevel());
        if (logger.getLevel().isMoreSpecificThan(to)) {
            logger.setLevel(to);
        }
    }

    String text() {
        synchronized (text) {
            return text.toString();
        }
    }

    int lines() {
        return text().split("\n").length;
    }

    /** Keeps the capture under {@code target/} for a person reading a failure. */
    void writeTo(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text());
    }

    @Override
    public void close() {
        Configuration config = context.getConfiguration();
        LoggerConfig root = config.getRootLogger();
        root.removeAppender(appender.getName());
        rootAppenders.forEach((a, level) -> root.addAppender(a, level, null));
        levels.forEach(LoggerConfig::setLevel);
        context.updateLoggers();
        appender.stop();
    }
}
