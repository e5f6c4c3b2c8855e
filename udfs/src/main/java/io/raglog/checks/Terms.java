package io.raglog.checks;

import io.raglog.memo.PerThreadMemo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lexical toolbox of the rule checks: words, light stems, numbers, names and dates, edit distance. English only,
 * deliberately simple and deterministic: the classifiers weigh these counts, they do not need a parser.
 */
public final class Terms {

    private static final Pattern THOUSANDS = Pattern.compile("\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?");
    private static final Pattern DECIMAL_COMMA = Pattern.compile("\\d+,\\d{1,2}");
    private static final Pattern YEAR = Pattern.compile("(?:1[89]|20)\\d{2}");
    private static final Pattern FISCAL_YEAR = Pattern.compile("\\bFY ?(\\d{4}|\\d{2})\\b");
    private static final Pattern QUARTER = Pattern.compile("\\b[Qq]([1-4])\\b");
    /** The marks inside a joined word ("Phags-pa", "O'Neil", "AT&T"): {@code split} on it gives the word's parts. */
    static final Pattern WORD_JOINER = Pattern.compile("[-'’&]");

    private static final Map<String, String> MONTHS = new LinkedHashMap<>();

    static {
        String[] full = {"january", "february", "march", "april", "may", "june", "july", "august", "september",
                "october", "november", "december"};
        for (String m : full) {
            MONTHS.put(m, m);
            MONTHS.put(m.substring(0, 3), m);
        }
        MONTHS.put("sept", "september");
    }

    /** Function words, question words and the commonest sentence words: never names, never "content". */
    static final Set<String> STOPWORDS = Set.of(
            "a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "in", "on", "at", "to", "for", "from",
            "by", "with", "without", "about", "as", "into", "onto", "over", "under", "between", "after", "before",
            "during", "through", "per", "via", "than", "that", "this", "these", "those", "there", "here", "it", "its",
            "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "have", "has", "had",
            "can", "could", "will", "would", "shall", "should", "may", "might", "must", "not", "no", "yes", "so",
            "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "i", "me", "my", "we", "our",
            "you", "your", "he", "him", "his", "she", "her", "they", "them", "their", "also", "any", "all", "some",
            "each", "every", "both", "either", "neither", "more", "most", "less", "least", "much", "many", "few",
            "other", "such", "only", "own", "same", "just", "very", "too", "again", "please", "tell", "give",
            "list", "find", "show", "explain", "describe", "according", "based", "answer", "question", "s", "t");

    private static final Set<String> DAYS = Set.of("monday", "tuesday", "wednesday", "thursday", "friday",
            "saturday", "sunday");

    private Terms() {}

