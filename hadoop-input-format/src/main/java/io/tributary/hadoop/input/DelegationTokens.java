package io.tributary.hadoop.input;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka delegation tokens (KIP-48) for a job's tasks, as Spark uses them. At submission, logged in as the submitter
 * (SCRAM, PLAIN or Kerberos), {@link #obtain} creates a token and puts it in the job's credentials, which Hadoop hands
 * to the tasks privately, and takes the submitter's login ({@code sasl.jaas.config}) out of the job's configuration,
 * which whoever may read the job's files can read. The tasks' consumers then log in with the token: SCRAM with
 * {@code tokenauth=true}, the token id as user name and its HMAC as password. The token lives until {@link #expire}
 * or the brokers' {@code delegation.token.expiry.time.ms} (a day by default): a job must finish within it.
 */
public final class DelegationTokens {
    private static final Logger log = LoggerFactory.getLogger(DelegationTokens.class);
    /** The secret keys of the job's credentials that hold the token. */
    static final Text TOKEN_ID = new Text("tributary.kafka.delegation.token.id");
    static final Text TOKEN_HMAC = new Text("tributary.kafka.delegation.token.hmac");
    private static final long ADMIN_TIMEOUT_MS = 60_000;

    private DelegationTokens() {
    }

    /**
     * Creates a token with the login of {@code submitter}'s consumer settings, for {@code job}'s tasks to log in with.
     *
     * @throws IOException with a message for the user if the brokers refuse or cannot be reached
     */
    public static DelegationToken obtain(Configuration submitter, Job job) throws IOException {
        InputConfig config = new InputConfig(submitter);
        Map<String, Object> login = config.consumerProps("tributary-token");
        String protocol = String.valueOf(login.getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT"));
        if (!protocol.toUpperCase(Locale.ROOT).startsWith("SASL_")) {
            throw new IOException("a delegation token needs a SASL login (security.protocol SASL_SSL or SASL_PLAINTEXT in "
                + InputConfig.CONSUMER_PREFIX + "*), not " + protocol);
        }
        DelegationToken token;
        try (Admin admin = Admin.create(InputConfig.adminProps(login))) {
            token = admin.createDelegationToken().delegationToken().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IOException("the brokers refused a delegation token: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("no delegation token from the brokers at " + config.bootstrapServers() + " within "
                + ADMIN_TIMEOUT_MS + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating a delegation token", e);
        }
        Credentials credentials = job.getCredentials();
        credentials.addSecretKey(TOKEN_ID, token.tokenInfo().tokenId().getBytes(StandardCharsets.UTF_8));
        credentials.addSecretKey(TOKEN_HMAC, token.hmacAsBase64String().getBytes(StandardCharsets.UTF_8));
        job.getConfiguration().unset(InputConfig.CONSUMER_PREFIX + SaslConfigs.SASL_JAAS_CONFIG);
        log.info("the job's tasks log in with delegation token {} of {}, expiring at {}", token.tokenInfo().tokenId(),
            token.tokenInfo().owner(), token.tokenInfo().expiryTimestamp());
        return token;
    }

    /** Expires {@code token} at once (the job is over); a failure is logged, the token then lapses by itself. */
    public static void expire(Configuration submitter, DelegationToken token) {
        try (Admin admin = Admin.create(InputConfig.adminProps(new InputConfig(submitter).consumerProps("tributary-token")))) {
            admin.expireDelegationToken(token.hmac()).expiryTimestamp().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("could not expire delegation token {} (it lapses at {}): {}", token.tokenInfo().tokenId(),
                token.tokenInfo().expiryTimestamp(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The login settings of a task whose job carries a token ({@code conf} is the task's {@link JobConf}, which holds
     * the job's credentials; otherwise the current user's); empty without one.
     */
    static Optional<Map<String, Object>> tokenLogin(Configuration conf, String mechanism) {
        Credentials credentials = credentials(conf);
        byte[] id = credentials.getSecretKey(TOKEN_ID);
        byte[] hmac = credentials.getSecretKey(TOKEN_HMAC);
        if (id == null || hmac == null) {
            return Optional.empty();
        }
        String jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
            + new String(id, StandardCharsets.UTF_8) + "\" password=\"" + new String(hmac, StandardCharsets.UTF_8)
            + "\" tokenauth=true;";
        return Optional.of(Map.of(SaslConfigs.SASL_MECHANISM, mechanism, SaslConfigs.SASL_JAAS_CONFIG, jaas));
    }

    private static Credentials credentials(Configuration conf) {
        if (conf instanceof JobConf job) {
            return job.getCredentials();
        }
        try {
            return UserGroupInformation.getCurrentUser().getCredentials();
        } catch (IOException e) {
            return new Credentials();
        }
    }
}
