package io.tributary.chaos.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.tributary.chaos.process.ChildJvm;

/**
 * Reads the brokers' logs for the moments each became leader ({@code <topic>-<p>: leader at epoch
 * <e>}) and finds two kinds of trouble: two brokers leading one partition at the same epoch (split
 * brain), and a restarted broker leading at an epoch its previous process already led at — an
 * epoch the controller gave before the current registration, which Kafka's rules forbid. A
 * process begins at {@link ChildJvm#START_MARKER}.
 */
public final class SplitBrainDetector {
    private static final Pattern LEADER = Pattern.compile(": (\\S+-\\d+): leader at epoch (\\d+)");
    private static final String PROCESS_START = ChildJvm.START_MARKER;

    private SplitBrainDetector() {
    }

    /** What the logs show. */
    public record Findings(int splitBrains, int staleEpochLeaderships, int claims, List<String> examples) {
        public boolean clean() {
            return splitBrains == 0 && staleEpochLeaderships == 0;
        }
    }

    /** @param brokerLogs the log file of each broker, by broker id */
    public static Findings check(Map<Integer, Path> brokerLogs, String topic) {
        List<LeadershipClaim> claims = new ArrayList<>();
        brokerLogs.forEach((broker, log) -> claims.addAll(claims(broker, log, topic)));
        Map<String, Set<Integer>> brokersByEpoch = new HashMap<>();
        Map<String, Map<Integer, Set<Integer>>> incarnationsByEpoch = new HashMap<>();
        for (LeadershipClaim claim : claims) {
            String key = claim.partition() + " epoch " + claim.epoch();
            brokersByEpoch.computeIfAbsent(key, k -> new HashSet<>()).add(claim.broker());
            incarnationsByEpoch.computeIfAbsent(key, k -> new HashMap<>())
                    .computeIfAbsent(claim.broker(), b -> new HashSet<>()).add(claim.incarnation());
        }
        List<String> examples = new ArrayList<>();
        int splitBrains = 0;
        for (Map.Entry<String, Set<Integer>> entry : brokersByEpoch.entrySet()) {
            if (entry.getValue().size() > 1) {
                splitBrains++;
                examples.add(entry.getKey() + ": led by brokers " + entry.getValue());
            }
        }
        int stale = 0;
        for (Map.Entry<String, Map<Integer, Set<Integer>>> entry : incarnationsByEpoch.entrySet()) {
            for (Map.Entry<Integer, Set<Integer>> broker : entry.getValue().entrySet()) {
                if (broker.getValue().size() > 1) {
                    stale += broker.getValue().size() - 1;
                    examples.add(entry.getKey() + ": led by broker " + broker.getKey() + " again after a restart ("
                            + broker.getValue().size() + " processes)");
                }
            }
        }
        return new Findings(splitBrains, stale, claims.size(), List.copyOf(examples.subList(0, Math.min(10, examples.size()))));
    }

    private static List<LeadershipClaim> claims(int broker, Path log, String topic) {
        List<LeadershipClaim> claims = new ArrayList<>();
        int incarnation = 0;
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
                if (line.contains(PROCESS_START)) {
                    incarnation++;
                }
                Matcher leader = LEADER.matcher(line);
                if (leader.find() && leader.group(1).startsWith(topic + "-")) {
                    claims.add(new LeadershipClaim(broker, incarnation, leader.group(1), Integer.parseInt(leader.group(2))));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return claims;
    }
}
