package io.tributary.hadoop.input;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a job's delegation token alive while the job runs: renews it, logged in as the submitter, every half of its
 * expiry period (the brokers' {@code delegation.token.expiry.time.ms}), so that a job may run as long as the token's
 * max lifetime ({@code delegation.token.max.lifetime.ms}, a week by default) instead of a day. A failed renewal is
 * logged and tried again at the next turn.
 */
public final class TokenRenewal implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TokenRenewal.class);
    private static final long ADMIN_TIMEOUT_MS = 60_000;
    private static final long MIN_PERIOD_MS = 1_000;

    private final DelegationToken token;
    private final Admin admin;
    private final ScheduledExecutorService scheduler;

    private TokenRenewal(DelegationToken token, Admin admin) {
        this.token = token;
        this.admin = admin;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-token-renewal");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts renewing {@code token} with the login of {@code submitter}'s consumer settings. */
    public static TokenRenewal start(Configuration submitter, DelegationToken token) {
        TokenRenewal renewal = new TokenRenewal(token,
            Admin.create(InputConfig.adminProps(new InputConfig(submitter).consumerProps("tributary-token-renewal"))));
        long period = Math.max(MIN_PERIOD_MS, (token.tokenInfo().expiryTimestamp() - token.tokenInfo().issueTimestamp()) / 2);
        renewal.scheduler.scheduleWithFixedDelay(renewal::renew, period, period, TimeUnit.MILLISECONDS);
        return renewal;
    }

    private void renew() {
        try {
            long expiry = admin.renewDelegationToken(token.hmac()).expiryTimestamp().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            log.info("renewed delegation token {}: it expires at {}", token.tokenInfo().tokenId(), expiry);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("could not renew delegation token {} (tried again later): {}", token.tokenInfo().tokenId(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        admin.close();
    }
}
