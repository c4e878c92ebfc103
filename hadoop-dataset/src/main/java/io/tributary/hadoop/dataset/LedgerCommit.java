package io.tributary.hadoop.dataset;

import org.apache.hadoop.fs.Path;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One writer's commit as the ledger knows it: the id its ledger version names
 * ({@code writer=<id>}), and the intent files that name the commit until it is finished or
 * dropped (the sink's {@code commit.intent} of each partition, the loader's {@code COMMITTING}).
 * While any of those files exists, the ledger keeps an exact answer to
 * {@link OffsetLedger#isCommitted} for this id (see {@link OffsetLedger#advance}).
 */
public record LedgerCommit(String id, List<Path> intents) {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    public LedgerCommit {
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a commit id is 1 to 200 letters, digits, '.', '_' or '-', not '" + id + "'");
        }
        intents = List.copyOf(intents);
    }
}
