import { stack } from './stack.ts';

/** A message as the local SMTP catcher (scripts/smtp-catcher.mjs) reports it. */
export interface CaughtMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  date: string;
  messageId: string | null;
}

/** What the SMTP catcher received for one address, newest first. */
export async function inbox(address: string): Promise<CaughtMail[]> {
  const response = await fetch(
    `${stack.smtpCatcherHttp}/api/messages?to=${encodeURIComponent(address)}`,
  );
  if (!response.ok) throw new Error(`SMTP catcher answered ${response.status}`);
  return (await response.json()) as CaughtMail[];
}
