import type { Database } from '../data/db.ts';
import { accountRefusesMarketing, isOptedOut, setOptedOut } from '../data/opt-outs.ts';
import { verifyOptOutToken } from './links.ts';

/*
 * Invitations of shareChallengeLink go to addresses that did not say no (docs/adr/0074): an
 * address on the opt-out list (the link in every invitation), or whose account turned marketing
 * e-mail off, gets none. A marketing choice never made (null) is no refusal: an invitation is one
 * person's message about one challenge, not the platform's marketing news, which stays opt-in.
 */

export async function wantsInvitations(db: Database, email: string): Promise<boolean> {
  const address = email.toLowerCase();
  const [listed, refuses] = await Promise.all([
    isOptedOut(db, address),
    accountRefusesMarketing(db, address),
  ]);
  return !listed && !refuses;
}

export interface InvitationOptOutView {
  email: string;
  optedOut: boolean;
}

/** The address of an opt-out link and whether it is on the list; unauthorized for a bad token. */
export async function invitationOptOut(
  db: Database,
  secret: string,
  token: string,
): Promise<InvitationOptOutView> {
  const email = verifyOptOutToken(secret, token);
  return { email, optedOut: await isOptedOut(db, email) };
}

export async function updateInvitationOptOut(
  db: Database,
  secret: string,
  input: { token: string; optedOut: boolean },
): Promise<InvitationOptOutView> {
  const email = verifyOptOutToken(secret, input.token);
  return { email, optedOut: await setOptedOut(db, email, input.optedOut) };
}
