package io.raglog.proxy;

import java.io.StringWriter;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * What the proxy logs while it is open, with stack traces, in memory: what an operator's log would hold, for a test to
 * search for secrets. The console keeps getting its lines too.
 */
final class LogCapture implements AutoCloseable {

    private final StringWriter text = new StringWriter();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final WriterAppender appender;

    LogCapture() {
        appender = WriterAppender.newBuilder().setName("raglog-proxy-capture-" + System.nanoTime())
                .setTarget(text)
                .setLayout(PatternLayout.newBuilder().withPattern("%p %c %m%n%throwable").build())
                .build();
        appender.start();
        Configuration config = context.getConfiguration();
        config.addAppender(appender);
        config.getRootLogger().addAppender(appender, null, null);
        context.updateLoggers();
    }

    String text() {
        return text.toString();
    }

    @Override
    public void close() {
        context.getConfiguration().getRootLogger().removeAppender(appender.getName());
        context.updateLoggers();
        appender.stop();
    }
}
