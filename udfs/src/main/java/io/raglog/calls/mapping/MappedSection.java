package io.raglog.calls.mapping;

import io.raglog.calls.AdapterException;
import io.raglog.calls.CallDetail;
import io.raglog.calls.mapping.MappedValues.Named;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One stage's section of a {@link FieldMapping}, compiled: its paths are parsed once and checked for the shape a
 * section needs (required fields, the body each field must come from) when the adapter is built, so a mapping that
 * cannot work is refused before it reaches state.
 */
interface MappedSection extends Serializable {

    CallDetail read(CallEvent call, String adapter) throws AdapterException;

    /** Every path the section names, for validation: each must resolve in the sample the model was shown. */
    List<PathOf> paths();

    /** @param list the list a relative path is read in, null for an absolute path */
    record PathOf(Named path, Named list) {}

    /** The named paths, absent ones left out: absolute ones as given, the rest relative to {@code list}. */
    static List<PathOf> paths(Named[] absolute, Named list, Named... relative) {
        List<PathOf> out = new ArrayList<>();
        for (Named n : absolute) {
            if (n != null) {
                out.add(new PathOf(n, null));
            }
        }
        for (Named n : relative) {
            if (n != null && list != null) {
                out.add(new PathOf(n, list));
            }
        }
        return out;
    }

    static Named required(Named path, String field) {
        if (path == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return path;
    }

    /** What a call sends is in the request, what it got back in the response: a path on the wrong side is a guess. */
    static Named from(Named path, BodyPath.Root side) {
        if (path != null && path.path().root() != side) {
            throw new IllegalArgumentException(path.field() + " must be a path into the "
                    + side.name().toLowerCase(Locale.ROOT) + ", not '" + path.path() + "'");
        }
        return path;
    }
}
