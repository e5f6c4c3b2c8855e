package io.raglog.cli.io;

import io.raglog.ingest.RawMessage;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * Reads a JSONL file line by line as raw bytes, numbering the lines. Unlike Flink's text-line format it does not
 * decode characters, so a line that is not valid UTF-8 reaches the dead-letter output byte for byte, and its line
 * number tells the user where it was.
 */
public final class LinesFormat extends SimpleStreamFormat<RawMessage> {

    private static final long serialVersionUID = 1L;

    private final String origin;

    public LinesFormat(String origin) {
        this.origin = origin;
    }

    @Override
    public Reader<RawMessage> createReader(Configuration config, FSDataInputStream stream) {
        return new LineReader(origin, new BufferedInputStream(stream, 1 << 16));
    }

    @Override
    public TypeInformation<RawMessage> getProducedType() {
        return RawMessage.TYPE;
    }

    private static final class LineReader implements Reader<RawMessage> {
        private final String origin;
        private final InputStream in;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
        private long lineNumber;

        LineReader(String origin, InputStream in) {
            this.origin = origin;
            this.in = in;
        }

        @Override
        public RawMessage read() throws IOException {
            while (true) {
                line.reset();
                int b;
                while ((b = in.read()) != -1 && b != '\n') {
                    line.write(b);
                }
                if (b == -1 && line.size() == 0) {
                    return null;
                }
                lineNumber++;
                byte[] bytes = stripCarriageReturn(line.toByteArray());
                if (!blank(bytes)) {
                    return new RawMessage(origin, -1, lineNumber, bytes);
                }
            }
        }

        private static byte[] stripCarriageReturn(byte[] bytes) {
            if (bytes.length > 0 && bytes[bytes.length - 1] == '\r') {
                return java.util.Arrays.copyOf(bytes, bytes.length - 1);
            }
            return bytes;
        }

        private static boolean blank(byte[] bytes) {
            for (byte x : bytes) {
                if (x != ' ' && x != '\t') {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
