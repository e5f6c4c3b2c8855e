package io.raglog.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads what the file sink wrote: one CallEvent per line. */
final class CallLog {

    private final Path file;

    CallLog(Path file) {
        this.file = file;
    }

    /**
     * The lines the sink has finished: a line it is still writing (the file sink flushes its buffer as it fills, so a
     * reader can see a long call's first 64 KB) has no new line yet and is left for the next read.
     */
    List<String> lines() {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            byte[] written = Files.readAllBytes(file);
            int end = written.length;
            while (end > 0 && written[end - 1] != '\n') {
                end--; // (a byte at a time: the unfinished line may end inside a character)
            }
            return new String(written, 0, end, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] bytes() {
        try {
            return Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until at least {@code n} events were written and returns all of them, parsed as trees. */
    List<JsonNode> awaitTrees(int n) {
        Eventually.await(n + " recorded calls in " + file, Duration.ofSeconds(15), () -> lines().size() >= n);
        List<JsonNode> trees = new ArrayList<>();
        for (String line : lines()) {
            try {
                trees.add(Json.MAPPER.readTree(line));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return trees;
    }

    List<CallEvent> awaitEvents(int n) {
        awaitTrees(n);
        return lines().stream().map(l -> Json.read(l, CallEvent.class)).toList();
    }

    /** The events whose recorded URL ends with {@code suffix} (query ignored). */
    List<CallEvent> to(String pathSuffix) {
        return lines().stream().map(l -> Json.read(l, CallEvent.class))
                .filter(e -> {
                    String url = e.request().url();
                    int q = url.indexOf('?');
                    return (q < 0 ? url : url.substring(0, q)).endsWith(pathSuffix);
                })
                .toList();
    }
}
