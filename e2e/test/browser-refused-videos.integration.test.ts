import { isKnownUser } from '@challenge/challenge/seed';
import { eventually } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, shoot, webDist } from '../support/browser.ts';
import { challengeIn, person, send, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

const STATUS = 'status { success identifier message }';
const CASES = `{ paginatedListOfRefereeChallenges(page: 1, itemsPerPage: 100) { ${STATUS} items { id challenge { id } } } }`;
const DECIDE = `mutation ($input: DecideRefereeCaseInput!) { decideRefereeCase(input: $input) { ${STATUS} } }`;

/**
 * The staff console's Refused videos tab in Chromium (ADR 57): a referee sees a refused proof
 * that waits for a decision and one a referee failed, with the owner's and the referee's
 * reasons, in English and Dutch; a moderator does not get the tab. Screenshots at phone and
 * desktop width under e2e/test-results/screenshots/.
 */
describe('refused videos in the browser', () => {
  let platform: Platform;
  let browsers: Browsers;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { webDist });
    browsers = await Browsers.launch(platform.origin);
  }, 120_000);
  afterAll(async () => {
    await browsers?.close();
    await platform?.stop();
  });

  async function adult(cents?: number): Promise<Person> {
    const who = await person(platform, cents ? { cents } : {});
    await eventually(async () => {
      if (!(await isKnownUser(platform.challenge.app.db, who.id)))
        throw new Error(`challenge does not know ${who.username} yet`);
    });
    return who;
  }

  /** A challenge in referee, and its case id once moderation opened it. */
  async function dispute(referee: Person): Promise<string> {
    const [owner, challenged] = await Promise.all([adult(10_000), adult()]);
    const challenge = await challengeIn(platform, 'referee', { owner, challenged });
    return eventually(async () => {
      const { data } = await send(platform, CASES, {}, referee);
      const found = data?.paginatedListOfRefereeChallenges.items.find(
        (each: { challenge: { id: string } }) => each.challenge.id === challenge.id,
      );
      expect(found).toBeDefined();
      return found.id as string;
    });
  }

  it('shows a referee the open and the decided refused videos; not a moderator', async () => {
    const [referee, moderator] = await Promise.all([
      person(platform, { roles: ['user', 'referee'] }),
      person(platform, { roles: ['user', 'moderator'] }),
    ]);
    const [decided] = await Promise.all([dispute(referee), dispute(referee)]);
    const answer = await send(
      platform,
      DECIDE,
      {
        input: {
          caseId: decided,
          decision: 'reject',
          reason: 'The video does not show the proof phrase at all.',
        },
      },
      referee,
    );
    expect(answer.data?.decideRefereeCase.status.identifier).toBe('ok');

    const page = await browsers.pageOf(referee);
    await page.goto(`${platform.origin}/moderator?tab=refused-videos`);
    await page.getByRole('heading', { name: 'Refused videos', level: 2 }).waitFor();
    await page.getByText('Failed by the referee').waitFor();
    const cards = page.getByRole('listitem');
    expect(await cards.count()).toBe(2);
    const open = cards.filter({ hasText: 'With the referee' });
    const failed = cards.filter({ hasText: 'Failed by the referee' });
    await expect(open.getByText('Not the proof phrase.').isVisible()).resolves.toBe(true);
    await expect(
      open.getByRole('link', { name: 'Decide it in the Referee tab' }).isVisible(),
    ).resolves.toBe(true);
    await expect(
      failed.getByText('The video does not show the proof phrase at all.').isVisible(),
    ).resolves.toBe(true);
    await expect(failed.getByText(/^Decided by .+ on .+\.$/).isVisible()).resolves.toBe(true);
    await shoot(page, 'refused-videos');

    const dutch = await browsers.pageOf(referee, { language: 'nl' });
    await dutch.goto(`${platform.origin}/moderator?tab=refused-videos`);
    await dutch.getByText('Afgekeurd door de scheidsrechter').waitFor();
    await shoot(dutch, 'refused-videos-nl');

    const staff = await browsers.pageOf(moderator);
    await staff.goto(`${platform.origin}/moderator?tab=refused-videos`);
    await staff.getByRole('tablist', { name: 'Moderator sections' }).waitFor();
    await expect(staff.getByRole('tab', { name: 'Refused videos' }).count()).resolves.toBe(0);
  }, 240_000);
});
