package io.raglog.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.cli.chaos.Audit;
import io.raglog.cli.chaos.ChaosReport;
import io.raglog.cli.chaos.Delivery;
import io.raglog.cli.chaos.Rig;
import io.raglog.cli.chaos.SavepointRestore;
import io.raglog.job.JobSettings;
import java.time.Duration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A job upgrade mid-stream: stop with a savepoint while runs are open, start a fresh job from it. State carries over
 * through the stable operator uids: the open runs complete with the calls both jobs read, and every run comes out
 * once.
 */
@ExtendWith(SharedServices.class)
class SavepointRestoreTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @Test
    void shouldCompleteTheRunsOpenAtTheSavepointInTheRestoredJob(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Rig rig = new Rig(cluster, 1, SharedServices.kafka(), null, SharedServices.work());
        JobSettings offline = JobSettings.defaults().withChecks(ChecksSettings.defaults());

        ChaosReport report = SavepointRestore.run(rig,
                new SavepointRestore.Settings(40, 17, 2, offline, Duration.ofMinutes(5)));
        System.out.print(report.describe());

        Delivery open = report.delivery("runs open at the savepoint, completed after it");
        assertThat(open.expected()).as("runs open at the savepoint").isPositive();
        assertThat(open.exact()).as(open.toString()).isTrue();
        for (String output : new String[] {Audit.RUNS, Audit.VERDICTS, Audit.FAULTS, Audit.DEAD_LETTERS}) {
            Delivery d = report.delivery(output);
            assertThat(d.exact()).as(d.toString()).isTrue();
        }
    }
}
