package io.raglog.calls;

import java.util.List;

/** The adapters raglog ships, in the order they are tried. */
public final class BuiltInAdapters {

    private BuiltInAdapters() {}

    public static List<ApiAdapter> all() {
        return List.of();
    }
}
