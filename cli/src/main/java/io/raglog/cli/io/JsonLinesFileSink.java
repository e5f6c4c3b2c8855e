package io.raglog.cli.io;

import io.raglog.schemas.Json;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Writes records as JSON lines to one local file, for {@code replay}. It must run with parallelism 1 (one writer owns
 * the file); {@link #attach} sets that. Batch mode only: there is no checkpointing of what was written.
 */
public final class JsonLinesFileSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;

    /** One record's line, without the line break; serializable, since the sink is. */
    public interface LineEncoder<T> extends java.io.Serializable {
        byte[] encode(T record);
    }

    private final String path;
    private final LineEncoder<T> encoder;

    public JsonLinesFileSink(Path path) {
        this(path, Json::writeBytes);
    }

    public JsonLinesFileSink(Path path, LineEncoder<T> encoder) {
        this.path = path.toAbsolutePath().toString();
        this.encoder = encoder;
    }

    /** Each record as its contract JSON. */
    public static <T> void attach(org.apache.flink.streaming.api.datastream.DataStream<T> stream, Path path,
            String name) {
        attach(stream, path, name, Json::writeBytes);
    }

    /** Each record as the one line {@code encoder} makes of it (a JSON document without line breaks). */
    public static <T> void attach(org.apache.flink.streaming.api.datastream.DataStream<T> stream, Path path,
            String name, LineEncoder<T> encoder) {
        stream.sinkTo(new JsonLinesFileSink<>(path, encoder)).setParallelism(1).name(name).uid(name.replace(' ', '-'));
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        Path file = Path.of(path);
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        OutputStream out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), 1 << 16);
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context ctx) throws IOException {
                out.write(encoder.encode(element));
                out.write('\n');
            }

            @Override
            public void flush(boolean endOfInput) throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        };
    }
}
