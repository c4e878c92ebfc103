// Runs several kafkajs consumers in one group until they have read <count> records between them,
// then leaves the group; prints a JSON summary of who read what. Used by ClientGroupsIT.
//   node kafkajs-group.mjs <bootstrap> <topic> <group> <count> <members>
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;
const [bootstrap, topic, groupId, countArg, membersArg] = process.argv.slice(2);
const count = Number(countArg);
const kafka = new Kafka({ clientId: 'kafkajs-group-it', brokers: [bootstrap], logLevel: logLevel.ERROR, retry: { retries: 8 } });

const records = [];
const assignments = {};
let done;
const finished = new Promise((resolve) => { done = resolve; });

async function startMember(name) {
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 500, rebalanceTimeout: 20000 });
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    assignments[name] = event.payload.memberAssignment[topic] || [];
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    autoCommitInterval: 200,
    eachMessage: async ({ partition, message }) => {
      records.push({ member: name, partition, offset: Number(message.offset) });
      if (records.length >= count) {
        done();
      }
    },
  });
  return consumer;
}

try {
  const members = [];
  for (let i = 0; i < Number(membersArg); i++) {
    members.push(await startMember(`m${i}`));
  }
  const timer = setTimeout(() => { throw new Error(`read ${records.length} of ${count} records in time`); }, 90000);
  await finished;
  clearTimeout(timer);
  for (const member of members) {
    await member.disconnect();
  }
  console.log(JSON.stringify({ records, assignments }));
  process.exit(0);
} catch (error) {
  console.error(error.stack || String(error));
  process.exit(1);
}
