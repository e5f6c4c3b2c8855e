package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecentNormsTest {

    @Test
    void shouldGiveWhatNormalisingGivesWhetherTheTextWasMetOrNot() {
        Random random = new Random(3);
        String[] words = {"The", "passage", "  ", "\n", "ΣΟΦΙΑ", "İstanbul", "“quoted”", "x"};
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < RecentNorms.KEPT * 3; i++) {
            StringBuilder b = new StringBuilder();
            for (int n = random.nextInt(8); n > 0; n--) {
                b.append(words[random.nextInt(words.length)]).append(' ');
            }
            texts.add(b.toString());
        }
        // asked in turn and again, as copies: met lately, forgotten, and met again
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 4000; i++) {
                String text = new String(texts.get(random.nextInt(texts.size())).toCharArray());
                assertThat(RecentNorms.norm(text)).as("%s", text).isEqualTo(Texts.norm(text));
            }
        }
        assertThat(RecentNorms.norm(null)).isEqualTo(Texts.norm(null));
    }
}
