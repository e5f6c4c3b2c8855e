package io.raglog.esnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The launcher finds the node's classpath from wherever raglog runs: a module, the repository root, deeper. */
class ElasticsearchProcessTest {

    /** Maven runs these tests in elasticsearch-node/; the repository root is its parent. */
    private static final Path REPOSITORY = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    private static final Path NODE_TARGET = REPOSITORY.resolve("elasticsearch-node").resolve("target");

    @Test
    void shouldFindTheNodeFromAModuleTheRepositoryRootAndASubdirectory() {
        assertThat(ElasticsearchProcess.locateNodeTarget(List.of(REPOSITORY.resolve("udfs")))).isEqualTo(NODE_TARGET);
        assertThat(ElasticsearchProcess.locateNodeTarget(List.of(REPOSITORY))).isEqualTo(NODE_TARGET);
        assertThat(ElasticsearchProcess.locateNodeTarget(List.of(REPOSITORY.resolve("job").resolve("target"))))
                .isEqualTo(NODE_TARGET);
        assertThat(ElasticsearchProcess.nodeClasspath())
                .containsExactly(NODE_TARGET.resolve("classes").toString(), NODE_TARGET.resolve("lib") + "/*");
    }

    @Test
    void shouldSayHowToBuildTheNodeWhenItIsMissing() {
        // Outside the repository (a temp dir would be under target/, inside it).
        Path elsewhere = REPOSITORY.getRoot();
        assertThatThrownBy(() -> ElasticsearchProcess.locateNodeTarget(List.of(elsewhere)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the local Elasticsearch node is not built")
                .hasMessageContaining("mvn -pl elasticsearch-node -am package");
    }
}
