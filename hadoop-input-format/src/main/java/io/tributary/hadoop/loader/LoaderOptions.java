package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetTopicName;
import io.tributary.hadoop.dataset.MissingPolicy;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.ValueFormat;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.input.StartPosition;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The loader's own command-line options (ToolRunner has already taken -D, -conf, -libjars and
 * -files), each mapped to one job configuration key. Validated at parse time so a typo fails
 * before anything connects anywhere.
 */
record LoaderOptions(Map<String, String> settings, String valueSchemaFile, boolean dryRun) {
    static final String USAGE = String.join("\n",
        "usage: tributary-loader [generic Hadoop options] --bootstrap-server H:P --topic T --output DIR_OR_URI [options]",
        "  --start POS                 ledger (default), earliest, latest, group:<id>, timestamp:<ms|ISO-8601>,",
        "                              offsets:<p>=<o>,...",
        "  --value-schema FILE         Avro record schema (.avsc, local or Hadoop path) to decode values into columns",
        "  --value-format avro|json    encoding of values with --value-schema (default avro binary)",
        "  --timezone ZONE             time zone of the dt=/hr= buckets (default UTC)",
        "  --codec NAME                Parquet codec: snappy (default), zstd, gzip, uncompressed, ...",
        "  --on-missing fail|skip      records lost to retention: fail (default) or skip and write a report",
        "  --split-max-records N       at most N offsets per split (default " + InputConfig.DEFAULT_SPLIT_MAX_RECORDS + ")",
        "  --split-max-bytes N         at most about N bytes per split (sampled record sizes; default off)",
        "  --min-maps N / --max-maps N at least / at most N map tasks (default: no bound)",
        "  --tiered-storage URI        the brokers' remote.log.storage.hdfs.uri: read what is tiered straight from there",
        "                              (only the rest through the brokers; with the brokers down, what is tiered)",
        "  --command-config FILE       kafka-clients settings for the loader's consumers (security.protocol, ssl.*,",
        "                              sasl.*), as in Kafka's tools; each becomes a tributary.consumer.<key> setting",
        "  --delegation-token          the tasks log in with a Kafka delegation token made for this load (needs a",
        "                              SASL login in --command-config, which then stays out of the job's settings)",
        "  --dry-run                   print the plan, split by split, and exit without loading",
        "generic options: -D key=value, -conf FILE, -libjars JARS, -files FILES (see hadoop jar)");

    private static final Map<String, String> KEYS = Map.ofEntries(
        Map.entry("--bootstrap-server", InputConfig.BOOTSTRAP_SERVERS),
        Map.entry("--topic", InputConfig.TOPIC),
        Map.entry("--output", InputConfig.DATASET),
        Map.entry("--start", InputConfig.START),
        Map.entry("--value-format", LoaderConfig.VALUE_FORMAT),
        Map.entry("--timezone", LoaderConfig.TIMEZONE),
        Map.entry("--codec", LoaderConfig.PARQUET_CODEC),
        Map.entry("--on-missing", InputConfig.ON_MISSING),
        Map.entry("--split-max-records", InputConfig.SPLIT_MAX_RECORDS),
        Map.entry("--split-max-bytes", InputConfig.SPLIT_MAX_BYTES),
        Map.entry("--min-maps", InputConfig.SPLIT_MIN_MAPS),
        Map.entry("--max-maps", InputConfig.SPLIT_MAX_MAPS),
        Map.entry("--tiered-storage", InputConfig.TIERED_STORAGE));
    private static final String DRY_RUN = "--dry-run";
    private static final String DELEGATION_TOKEN = "--delegation-token";
    private static final String COMMAND_CONFIG = "--command-config";

    static LoaderOptions parse(String[] args) {
        Map<String, String> settings = new LinkedHashMap<>();
        String schemaFile = null;
        boolean dryRun = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals(DRY_RUN)) {
                dryRun = true;
                continue;
            }
            if (option.equals(DELEGATION_TOKEN)) {
                settings.put(LoaderConfig.DELEGATION_TOKEN, "true");
                continue;
            }
            boolean known = KEYS.containsKey(option) || option.equals("--value-schema") || option.equals(COMMAND_CONFIG);
            if (i + 1 >= args.length || !known) {
                throw new IllegalArgumentException(known ? option + " needs a value" : "unknown option '" + option + "'");
            }
            String value = args[++i];
            if (option.equals("--value-schema")) {
                schemaFile = value;
            } else if (option.equals(COMMAND_CONFIG)) {
                clientSettings(value).forEach((key, setting) -> settings.put(InputConfig.CONSUMER_PREFIX + key, setting));
            } else {
                settings.put(KEYS.get(option), value);
            }
        }
        for (String required : new String[] {"--bootstrap-server", "--topic", "--output"}) {
            if (!settings.containsKey(KEYS.get(required))) {
                throw new IllegalArgumentException("missing " + required);
            }
        }
        validate(settings);
        return new LoaderOptions(Map.copyOf(settings), schemaFile, dryRun);
    }

    /** The properties of a {@code --command-config} file. */
    private static Map<String, String> clientSettings(String file) {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Paths.get(file), StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no " + COMMAND_CONFIG + " file " + file, e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + COMMAND_CONFIG + " " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(key -> settings.put(key, properties.getProperty(key).strip()));
        return settings;
    }

    private static void validate(Map<String, String> s) {
        DatasetTopicName.problem(s.get(InputConfig.TOPIC)).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        if (s.containsKey(InputConfig.START)) {
            StartPosition.parse(s.get(InputConfig.START));
        }
        if (s.containsKey(InputConfig.ON_MISSING)) {
            MissingPolicy.parse(InputConfig.ON_MISSING, s.get(InputConfig.ON_MISSING));
        }
        if (s.containsKey(LoaderConfig.VALUE_FORMAT)) {
            ValueFormat.parse(s.get(LoaderConfig.VALUE_FORMAT));
        }
        if (s.containsKey(LoaderConfig.PARQUET_CODEC)) {
            ParquetWriterFactory.codec(s.get(LoaderConfig.PARQUET_CODEC));
        }
        for (String key : new String[] {InputConfig.SPLIT_MAX_RECORDS, InputConfig.SPLIT_MAX_BYTES, InputConfig.SPLIT_MIN_MAPS,
            InputConfig.SPLIT_MAX_MAPS}) {
            if (s.containsKey(key)) {
                try {
                    Long.parseLong(s.get(key));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a number: '" + s.get(key) + "' for " + key, e);
                }
            }
        }
        Configuration limits = new Configuration(false);
        s.forEach(limits::set);
        new InputConfig(limits).splitLimits(); // min over max, negative sizes
    }

    /** Puts every option into {@code conf}, over what -D or -conf set. */
    void applyTo(Configuration conf) {
        settings.forEach(conf::set);
    }
}
