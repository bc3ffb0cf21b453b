/**
 * A child process of upload.bench.ts hosting one server (media or the gateway), so that its
 * resident memory is measured apart from the client's and the other server's. It samples its
 * RSS every 20 ms and answers the peak over IPC.
 */
import { buildApp as buildMedia } from '@challenge/media/app';
import { startTestService, stack, uniqueTopicPrefix, useTestKeys } from '@challenge/testing';
import { startTestGateway } from '../support/gateway.ts';

type Command =
  | { kind: 'reset' }
  | { kind: 'peak' }
  | { kind: 'allow'; challengeId: string; challengedUserId: string }
  | { kind: 'stop' };

const [role, keys, mediaUrl] = process.argv.slice(2);
// The parent signs the tokens: verify with its key pair.
useTestKeys(JSON.parse(keys!));
let peak = process.memoryUsage.rss();
let baseline = peak;
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20).unref();

const send = (message: unknown) => process.send?.(message);

if (role === 'media') {
  const media = await startTestService(
    'media',
    (runtime, url) => buildMedia(runtime, url, { ...stack.s3, bucket: 'challenge-media-test' }),
    { topicPrefix: uniqueTopicPrefix() },
  );
  process.on('message', async (command: Command) => {
    if (command.kind === 'allow') {
      await media.app.db.challengeAccess.create({
        data: {
          challengeId: command.challengeId,
          ownerId: command.challengeId,
          challengedUserId: command.challengedUserId,
          status: 'accepted',
          visibility: 'public',
        },
      });
      send({ kind: 'allowed' });
    } else await common(command, () => media.stop());
  });
  send({ kind: 'ready', url: media.url });
} else {
  const gateway = await startTestGateway({ media: mediaUrl! });
  process.on('message', async (command: Command) => common(command, () => gateway.stop()));
  send({ kind: 'ready', url: gateway.url });
}

async function common(command: Command, stop: () => Promise<void>) {
  if (command.kind === 'reset') {
    global.gc?.();
    baseline = process.memoryUsage.rss();
    peak = baseline;
    send({ kind: 'reset', baseline });
  } else if (command.kind === 'peak') {
    send({ kind: 'peak', baseline, peak });
  } else if (command.kind === 'stop') {
    await stop();
    process.exit(0);
  }
}
