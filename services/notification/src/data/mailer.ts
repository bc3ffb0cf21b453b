import nodemailer from 'nodemailer';

/**
 * The SMTP adapter: the only code that talks to the mail relay. One connection per message (no
 * pool: nodemailer's pool silently re-queues a message whose connection closed, which would hide
 * attempts from the delivery log and could send twice); every retry is the caller's.
 */
export interface MailerConfig {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the relay offers it. */
  secure: boolean;
  auth?: { user: string; pass: string } | undefined;
  /** The sender of every message, e.g. `Challenge Platform <no-reply@challenge.local>`. */
  from: string;
}

export interface OutgoingMail {
  /** Unique per e-mail; becomes the Message-ID, so a copy sent twice is recognisably the same. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The preferences page of mail that preferences cover: the List-Unsubscribe header (RFC 2369). */
  unsubscribeUrl?: string;
}

export interface Mailer {
  /** Resolves once the relay has accepted the message; rejects with the relay's or network's error. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Upper bounds that keep one attempt well inside the delivery lease (see domain/deliveries.ts). */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 15_000,
} as const;

/** The domain of the sender's address, for Message-IDs. */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim() || 'localhost';
}

export function createMailer(config: MailerConfig): Mailer {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.auth,
    ...SMTP_TIMEOUTS,
    // Nothing we send refers to files or URLs to embed; never let a value make nodemailer read one.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const domain = senderDomain(config.from);
  return {
    async send(mail) {
      await transport.sendMail({
        from: config.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.id}@${domain}>`,
        // RFC 3834: no out-of-office replies to an automatic message.
        headers: { 'Auto-Submitted': 'auto-generated' },
        ...(mail.unsubscribeUrl ? { list: { unsubscribe: mail.unsubscribeUrl } } : {}),
      });
    },
    close: () => transport.close(),
  };
}
