/**
 * The dead-letter topic by hand (docs/runbook.md, docs/adr/0018): `list` and `replay`. One module
 * for both ways it runs: `npm run deadletter` in a checkout (scripts/deadletter.mjs, which fills in
 * the local stack's brokers), and `node current/dist/deadletter.js` in every subgraph's image, where
 * scripts/bundle.mjs builds it next to the service's bundle, so that an operator runs it in a pod
 * that already has the Kafka variables (TLS and SASL included) and no tsx.
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import {
  createIdempotentProducer,
  createKafka,
  formatDeadLetter,
  readDeadLetters,
  replayDeadLetters,
  selectDeadLetters,
} from '@challenge/events';
import { EnvError, kafkaEnv, kafkaSecurity, parseEnv } from './config.ts';

const USAGE = `usage: deadletter list [--group G]
       deadletter replay (--offset [P:]N | --all) [--group G]
(npm run deadletter -- ... in a checkout; node current/dist/deadletter.js ... in a subgraph's pod)`;

type Source = Record<string, string | undefined>;

async function run(args: string[], source: Source): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
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
  const env = parseEnv(kafkaEnv, source);
  const kafka = createKafka({
    clientId: 'deadletter-cli',
    brokers: env.KAFKA_BROKERS,
    logger: pino({ level: 'warn' }, pino.destination(2)),
    ...kafkaSecurity(env),
  });
  const topicPrefix = env.KAFKA_TOPIC_PREFIX;
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

/** Runs the command in `args` with the Kafka settings of `source`; exits with its status. */
export function deadLetterCli(args: string[], source: Source): void {
  run(args, source).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof EnvError) console.error(error.problems.join('\n'));
      else console.error(`deadletter: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
