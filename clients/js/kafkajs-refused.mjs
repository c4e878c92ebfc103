// What kafkajs must be refused, tried with the security settings of kafkajs-roundtrip.mjs (KAFKAJS_SSL_CA,
// KAFKAJS_SASL_MECHANISM, KAFKAJS_SASL_USERNAME, KAFKAJS_SASL_PASSWORD); prints a JSON object with, for each attempt, the
// error kafkajs reported ({name, type: the broker's error, message}), or null if nothing was refused. Used by
// SecureClientToolsIT.
//   node kafkajs-refused.mjs <bootstrap> <topic the user may not write> <topic the user may read> <group the user may not use>
// Attempts: wrongPassword and unknownUser (an admin connects with the password or the user name altered),
// topicWithoutAcl (a producer writes the first topic), groupWithoutAcl (a consumer in that group reads the second topic).
import fs from 'node:fs';
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;
const [bootstrap, forbiddenTopic, readableTopic, forbiddenGroup] = process.argv.slice(2);
const env = process.env;
const ssl = env.KAFKAJS_SSL_CA ? { ca: [fs.readFileSync(env.KAFKAJS_SSL_CA, 'utf8')] } : undefined;

// Error types the brokers answered with, as kafkajs logs them where it does not pass them on (a FindCoordinator refusal
// becomes "Failed to find group coordinator").
const brokerErrors = [];
const logCreator = () => ({ log }) => {
  if (log.error && log.error.type) {
    brokerErrors.push(log.error.type);
  }
};

function client(username, password) {
  const sasl = { mechanism: env.KAFKAJS_SASL_MECHANISM, username, password };
  return new Kafka({ clientId: 'kafkajs-refused', brokers: [bootstrap], logLevel: logLevel.DEBUG, logCreator, retry: { retries: 0 },
    ssl, sasl });
}

// kafkajs wraps a broker's error in a KafkaJSNonRetriableError (the broker's own, with its type, is the cause) or
// only logs it: the type is the cause's, or else the last one logged during the attempt.
async function attempt(action) {
  brokerErrors.length = 0;
  try {
    await action();
    return null;
  } catch (error) {
    const broker = error.cause || error;
    return { name: error.name, type: broker.type || brokerErrors.at(-1) || null, message: broker.message };
  }
}

async function connectAdmin(kafka) {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
}

async function produce(kafka) {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic: forbiddenTopic, messages: [{ value: 'forged' }], acks: -1 });
  } finally {
    await producer.disconnect();
  }
}

async function consume(kafka) {
  const consumer = kafka.consumer({ groupId: forbiddenGroup, retry: { retries: 0 } });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: readableTopic, fromBeginning: true });
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(), 30000);
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        clearTimeout(timer);
        reject(payload.error);
      });
      consumer.run({ restartOnFailure: async () => false, eachMessage: async () => {} }).catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
}

const user = env.KAFKAJS_SASL_USERNAME;
const password = env.KAFKAJS_SASL_PASSWORD;
const result = {
  wrongPassword: await attempt(() => connectAdmin(client(user, `wrong-${password}`))),
  unknownUser: await attempt(() => connectAdmin(client(`unknown-${user}`, password))),
  topicWithoutAcl: await attempt(() => produce(client(user, password))),
  groupWithoutAcl: await attempt(() => consume(client(user, password))),
};
console.log(JSON.stringify(result));
process.exit(0);
