package io.raglog.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.cli.chaos.Audit;
import io.raglog.cli.chaos.ChaosReport;
import io.raglog.cli.chaos.FeedbackUnderLoss;
import io.raglog.cli.chaos.Rig;
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
 * Feedback up to the join's whole wait late in event time, some before its verdict and some after, while a task
 * manager is lost: every feedback record is joined exactly once, and each run users disliked that raglog passed
 * reaches the debugging queue once.
 */
@ExtendWith(SharedServices.class)
class FeedbackUnderLossTest {

    private static final int TASK_MANAGERS = 2;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(TASK_MANAGERS)
            .setNumberSlotsPerTaskManager(1)
            .build());

    @Test
    void shouldJoinEveryFeedbackRecordExactlyOnceWhenATaskManagerIsLost(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Rig rig = new Rig(cluster, TASK_MANAGERS, SharedServices.kafka(), SharedServices.elasticsearch(),
                SharedServices.work());
        JobSettings offline = JobSettings.defaults().withChecks(ChecksSettings.defaults());

        ChaosReport report = FeedbackUnderLoss.run(rig,
                new FeedbackUnderLoss.Settings(30, 17, 1.0, 1.0, 1, TASK_MANAGERS, offline, Duration.ofMinutes(5)));
        System.out.print(report.describe());

        assertThat(report.failovers()).as("the loss hit the running job").isGreaterThanOrEqualTo(1);
        assertThat(report.delivery(FeedbackUnderLoss.JOINED)).satisfies(d -> {
            assertThat(d.exact()).as(d.toString()).isTrue();
            assertThat(d.expected()).isEqualTo(30);
        });
        assertThat(report.delivery(FeedbackUnderLoss.NOT_JOINED).delivered()).isZero();
        assertThat(report.delivery(FeedbackUnderLoss.DISLIKED_QUEUE)).satisfies(d -> {
            assertThat(d.exact()).as(d.toString()).isTrue();
            assertThat(d.expected()).as("some disliked runs raglog passed").isPositive();
        });
        assertThat(report.delivery(FeedbackUnderLoss.RAGLOG_QUEUE)).satisfies(d -> assertThat(d.exact())
                .as(d.toString()).isTrue());
        assertThat(report.delivery(Audit.VERDICTS)).satisfies(d -> assertThat(d.exact()).as(d.toString()).isTrue());
        assertThat(report.delivery(Audit.DEAD_LETTERS).delivered()).isZero();
        assertThat(report.exact()).as(report.describe()).isTrue();
    }
}
