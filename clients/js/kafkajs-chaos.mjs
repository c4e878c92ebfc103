// An idempotent acks=all kafkajs producer (one request in flight) for the fault suite (chaos/):
// sends batches of 10 records `kafkajs-<n>` to the partitions in turn until stdin closes, and
// prints one JSON line per event on stdout:
//   {"send":{"p":0,"values":[...]}}   before a batch goes out
//   {"ack":{"p":0,"base":123}}        the batch is acknowledged; values[i] is at offset base+i
//   {"error":{"name":...,"retriable":true,"message":...}}   the batch failed after kafkajs' retries
//   node kafkajs-chaos.mjs <bootstrap,...> <topic> <partitions>
import kafkajs from 'kafkajs';
import readline from 'node:readline';

const { Kafka, logLevel } = kafkajs;
const [bootstrap, topic, partitionsArg] = process.argv.slice(2);
const partitions = Number(partitionsArg);
const print = (event) => process.stdout.write(JSON.stringify(event) + '\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let stopping = false;
readline.createInterface({ input: process.stdin }).on('close', () => { stopping = true; });

const kafka = new Kafka({
  clientId: 'chaos-kafkajs', brokers: bootstrap.split(','), logLevel: logLevel.NOTHING,
  connectionTimeout: 3000, requestTimeout: 10000,
  // About 60 s of retries: a send outlives the longest fault (ZooKeeper away for 30 s).
  retry: { retries: 25, initialRetryTime: 200, maxRetryTime: 3000 },
});

// After its retries kafkajs wraps the last error in KafkaJSNumberOfRetriesExceeded (never retriable
// itself): report the error the broker or network gave, which is what the suite judges.
function describe(error) {
  const cause = error.name === 'KafkaJSNumberOfRetriesExceeded' && error.cause ? error.cause : error;
  return { name: cause.name || 'Error', retriable: cause.retriable === true, message: String(cause.message) };
}

async function connected() {
  while (!stopping) {
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    try {
      await producer.connect();
      return producer;
    } catch (error) {
      print({ error: describe(error) });
      await sleep(500);
    }
  }
  return null;
}

let producer = await connected();
let sequence = 0;
for (let batch = 0; producer && !stopping; batch++) {
  const p = batch % partitions;
  const values = [];
  for (let i = 0; i < 10; i++) values.push(`kafkajs-${sequence++}`);
  print({ send: { p, values } });
  try {
    const result = await producer.send({ topic, acks: -1, timeout: 10000, messages: values.map((value) => ({ value, partition: p })) });
    print({ ack: { p, base: Number(result[0].baseOffset) } });
  } catch (error) {
    print({ error: describe(error) });
    await sleep(200);
  }
  await sleep(25);
}
if (producer) await producer.disconnect().catch(() => {});
process.exit(0);
