package io.raglog.checks;

/**
 * A name, number or date of a text: what a rewrite or an embedding must not lose and an answer must not invent.
 *
 * @param surface as written ("Acme Corp", "4,100", "March")
 * @param norm the form compared across texts: lower case, thousands separators removed, month abbreviations spelled out
 */
public record KeyTerm(Kind kind, String surface, String norm) {

    public enum Kind {
        NAME("name"), NUMBER("number"), DATE("date");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** How a fact names this term, whichever check found it (see {@link io.raglog.schemas.Fact#term}). */
    public String subject() {
        return io.raglog.schemas.Fact.term(kind.label(), norm);
    }

    @Override
    public String toString() {
        return kind.label() + " '" + surface + "'";
    }
}
