package io.raglog.cli.io;

import io.raglog.ingest.RawMessage;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** JSONL files as raw messages, one bounded source per file so each message knows the file it came from. */
public final class FileInputs {

    private FileInputs() {}

    /** @return the union of the files' lines, or null when there are no files */
    public static DataStream<RawMessage> lines(StreamExecutionEnvironment env, List<Path> files, String kind) {
        DataStream<RawMessage> all = null;
        int i = 0;
        for (Path file : files) {
            String origin = file.toString();
            FileSource<RawMessage> source = FileSource
                    .forRecordStreamFormat(new LinesFormat(origin),
                            new org.apache.flink.core.fs.Path(file.toAbsolutePath().toUri()))
                    .build();
            DataStream<RawMessage> lines = env
                    .fromSource(source, WatermarkStrategy.noWatermarks(), kind + " file " + file.getFileName())
                    .uid(kind + "-file-" + i++);
            all = all == null ? lines : all.union(lines);
        }
        return all;
    }
}
