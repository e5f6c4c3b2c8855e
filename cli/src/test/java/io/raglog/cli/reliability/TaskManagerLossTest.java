package io.raglog.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.cli.chaos.Audit;
import io.raglog.cli.chaos.ChaosReport;
import io.raglog.cli.chaos.Rig;
import io.raglog.cli.chaos.TaskManagerLoss;
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
 * A task manager lost mid-stream, on a cluster of two with one slot each and a job two wide: the job restarts from
 * its last checkpoint and every simulated run still comes out exactly once, flagged ones in the debugging queue and
 * in Elasticsearch.
 */
@ExtendWith(SharedServices.class)
class TaskManagerLossTest {

    private static final int TASK_MANAGERS = 2;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(TASK_MANAGERS)
            .setNumberSlotsPerTaskManager(1)
            .build());

    @Test
    void shouldDeliverEveryRunExactlyOnceWhenATaskManagerIsLostMidStream(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Rig rig = new Rig(cluster, TASK_MANAGERS, SharedServices.kafka(), SharedServices.elasticsearch(),
                SharedServices.work());
        JobSettings offline = JobSettings.defaults().withChecks(ChecksSettings.defaults());

        // the traffic replayed twice as fast as it happened (a run every half second): the feed sets this test's
        // length. The loss is timed by committed verdicts: measured, it came with 79 % of the traffic written, and
        // after all of it on a machine loaded enough to slow the job's start
        ChaosReport report = TaskManagerLoss.run(rig,
                new TaskManagerLoss.Settings(40, 11, 1.0, 2.0, 1, TASK_MANAGERS, offline, true, Duration.ofMinutes(5)));
        System.out.print(report.describe());

        assertThat(report.failovers()).as("the loss hit the running job").isGreaterThanOrEqualTo(1);
        assertThat(report.delivery(Audit.RUNS)).satisfies(d -> assertThat(d.exact()).as(d.toString()).isTrue());
        assertThat(report.delivery(Audit.VERDICTS)).satisfies(d -> assertThat(d.exact()).as(d.toString()).isTrue());
        assertThat(report.delivery(Audit.FAULTS)).satisfies(d -> {
            assertThat(d.exact()).as(d.toString()).isTrue();
            assertThat(d.expected()).as("some runs flagged").isPositive();
        });
        assertThat(report.delivery(Audit.ES_FAULTS)).satisfies(d -> assertThat(d.exact()).as(d.toString()).isTrue());
        assertThat(report.delivery(Audit.DEAD_LETTERS).delivered()).isZero();
    }
}
