package io.raglog.proxy.record;

import io.raglog.schemas.CallEvent;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/** One CallEvent per line, appended: what {@code raglog replay --calls FILE} reads. For local use without Kafka. */
public final class FileRecordSink implements RecordSink {

    private final Path path;
    private final OutputStream out;

    public FileRecordSink(Path path) {
        this.path = path;
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            this.out = new BufferedOutputStream(Files.newOutputStream(path, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE), 1 << 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the call log " + path, e);
        }
    }

    @Override
    public void write(CallEvent event, byte[] json, Consumer<Exception> done) {
        try {
            out.write(json);
            out.write('\n');
            // Flushed per event so a reader tailing the file (or a crash) sees whole lines only.
            out.flush();
            done.accept(null);
        } catch (IOException e) {
            done.accept(e);
        }
    }

    @Override
    public String describe() {
        return "file " + path.toAbsolutePath();
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