    /**
     * Lower-case words, in order: the matches of {@code [\\p{L}\\p{N}]+(?:[.,'’&-][\\p{L}\\p{N}]+)*}, found by a scan
     * rather than that regex because every check reads every passage's words (the regex was a third of the rule
     * checks' time). {@code TermsTest} holds the two to the same words.
     */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        addWords(text, 0, text.length(), out);
        return out;
    }

    /**
     * {@link #words} of {@code text.substring(from, to)}, added to {@code out}, without the substring: {@code to} must
     * be the text's end or at a character that is neither a letter, a digit nor a joiner (a sentence ends at white
     * space), so that no word runs past it.
     */
    static void addWords(String text, int from, int to, List<String> out) {
        scanWords(text, from, to, (start, end) -> out.add(lowerCaseWord(text, start, end)));
    }

    /** Where a word of a text is: {@link #scanWords} hands each one's bounds on rather than a copy of it. */
    @FunctionalInterface
    interface WordBounds {
        void word(int start, int end);
    }

    /**
     * The bounds of the words {@link #addWords} would add, in order, given to {@code each} without copying the words
     * out: a caller that has seen most of them already (a passage repeats its words) copies only the new ones.
     */
    static void scanWords(String text, int from, int to, WordBounds each) {
        int n = text.length();
        int i = from;
        while (i < to) {
            int cp = text.codePointAt(i);
            if (!isLetterOrNumber(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            i = endOfRun(text, i);
            // a joiner continues the word only when a letter or digit follows it: "4,100", "O'Neil", "Phags-pa"
            while (i < n && isJoiner(text.charAt(i)) && i + 1 < n && isLetterOrNumber(text.codePointAt(i + 1))) {
                i = endOfRun(text, i + 1);
            }
            each.word(start, i);
        }
    }

    /**
     * The word at {@code text[start, end)} in lower case, as {@link #words} gives it: an equal copy this thread made
     * before when there is one ({@link WordPool}).
     */
    static String lowerCaseWord(String text, int start, int end) {
        return WordPool.lowerCase(text, start, end);
    }

    /** The end of the run of letters and digits that starts at {@code i}. */
    private static int endOfRun(String text, int i) {
        int n = text.length();
        while (i < n) {
            int cp = text.codePointAt(i);
            if (!isLetterOrNumber(cp)) {
                break;
            }
            i += Character.charCount(cp);
        }
        return i;
    }

    /** {@code [\\p{L}\\p{N}]}: a letter of any script, or a digit, letter-number or other number ("Ⅻ", "½"). */
    static boolean isLetterOrNumber(int cp) {
        if (cp < 128) {
            return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
        }
        if (Character.isLetter(cp)) {
            return true;
        }
        int type = Character.getType(cp);
        return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    private static boolean isJoiner(char c) {
        return c == '.' || c == ',' || c == '\'' || c == '’' || c == '&' || c == '-';
    }

    /**
     * Words that carry meaning: not stop words, in order, duplicates kept (an unmodifiable list). Kept as the scan
     * finds them, rather than filtered from a list of every word by a stream: the rule checks read a run's question,
     * rewrites and answer sentences so on every run, since no memo keeps texts met once.
     */
    public static List<String> contentWords(String text) {
        List<String> out = new ArrayList<>();
        addContentWords(text, out);
        return Collections.unmodifiableList(out);
    }

    /** {@link #contentWords} added to a collection: a set to fill needs no list first. */
    public static void addContentWords(String text, Collection<String> into) {
        if (text != null) {
            scanWords(text, 0, text.length(), (start, end) -> {
                String word = lowerCaseWord(text, start, end);
                if (isContentWord(word)) {
                    into.add(word);
                }
            });
        }
    }

    /**
     * The content stems of the texts read most recently, per thread: the known passages read every passage a run was
     * handed for them, then again to learn the new ones, and popular passages recur across runs (a tenth of raglog's
     * own allocation per run went to reading them again, JFR, issue #27). In a no-vector job of 2,000 simulated runs
     * the checks' thread asks for 26,800 texts' stems, 5,929 of them distinct: 1,024 kept answered 51 % of the asks,
     * 4,096 answer 76 % (78 % is all a memo could, the rest being first reads), and each set is an
     * {@link OrderedStringSet}, under a third of a linked set's heap.
     */
    private static final PerThreadMemo<Set<String>> RECENT_CONTENT_STEMS = new PerThreadMemo<>(4096);

    /**
     * The distinct stems of a text's content words, in order: what a question asks about, or what a text holds. An
     * unmodifiable set, shared with other callers asking about the same text.
     */
    public static Set<String> contentStems(String text) {
        if (text == null) {
            return readContentStems(null);
        }
        return RECENT_CONTENT_STEMS.get(text, Terms::readContentStems);
    }

    /** Each thread's builder of content stems: reused, so that reading a text allocates only the set it gives. */
    private static final ThreadLocal<OrderedStringSet.Builder> STEMS_READ =
            ThreadLocal.withInitial(OrderedStringSet.Builder::new);

    /**
     * As stemming each of {@link #contentWords}, in order, in one scan: no list of the words, no stream. A word the
     * thread met before, here or in a {@link TextIndex} (the known passages and the rule checks read the same texts),
     * is known by its hash from {@link WordFacts}: not copied out, looked up among the stop words nor stemmed again.
     */
    private static Set<String> readContentStems(String text) {
        OrderedStringSet.Builder out = STEMS_READ.get();
        if (text != null) {
            WordFacts facts = WordFacts.ofThisThread();
            scanWords(text, 0, text.length(), (start, end) -> {
                long plainHash = WordFacts.plainHash(text, start, end);
                int known = plainHash == 0 ? -1 : facts.slotOf(plainHash);
                if (known >= 0) {
                    if (facts.isContentWord(known)) {
                        out.add(facts.stem(known), facts.stemHash(known));
                    }
                    return;
                }
                String word = lowerCaseWord(text, start, end);
                boolean content = isContentWord(word);
                if (plainHash == 0 && !content) {
                    return; // nothing to add, and not a word the facts can keep
                }
                String stem = stem(word);
                long stemHash = WordHash.of(stem);
                if (plainHash != 0) {
                    facts.put(plainHash, stem, stemHash, content);
                }
                if (content) {
                    out.add(stem, stemHash);
                }
            });
        }
        return out.build();
    }

    public static boolean isContentWord(String lowerWord) {
        return lowerWord.length() > 1 && !STOPWORDS.contains(lowerWord);
    }

    /**
     * The stems this thread worked out that differ from their word (each a new String): the checks stem the same
     * words again and again, and those copies were a twentieth of what the rule checks allocated (JFR). Safe to share:
     * a stem is a pure function of its word and an immutable String; per thread, so never shared between threads; and
     * bounded, dropped and started afresh when full.
     */
    private static final ThreadLocal<Map<String, String>> RECENT_STEMS = ThreadLocal.withInitial(HashMap::new);
    private static final int RECENT_STEMS_CAPACITY = 1 << 15;

    /** A light suffix stripper so "flows" meets "flow" and "companies" meets "company"; not a real stemmer. */
    public static String stem(String lowerWord) {
        if (lowerWord.isEmpty() || !mayLoseAnEnding(lowerWord.charAt(lowerWord.length() - 1))) {
            return lowerWord; // most words: their own stem, known without the thread's memo (a lookup per word)
        }
        Map<String, String> recent = RECENT_STEMS.get();
        String known = recent.get(lowerWord);
        if (known != null) {
            return known;
        }
        String stem = readStem(lowerWord);
        if (stem != lowerWord) { // a word that is its own stem costs nothing to stem again
            if (recent.size() >= RECENT_STEMS_CAPACITY) {
                recent.clear();
            }
            recent.put(lowerWord, stem);
        }
        return stem;
    }

    /** Whether {@link #readStem} may strip the end of a word ending so: each ending it strips ends in s, g or d. */
    private static boolean mayLoseAnEnding(char last) {
        return last == 's' || last == 'g' || last == 'd';
    }

    private static String readStem(String lowerWord) {
        String w = lowerWord;
        if (w.endsWith("'s") || w.endsWith("’s")) {
            w = w.substring(0, w.length() - 2);
        }
        if (w.length() > 4 && w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.length() > 5 && w.endsWith("ing")) {
            return w.substring(0, w.length() - 3);
        }
        if (w.length() > 4 && w.endsWith("ed")) {
            return w.substring(0, w.length() - 2);
        }
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    /**
     * The same word in another form: equal stems, or a shared beginning long enough to be the same root ("located" and
     * "location", "produced" and "production", "caused" and "cause"). Irregular pairs ("born" and "birth") are not
     * caught here; the vector checks compare those by meaning.
     */
    public static boolean sameWord(String lowerA, String lowerB) {
        return sameStem(stem(lowerA), stem(lowerB));
    }

    /** {@link #sameWord} on two words' {@link #stem}s, for a caller that compares each word with many. */
    static boolean sameStem(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        int n = 0;
        int max = Math.min(a.length(), b.length());
        while (n < max && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return n >= 5 || (n >= 4 && n == max);
    }

    /**
     * Numbers in a normalised form: "4,100" and "4100" meet; "4.10" and "4.1" meet. Years are numbers too. The
     * {@link #rawNumbers}, normalised.
     */
    public static Set<String> numbers(String text) {
        Set<String> out = new LinkedHashSet<>();
        if (text == null) {
            return out;
        }
        for (String raw : rawNumbers(text)) {
            out.add(normaliseNumber(raw));
        }
        return out;
    }

    /**
     * The numbers of a text as written, in order: the matches of {@code (?<![\\p{L}\\p{N}.,])\\d+(?:[.,]\\d+)*},
     * found by a scan (every passage is read for its numbers, and every question and answer for its key terms;
     * {@code TermsTest} holds the two to the same matches).
     */
    static List<String> rawNumbers(String text) {
        List<String> out = new ArrayList<>();
        scanNumbers(text, (start, end) -> out.add(text.substring(start, end)));
        return out;
    }

    /** The bounds of the numbers {@link #rawNumbers} lists, in order, given to {@code each} without copying them out. */
    static void scanNumbers(String text, WordBounds each) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            if (!isAsciiDigit(text.charAt(i)) || (i > 0 && continuesBefore(text, i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && isAsciiDigit(text.charAt(i))) {
                i++;
            }
            while (i + 1 < n && (text.charAt(i) == '.' || text.charAt(i) == ',') && isAsciiDigit(text.charAt(i + 1))) {
                i += 2;
                while (i < n && isAsciiDigit(text.charAt(i))) {
                    i++;
                }
            }
            each.word(start, i);
        }
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * The number pattern's look-behind: a number does not start right after a letter, digit, point or comma. Like the
     * regex, it looks at the one char before, so a digit after a letter outside the BMP (a surrogate pair) starts one.
     */
    private static boolean continuesBefore(String text, int i) {
        char before = text.charAt(i - 1);
        return before == '.' || before == ',' || isLetterOrNumber(before);
    }

    /**
     * The {@link WordHash} of the number at {@code text[start, end)} normalised: hashed in place when it has neither
     * point nor comma, as most have, since then {@link #normaliseNumber} leaves it as it is.
     */
    static long normalisedNumberHash(String text, int start, int end) {
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c == '.' || c == ',') {
                return WordHash.of(normaliseNumber(text.substring(start, end)));
            }
        }
        return WordHash.of(text, start, end);
    }

    static String normaliseNumber(String raw) {
        String n = raw;
        // without a comma neither regex matches and there is none to remove: most numbers need no matcher (every
        // number of every passage passes here)
        if (n.indexOf(',') >= 0) {
            if (THOUSANDS.matcher(n).matches()) {
                n = n.replace(",", "");
            } else if (DECIMAL_COMMA.matcher(n).matches()) {
                n = n.replace(',', '.');
            } else {
                n = n.replace(",", "");
            }
        }
        if (n.indexOf('.') >= 0) {
            n = withoutTrailingZerosAndPoint(n);
        }
        return n.isEmpty() ? "0" : n;
    }

    /** As {@code replaceAll("0+$", "").replaceAll("\\.$", "")}: "1.50" is "1.5", "2.00" is "2". */
    private static String withoutTrailingZerosAndPoint(String number) {
        int end = number.length();
        while (end > 0 && number.charAt(end - 1) == '0') {
            end--;
        }
        if (end > 0 && number.charAt(end - 1) == '.') {
            end--;
        }
        return number.substring(0, end);
    }

    /**
     * The key terms of the texts read most recently, per thread. The rules ask for the question's key terms once per
     * stage they check (rewrite, retrieval, rerank, embedding): a run's question was read four times per run.
     */
    private static final PerThreadMemo<List<KeyTerm>> RECENT_KEY_TERMS = new PerThreadMemo<>(64);

    /** The names, numbers and dates of a text, each once, in order of appearance (an unmodifiable list). */
    public static List<KeyTerm> keyTerms(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return RECENT_KEY_TERMS.get(text, Terms::readKeyTerms);
    }

    private static List<KeyTerm> readKeyTerms(String text) {
        Map<String, KeyTerm> out = new LinkedHashMap<>();
        // the numbers and the tokens found once, each read twice (years and numbers; months and names): every
        // question and answer is read here, and the regexes' searches were two thirds of it (JFR)
        List<String> numbers = rawNumbers(text);
        int[] tokens = tokenBounds(text);
        addDates(text, numbers, tokens, out);
        for (String raw : numbers) {
            String norm = normaliseNumber(raw);
            if (!YEAR.matcher(norm).matches()) {
                out.putIfAbsent("number:" + norm, new KeyTerm(KeyTerm.Kind.NUMBER, raw, norm));
            }
        }
        for (String name : names(text, tokens)) {
            String norm = String.join(" ", words(name));
            if (!norm.isEmpty()) {
                out.putIfAbsent("name:" + norm, new KeyTerm(KeyTerm.Kind.NAME, name, norm));
            }
        }
        return List.copyOf(out.values());
    }

    private static void addDates(String text, List<String> numbers, int[] tokens, Map<String, KeyTerm> out) {
        if (text.contains("FY")) { // the pattern's one literal: without it, no search
            Matcher fy = FISCAL_YEAR.matcher(text);
            while (fy.find()) {
                String y = fy.group(1).length() == 2 ? "20" + fy.group(1) : fy.group(1);
                out.putIfAbsent("date:" + y, new KeyTerm(KeyTerm.Kind.DATE, fy.group(), y));
            }
        }
        for (String raw : numbers) {
            if (YEAR.matcher(raw).matches()) {
                out.putIfAbsent("date:" + raw, new KeyTerm(KeyTerm.Kind.DATE, raw, raw));
            }
        }
        if (mayHoldQuarter(text)) {
            Matcher q = QUARTER.matcher(text);
            while (q.find()) {
                String norm = "q" + q.group(1);
                out.putIfAbsent("date:" + norm, new KeyTerm(KeyTerm.Kind.DATE, q.group(), norm));
            }
        }
        for (int t = 0; t < tokens.length; t += 2) {
            if (!monthLength(text, tokens[t], tokens[t + 1])) {
                continue; // not copied out: most words are no month's length
            }
            String token = withoutTrailingPoint(text.substring(tokens[t], tokens[t + 1]));
            String lower = token.toLowerCase(Locale.ROOT);
            String month = MONTHS.get(lower);
            boolean capitalised = Character.isUpperCase(token.charAt(0));
            // "may" is a verb far more often than a month: only a capitalised "May" counts
            if (month != null && (capitalised || !lower.equals("may"))) {
                out.putIfAbsent("date:" + month, new KeyTerm(KeyTerm.Kind.DATE, token, month));
            }
        }
    }

    /** Whether {@link #QUARTER} could match: a "Q" or "q" before a digit 1-4. Most texts have none. */
    private static boolean mayHoldQuarter(String text) {
        for (int i = text.length() - 2; i >= 0; i--) {
            char c = text.charAt(i);
            char next = text.charAt(i + 1);
            if ((c == 'Q' || c == 'q') && next >= '1' && next <= '4') {
                return true;
            }
        }
        return false;
    }

    /**
     * Where a text's tokens are, as start and end indexes in pairs: the matches of
     * {@code [\\p{L}\\p{N}][\\p{L}\\p{N}&'’.-]*}, a letter or digit and the letters, digits and joiners after it,
     * found by a scan ({@code TermsTest} holds the two to the same matches). Months and names are read from them.
     */
    static int[] tokenBounds(String text) {
        int[] bounds = new int[16];
        int count = 0;
        int n = text.length();
        int i = 0;
        while (i < n) {
            int cp = text.codePointAt(i);
            if (!isLetterOrNumber(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            i += Character.charCount(cp);
            while (i < n && (isLetterOrNumber(text.codePointAt(i)) || isTokenJoiner(text.charAt(i)))) {
                i += Character.charCount(text.codePointAt(i));
            }
            if (count + 2 > bounds.length) {
                bounds = Arrays.copyOf(bounds, bounds.length * 2);
            }
            bounds[count++] = start;
            bounds[count++] = i;
        }
        return Arrays.copyOf(bounds, count);
    }

    private static boolean isTokenJoiner(char c) {
        return c == '&' || c == '\'' || c == '’' || c == '.' || c == '-';
    }

    /**
     * Whether the word at {@code text[start, end)}, without a closing full stop, is as long as a month's name or
     * abbreviation (3 to 9 chars). Lower-casing keeps the length of any word that could then equal one: the one
     * mapping that lengthens ("İ") adds a non-ASCII mark.
     */
    private static boolean monthLength(String text, int start, int end) {
        int length = text.charAt(end - 1) == '.' ? end - start - 1 : end - start;
        return length >= 3 && length <= 9;
    }

    /**
     * Capitalised words that are not at the start of a sentence (or are acronyms), merged when adjacent: "Acme Corp",
     * "New York", "IBM". A sentence-initial "Revenue" is not a name; a sentence-initial "NASA" is. Read from the
     * text's {@link #tokenBounds}.
     */
    static List<String> names(String text, int[] tokens) {
        List<String> out = new ArrayList<>();
        StringBuilder current = null;
        int currentEnd = -1;
        for (int t = 0; t < tokens.length; t += 2) {
            int start = tokens[t];
            if (!hasUpperCase(text, start, tokens[t + 1])) {
                // most words: not capitalised, no inner capital, no acronym, so no name; read without a copy
                if (current != null) {
                    out.add(current.toString());
                    current = null;
                }
                currentEnd = tokens[t + 1];
                continue;
            }
            String group = text.substring(start, tokens[t + 1]);
            String token = nameToken(group);
            boolean name = !token.isEmpty() && isNameToken(token, sentenceInitial(text, start));
            if (name && current != null && start - currentEnd == 1 && text.charAt(currentEnd) == ' ') {
                current.append(' ').append(token);
            } else {
                if (current != null) {
                    out.add(current.toString());
                    current = null;
                }
                if (name) {
                    current = new StringBuilder(token);
                }
            }
            currentEnd = tokens[t + 1];
            if (name && group.endsWith(".") && !isAcronym(token)) {
                out.add(current.toString()); // a full stop ends the name and the sentence
                current = null;
            }
        }
        if (current != null) {
            out.add(current.toString());
        }
        return out;
    }

    /** Whether a char of {@code text[start, end)} is upper case, each taken as {@code String.chars()} gives it. */
    private static boolean hasUpperCase(String text, int start, int end) {
        for (int i = start; i < end; i++) {
            if (Character.isUpperCase((int) text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** As {@code replaceAll("[.]$", "")}: one closing full stop off ("May." is "May"). */
    private static String withoutTrailingPoint(String token) {
        return token.endsWith(".") ? token.substring(0, token.length() - 1) : token;
    }

    /**
     * As {@code replaceAll("[.'’]+$", "").replaceAll("['’]s$", "")}: closing points and apostrophes off, then a
     * possessive ("Acme's." is "Acme"). Written out because every capitalised word of every text passes here: these
     * regexes and the others compiled on each call in this class were a third of what the rule checks allocated.
     */
    static String nameToken(String word) {
        int end = word.length();
        while (end > 0 && isClosingMark(word.charAt(end - 1))) {
            end--;
        }
        if (end >= 2 && word.charAt(end - 1) == 's' && isApostrophe(word.charAt(end - 2))) {
            end -= 2;
        }
        return word.substring(0, end);
    }

    private static boolean isClosingMark(char c) {
        return c == '.' || isApostrophe(c);
    }

    private static boolean isApostrophe(char c) {
        return c == '\'' || c == '’';
    }

    private static boolean isNameToken(String token, boolean sentenceInitial) {
        String lower = token.toLowerCase(Locale.ROOT);
        if (STOPWORDS.contains(lower) || MONTHS.containsKey(lower) || DAYS.contains(lower)) {
            return false;
        }
        if (Character.isDigit(token.charAt(0)) || isQuarterOrFiscalYear(token)) {
            return false; // quarters and fiscal years are dates
        }
        if (isAcronym(token)) {
            return true;
        }
        boolean capitalised = Character.isUpperCase(token.charAt(0));
        if (!capitalised) {
            return hasInnerCapital(token); // "iPhone", "eBay"
        }
        return !sentenceInitial;
    }

    // The character tests below are loops over the chars (as String.chars() gave them), not streams or a regex:
    // every capitalised word of every question and answer passes here, and their pipelines and matchers were a
    // tenth of what reading a text's key terms allocated (JFR).

    /** As {@code token.chars().skip(1).anyMatch(Character::isUpperCase)}. */
    private static boolean hasInnerCapital(String token) {
        for (int i = 1; i < token.length(); i++) {
            if (Character.isUpperCase((int) token.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** As matching {@code [Qq][1-4]|FY\\d+} (ASCII digits): "Q3", "FY2023". */
    static boolean isQuarterOrFiscalYear(String token) {
        int n = token.length();
        if (n == 2 && (token.charAt(0) == 'Q' || token.charAt(0) == 'q')) {
            return token.charAt(1) >= '1' && token.charAt(1) <= '4';
        }
        if (n < 3 || !token.startsWith("FY")) {
            return false;
        }
        for (int i = 2; i < n; i++) {
            if (!isAsciiDigit(token.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** At least two letters, all upper case ("IBM", "U.S."), each char taken as String.chars() gives it. */
    private static boolean isAcronym(String token) {
        int letters = 0;
        for (int i = 0; i < token.length(); i++) {
            int c = token.charAt(i);
            if (Character.isLetter(c)) {
                if (!Character.isUpperCase(c)) {
                    return false;
                }
                letters++;
            }
        }
        return letters >= 2;
    }

    private static boolean sentenceInitial(String text, int start) {
        for (int i = start - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) && c != '\n') {
                continue;
            }
            return c == '.' || c == '?' || c == '!' || c == ':' || c == '\n' || c == '"' || c == '“' || c == '-'
                    || c == '*' || c == '•';
        }
        return true;
    }

    /**
     * Levenshtein distance, giving up (returning limit + 1) once it must exceed limit. Its two rows are this thread's,
     * reused: two new arrays a call were 1.1 % of the assembly task's allocation (near-text linking compares words
     * by the thousand; JFR, issue #27). Only their first {@code b.length() + 1} cells are read, each written first.
     */
    public static int editDistance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[][] rows = editRows(b.length() + 1);
        int[] prev = rows[0];
        int[] cur = rows[1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            int rowMin = cur[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
                rowMin = Math.min(rowMin, cur[j]);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** Rows longer than this (words of thousands of chars) are made for the call and not kept. */
    private static final int KEPT_EDIT_ROW = 1024;
    private static final ThreadLocal<int[][]> EDIT_ROWS = ThreadLocal.withInitial(() -> new int[][] {new int[64],
        new int[64]});

    /** Two rows of at least {@code length} cells: editDistance fills them before reading and calls nothing meanwhile. */
    private static int[][] editRows(int length) {
        int[][] rows = EDIT_ROWS.get();
        if (rows[0].length >= length) {
            return rows;
        }
        int[][] larger = {new int[length], new int[length]};
        if (length <= KEPT_EDIT_ROW) {
            EDIT_ROWS.set(larger);
        }
        return larger;
    }
}
