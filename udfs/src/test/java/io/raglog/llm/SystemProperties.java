package io.raglog.llm;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * System properties a test sets (the AWS SDK reads credentials and the region from them), put back as they were when
 * it closes.
 */
final class SystemProperties implements AutoCloseable {

    private final Map<String, String> before = new LinkedHashMap<>();

    SystemProperties set(String name, String value) {
        before.putIfAbsent(name, System.getProperty(name));
        System.setProperty(name, value);
        return this;
    }

    @Override
    public void close() {
        before.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
    }
}
