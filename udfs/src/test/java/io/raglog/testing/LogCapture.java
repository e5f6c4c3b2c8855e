package io.raglog.testing;

import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Everything raglog, the Elasticsearch client, the AWS SDK and Flink log while it is open, with stack traces, in
 * memory: what an operator would see in the job's log. Flink at INFO (it logs a failed job's cause there), the rest at
 * every level. For the tests that no secret reaches a log line.
 */
public final class LogCapture implements AutoCloseable {

    private static final List<String> CAPTURED_AT_ALL = List.of("io.raglog", "org.elasticsearch", "org.apache.http",
            "software.amazon.awssdk");

    private final StringWriter text = new StringWriter();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final WriterAppender appender;
    /** Loggers the configuration already named (log4j2-test.properties names io.raglog), set aside until close. */
    private final Map<String, LoggerConfig> setAside = new HashMap<>();

    public LogCapture() {
        Configuration config = context.getConfiguration();
        appender = WriterAppender.newBuilder().setName("raglog-test-capture-" + System.nanoTime())
                .setTarget(text)
                .setLayout(PatternLayout.newBuilder().withPattern("%d{HH:mm:ss.SSS} %p %c %m%n%throwable").build())
                .build();
        appender.start();
        config.addAppender(appender);
        for (String name : CAPTURED_AT_ALL) {
            attach(config, name, Level.ALL);
        }
        attach(config, "org.apache.flink", Level.INFO);
        context.updateLoggers();
    }

    private void attach(Configuration config, String name, Level level) {
        // addLogger keeps a logger the configuration already has under that name and drops the new one, so the
        // capture would miss everything logged there (and close() would then remove the configured logger, leaving the
        // next capture to work: the result depended on which test ran first). The configured one is set aside instead.
        LoggerConfig configured = config.getLoggers().get(name);
        if (configured != null) {
            setAside.put(name, configured);
            config.removeLogger(name);
        }
        // Not additive: the console stays as quiet as it was.
        LoggerConfig logger = new LoggerConfig(name, level, false);
        logger.addAppender(appender, level, null);
        config.addLogger(name, logger);
    }

    public String text() {
        synchronized (text) {
            return text.toString();
        }
    }

    @Override
    public void close() {
        Configuration config = context.getConfiguration();
        for (String name : CAPTURED_AT_ALL) {
            config.removeLogger(name);
        }
        config.removeLogger("org.apache.flink");
        setAside.forEach(config::addLogger);
        context.updateLoggers();
        appender.stop();
    }
}
