package io.tributary.chaos.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import io.tributary.chaos.load.Ack;

/**
 * Compares the acknowledgements with the log: every acknowledged record present exactly once, at
 * the offset its acknowledgement named; within a partition each producer's records in the order
 * it sent them; nothing that no producer sent. Payloads are {@code <source>-<sequence>}.
 */
public final class AckChecker {
    private static final int EXAMPLES = 10;

    private AckChecker() {
    }

    public static AckFindings check(List<Ack> acks, Map<Integer, List<StoredRecord>> log, Predicate<String> wasSent) {
        List<String> examples = new ArrayList<>();
        Map<Integer, Map<String, List<Long>>> offsetsByPayload = new HashMap<>();
        int duplicated = 0;
        int outOfOrder = 0;
        int neverSent = 0;
        for (Map.Entry<Integer, List<StoredRecord>> partition : log.entrySet()) {
            Map<String, List<Long>> offsets = new HashMap<>();
            Map<String, Long> lastSequence = new HashMap<>();
            for (StoredRecord record : partition.getValue()) {
                List<Long> at = offsets.computeIfAbsent(record.payload(), p -> new ArrayList<>());
                at.add(record.offset());
                if (at.size() > 1) {
                    duplicated++;
                    note(examples, "duplicate " + record.payload() + " in partition " + partition.getKey() + " at " + at);
                }
                if (!wasSent.test(record.payload())) {
                    neverSent++;
                    note(examples, "never sent: " + record.payload() + " at " + partition.getKey() + "/" + record.offset());
                    continue;
                }
                String source = source(record.payload());
                long sequence = sequence(record.payload());
                Long previous = lastSequence.put(source, sequence);
                if (previous != null && previous > sequence) {
                    outOfOrder++;
                    note(examples, record.payload() + " stored after " + source + "-" + previous + " in partition " + partition.getKey());
                }
            }
            offsetsByPayload.put(partition.getKey(), offsets);
        }
        int lost = 0;
        int moved = 0;
        for (Ack ack : acks) {
            List<Long> at = offsetsByPayload.getOrDefault(ack.partition(), Map.of()).get(ack.payload());
            if (at == null) {
                lost++;
                note(examples, "lost: " + ack.payload() + " acknowledged at " + ack.partition() + "/" + ack.offset());
            } else if (!at.contains(ack.offset())) {
                moved++;
                note(examples, "moved: " + ack.payload() + " acknowledged at " + ack.partition() + "/" + ack.offset() + ", stored at " + at);
            }
        }
        return new AckFindings(acks.size(), lost, moved, duplicated, outOfOrder, neverSent, List.copyOf(examples));
    }

    private static String source(String payload) {
        return payload.substring(0, payload.lastIndexOf('-'));
    }

    private static long sequence(String payload) {
        return Long.parseLong(payload.substring(payload.lastIndexOf('-') + 1));
    }

    private static void note(List<String> examples, String example) {
        if (examples.size() < EXAMPLES) {
            examples.add(example);
        }
    }
}
