// The dead-letter topic by hand (docs/runbook.md, docs/adr/0018):
//   npm run deadletter -- list [--group G]
//   npm run deadletter -- replay (--offset [P:]N | --all) [--group G]
// Kafka comes from KAFKA_BROKERS (and KAFKA_TOPIC_PREFIX, KAFKA_SSL*, KAFKA_SASL_*) when set, as
// in production; otherwise from the local stack (scripts/lib/stack-config.mjs).
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import {
  createIdempotentProducer,
  createKafka,
  formatDeadLetter,
  readDeadLetters,
  replayDeadLetters,
  selectDeadLetters,
} from '../packages/events/src/index.ts';
import { EnvError, kafkaEnv, kafkaSecurity, parseEnv } from '../packages/kit/src/config.ts';
import { stackUrls } from './lib/stack-config.mjs';

const USAGE = `usage: npm run deadletter -- list [--group G]
       npm run deadletter -- replay (--offset [P:]N | --all) [--group G]`;

function kafkaSettings() {
  const source = { ...process.env };
  if (!source.KAFKA_BROKERS) source.KAFKA_BROKERS = stackUrls().kafkaBrokers.join(',');
  const env = parseEnv(kafkaEnv, source);
  return { brokers: env.KAFKA_BROKERS, topicPrefix: env.KAFKA_TOPIC_PREFIX, ...kafkaSecurity(env) };
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      offset: { type: 'string' },
      all: { type: 'boolean', default: false },
      group: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command] = positionals;
  if (values.help || !['list', 'replay'].includes(command ?? '')) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === 'replay' && (values.offset === undefined) === !values.all) {
    console.error('replay needs exactly one of --offset [P:]N and --all\n' + USAGE);
    return 2;
  }
  const { brokers, topicPrefix, ...security } = kafkaSettings();
  const kafka = createKafka({
    clientId: 'deadletter-cli',
    brokers,
    logger: pino({ level: 'warn' }, pino.destination(2)),
    ...security,
  });
  const letters = await readDeadLetters(kafka, topicPrefix);
  if (command === 'list') {
    const selected = selectDeadLetters(letters, { group: values.group }, topicPrefix);
    for (const letter of selected) console.log(formatDeadLetter(letter));
    console.log(`${selected.length} dead letter(s) on ${topicPrefix}deadletter.v1`);
    return 0;
  }
  const selected = selectDeadLetters(
    letters,
    { offset: values.offset, all: values.all, group: values.group },
    topicPrefix,
  );
  const producer = createIdempotentProducer(kafka);
  await producer.connect();
  try {
    await replayDeadLetters(producer, selected);
  } finally {
    await producer.disconnect();
  }
  for (const letter of selected) console.log(`replayed ${formatDeadLetter(letter)}`);
  console.log(`${selected.length} dead letter(s) replayed`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof EnvError) console.error(error.problems.join('\n'));
    else console.error(`deadletter: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
