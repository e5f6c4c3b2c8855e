package io.raglog.job.reliability;

import java.io.StringWriter;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Every log line of the job while it is open, with stack traces, in memory: what an operator's log would hold.
 * raglog's own code at every level; Flink, Kafka's clients, the HTTP clients and everything else at INFO, the level a
 * production job runs at (their DEBUG output dumps request headers by design).
 */
final class LogCapture implements AutoCloseable {

    private static final List<String> RAGLOG = List.of("io.raglog");
    private static final List<String> LIBRARIES = List.of("org.apache.flink", "org.apache.kafka", "kafka",
            "org.elasticsearch", "org.apache.http", "org.asynchttpclient", "io.netty", "ai.djl", "ml.dmlc");

    private final StringWriter text = new StringWriter();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final WriterAppender appender;

    LogCapture() {
        Configuration config = context.getConfiguration();
        appender = WriterAppender.newBuilder().setName("raglog-reliability-capture-" + System.nanoTime())
                .setTarget(text)
                .setLayout(PatternLayout.newBuilder().withPattern("%d{HH:mm:ss.SSS} %p %c %m%n%throwable").build())
                .build();
        appender.start();
        config.addAppender(appender);
        RAGLOG.forEach(name -> attach(config, name, Level.ALL));
        LIBRARIES.forEach(name -> attach(config, name, Level.INFO));
        context.updateLoggers();
    }

    private void attach(Configuration config, String name, Level level) {
        // not additive: the console stays as quiet as the test configuration has it
        LoggerConfig logger = new LoggerConfig(name, level, false);
        logger.addAppender(appender, level, null);
        config.addLogger(name, logger);
    }

    String text() {
        synchronized (text) {
            return text.toString();
        }
    }

    int lines() {
        return text().split("\n").length;
    }

    @Override
    public void close() {
        Configuration config = context.getConfiguration();
        RAGLOG.forEach(config::removeLogger);
        LIBRARIES.forEach(config::removeLogger);
        context.updateLoggers();
        appender.stop();
    }
}
