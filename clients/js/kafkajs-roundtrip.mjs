// Produces records with kafkajs, then reads them back with a kafkajs consumer group; prints a JSON
// summary on stdout. Used by KafkajsIT.
//   node kafkajs-roundtrip.mjs <bootstrap> <topic> <count> [gzip|none]
// Security, if set: KAFKAJS_SSL_CA (a PEM file the broker's certificate is checked against), KAFKAJS_SASL_MECHANISM
// (plain, scram-sha-256, scram-sha-512) with KAFKAJS_SASL_USERNAME and KAFKAJS_SASL_PASSWORD.
import fs from 'node:fs';
import kafkajs from 'kafkajs';

const { Kafka, CompressionTypes, logLevel } = kafkajs;
const [bootstrap, topic, countArg, codec = 'none'] = process.argv.slice(2);
const count = Number(countArg);
const compression = codec === 'gzip' ? CompressionTypes.GZIP : CompressionTypes.None;

const env = process.env;
const ssl = env.KAFKAJS_SSL_CA ? { ca: [fs.readFileSync(env.KAFKAJS_SSL_CA, 'utf8')] } : undefined;
const sasl = env.KAFKAJS_SASL_MECHANISM
  ? { mechanism: env.KAFKAJS_SASL_MECHANISM, username: env.KAFKAJS_SASL_USERNAME, password: env.KAFKAJS_SASL_PASSWORD }
  : undefined;
const kafka = new Kafka({ clientId: 'kafkajs-it', brokers: [bootstrap], logLevel: logLevel.ERROR, retry: { retries: 5 }, ssl, sasl });

async function produce() {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
  await producer.connect();
  const offsets = [];
  for (let start = 0; start < count; start += 100) {
    const messages = [];
    for (let i = start; i < Math.min(count, start + 100); i++) {
      messages.push({ key: `key-${i}`, value: `value-${i}`, headers: { n: `${i}` } });
    }
    const result = await producer.send({ topic, messages, compression, acks: -1 });
    offsets.push(...result.map((r) => Number(r.baseOffset)));
  }
  await producer.disconnect();
  return offsets;
}

async function consume() {
  const consumer = kafka.consumer({ groupId: `kafkajs-it-${topic}`, sessionTimeout: 10000, heartbeatInterval: 1000 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const seen = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`read ${seen.length} of ${count} records in time`)), 60000);
    consumer.run({
      eachMessage: async ({ message }) => {
        seen.push({ key: message.key.toString(), value: message.value.toString(), n: message.headers.n.toString() });
        if (seen.length >= count) {
          clearTimeout(timer);
          resolve();
        }
      },
    }).catch(reject);
  });
  await consumer.disconnect();
  return seen;
}

try {
  const offsets = await produce();
  const seen = await consume();
  console.log(JSON.stringify({ produced: offsets.length, firstOffset: offsets[0], consumed: seen.length, records: seen }));
  process.exit(0);
} catch (error) {
  console.error(error.stack || String(error));
  process.exit(1);
}
