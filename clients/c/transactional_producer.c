/*
 * librdkafka's transactional producer, for the integration tests (kcat cannot run transactions).
 *
 *   transactional_producer BOOTSTRAP TRANSACTIONAL_ID TOPIC GROUP TRANSACTIONS RECORDS
 *
 * Runs TRANSACTIONS transactions of RECORDS records each, alternately committed and aborted, starting with a commit:
 * the records of transaction t are "committed-t-i" or "aborted-t-i", all delivered before the commit or abort. Each transaction also sends the offset t + 1 of
 * partition 0 of TOPIC to the transaction for consumer group GROUP (AddOffsetsToTxn and TxnOffsetCommit). Exits 0
 * once all are done; on an error prints it and exits 1.
 *
 * Build: cc -o transactional_producer transactional_producer.c $(pkg-config --cflags --libs rdkafka)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>

#define TIMEOUT_MS 30000

static int fail(const char *what, rd_kafka_error_t *error) {
    fprintf(stderr, "%s: %s\n", what, rd_kafka_error_string(error));
    rd_kafka_error_destroy(error);
    return 1;
}

static int set(rd_kafka_conf_t *conf, const char *name, const char *value) {
    char errstr[512];
    if (rd_kafka_conf_set(conf, name, value, errstr, sizeof(errstr)) != RD_KAFKA_CONF_OK) {
        fprintf(stderr, "%s: %s\n", name, errstr);
        return 1;
    }
    return 0;
}

/* Each record's delivery report: a failed one fails the run (the transaction would abort anyway). */
static int delivery_failures = 0;

static void on_delivery(rd_kafka_t *producer, const rd_kafka_message_t *message, void *opaque) {
    (void) producer;
    (void) opaque;
    if (message->err) {
        fprintf(stderr, "delivery failed: %s\n", rd_kafka_err2str(message->err));
        delivery_failures++;
    }
}

/* One transaction: its records, the group's offset, then the commit or the abort. */
static int run_transaction(rd_kafka_t *producer, const char *topic, rd_kafka_consumer_group_metadata_t *group,
                           int transaction, int records) {
    int commit = transaction % 2 == 0;
    rd_kafka_error_t *error = rd_kafka_begin_transaction(producer);
    if (error) {
        return fail("begin_transaction", error);
    }
    for (int i = 0; i < records; i++) {
        char value[64];
        snprintf(value, sizeof(value), "%s-%d-%d", commit ? "committed" : "aborted", transaction, i);
        rd_kafka_resp_err_t err = rd_kafka_producev(producer, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(0),
                RD_KAFKA_V_VALUE(value, strlen(value)), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
        if (err) {
            fprintf(stderr, "produce: %s\n", rd_kafka_err2str(err));
            return 1;
        }
    }
    rd_kafka_topic_partition_list_t *offsets = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(offsets, topic, 0)->offset = transaction + 1;
    error = rd_kafka_send_offsets_to_transaction(producer, offsets, group, TIMEOUT_MS);
    rd_kafka_topic_partition_list_destroy(offsets);
    if (error) {
        return fail("send_offsets_to_transaction", error);
    }
    /* Every record is in the log before the transaction ends, so an abort has records to hide (instead of purging
     * them from the queue). */
    rd_kafka_resp_err_t flushed = rd_kafka_flush(producer, TIMEOUT_MS);
    if (flushed) {
        fprintf(stderr, "flush: %s\n", rd_kafka_err2str(flushed));
        return 1;
    }
    error = commit ? rd_kafka_commit_transaction(producer, TIMEOUT_MS) : rd_kafka_abort_transaction(producer, TIMEOUT_MS);
    if (error) {
        return fail(commit ? "commit_transaction" : "abort_transaction", error);
    }
    return delivery_failures > 0;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s BOOTSTRAP TRANSACTIONAL_ID TOPIC GROUP TRANSACTIONS RECORDS\n", argv[0]);
        return 2;
    }
    const char *topic = argv[3];
    int transactions = atoi(argv[5]);
    int records = atoi(argv[6]);

    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    if (set(conf, "bootstrap.servers", argv[1]) || set(conf, "transactional.id", argv[2])) {
        return 2;
    }
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    char errstr[512];
    rd_kafka_t *producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
    if (!producer) {
        fprintf(stderr, "rd_kafka_new: %s\n", errstr);
        return 1;
    }
    rd_kafka_consumer_group_metadata_t *group = rd_kafka_consumer_group_metadata_new(argv[4]);
    int failed = 0;
    rd_kafka_error_t *error = rd_kafka_init_transactions(producer, TIMEOUT_MS);
    if (error) {
        failed = fail("init_transactions", error);
    }
    for (int t = 0; t < transactions && !failed; t++) {
        failed = run_transaction(producer, topic, group, t, records);
    }
    rd_kafka_consumer_group_metadata_destroy(group);
    rd_kafka_destroy(producer);
    if (!failed) {
        printf("%d transactions done\n", transactions);
    }
    return failed;
}
