// The dead-letter topic by hand (docs/runbook.md, docs/adr/0018), in a checkout:
//   npm run deadletter -- list [--group G]
//   npm run deadletter -- replay (--offset [P:]N | --all) [--group G]
// Kafka comes from KAFKA_BROKERS (and KAFKA_TOPIC_PREFIX, KAFKA_SSL*, KAFKA_SASL_*) when set, as
// in production; otherwise from the local stack (scripts/lib/stack-config.mjs). In an image the
// same command is `node current/dist/deadletter.js` (packages/kit/src/deadletter-cli.ts).
import { deadLetterCli } from '../packages/kit/src/deadletter-cli.ts';
import { stackUrls } from './lib/stack-config.mjs';

const source = { ...process.env };
if (!source.KAFKA_BROKERS) source.KAFKA_BROKERS = stackUrls().kafkaBrokers.join(',');
deadLetterCli(process.argv.slice(2), source);
