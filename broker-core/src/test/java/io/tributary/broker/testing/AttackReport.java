package io.tributary.broker.testing;

import java.time.Duration;
import java.util.List;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The numbers docs/reliability.md reports for an attack test: the heap high-water mark of the test JVM
 * (broker and clients; the sum of the heap pools' peaks, so an upper bound) during the attack, and the good
 * producer's p99 with and without it. Printed, never asserted: speed is for benchmarks, not for tests.
 */
public final class AttackReport {
    private AttackReport() {
    }

    /**
     * Creates the topics "good" (for the traffic during the attack) and "quiet", runs {@code records} of good
     * traffic through "quiet" for the numbers without the attack, and starts a new heap high-water mark.
     */
    public static GoodTraffic.Result beforeTheAttack(String bootstrap, int records) throws Exception {
        try (Admin admin = Clients.admin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic("good", 1, (short) 1), new NewTopic("quiet", 1, (short) 1))).all().get();
        }
        GoodTraffic.Result without = GoodTraffic.start(bootstrap, "quiet", records, 20).finish(Duration.ofSeconds(60));
        resetHeapPeak();
        return without;
    }

    private static void resetHeapPeak() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    public static long heapPeakBytes() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }

    public static void print(String attack, GoodTraffic.Result without, GoodTraffic.Result during) {
        System.out.printf("ATTACK-REPORT %s: heap high-water %d MiB; good producer p99 %.1f ms without the attack, %.1f ms during it%n",
                attack, heapPeakBytes() >> 20, without.p99Micros() / 1000.0, during.p99Micros() / 1000.0);
    }
}
