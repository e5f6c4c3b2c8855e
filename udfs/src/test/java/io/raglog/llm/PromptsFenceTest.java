package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fenced message is what it was when the document was written to a string and joined to its markers. */
class PromptsFenceTest {

    @Test
    void shouldWriteTheSameMessageAsJoiningTheDocumentToItsMarkers() throws Exception {
        Random random = new Random(5);
        for (int i = 0; i < 200; i++) {
            ObjectNode data = Json.MAPPER.createObjectNode();
            data.put("question", text(random, random.nextInt(300)));
            var passages = data.putArray("passages");
            for (int p = random.nextInt(25); p > 0; p--) {
                // long ones too: the builder kept between messages is let go past 64 K characters
                int length = random.nextInt(i % 10 == 0 ? 20_000 : 2_000);
                passages.addObject().put("id", "p" + p).put("text", text(random, length));
            }
            data.put("score", random.nextDouble());
            String seed = "run-" + i + "/support";

            assertThat(Prompts.fence(seed, data).text()).isEqualTo(joined(seed, data));
        }
    }

    @Test
    void shouldTagEverySeedByTheSha256OfItsUtf8Bytes() throws Exception {
        Random random = new Random(11);
        ObjectNode data = Json.MAPPER.createObjectNode().put("question", "q");
        for (int i = 0; i < 500; i++) {
            // ASCII seeds of every length around the bytes the thread keeps for them, and seeds beyond ASCII
            int length = random.nextInt(600);
            String seed = i % 2 == 0 ? ascii(random, length) : text(random, length);

            assertThat(Prompts.fence(seed, data).text()).isEqualTo(joined(seed, data));
        }
    }

    /** The former way, kept here as the reference. */
    private static String joined(String seed, ObjectNode data) throws Exception {
        byte[] d = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
        String tag = HexFormat.of().formatHex(d, 0, 6);
        return "<<<RAGLOG-DATA " + tag + ">>>\n" + Json.write(data) + "\n<<<END RAGLOG-DATA " + tag + ">>>";
    }

    /** Printable ASCII and controls, the seed bytes written without the encoder. */
    private static String ascii(Random random, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append((char) random.nextInt(0x80));
        }
        return out.toString();
    }

    /** Letters, quotes, backslashes, line breaks, controls, non-Latin text and halves of a surrogate pair. */
    private static String text(Random random, int length) {
        String alphabet = "abc XYZ \"\\\n\t\u0001é漢字<>>>😀";
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }
}
