package io.raglog.calls;

import io.raglog.calls.adapters.otlp.OtlpAdapters;
import java.util.ArrayList;
import java.util.List;

/** The adapters raglog ships, in the order they are tried. */
public final class BuiltInAdapters {

    private BuiltInAdapters() {}

    public static List<ApiAdapter> all() {
        List<ApiAdapter> all = new ArrayList<>();
        all.addAll(OtlpAdapters.all()); // span-calls only: they accept method SPAN and nothing else
        return List.copyOf(all);
    }
}
