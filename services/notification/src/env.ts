import { z } from 'zod';
import { loadEnv, smtpEnv, subgraphEnv } from '@challenge/kit';
import type { MailerConfig } from './data/mailer.ts';
import type { LinkConfig } from './domain/links.ts';

/**
 * The one place notification reads its environment. SMTP is required from the start, so that a
 * deployment without a mail relay fails at once rather than at the first e-mail. Credentials are
 * optional (the local catcher takes none) but go together.
 */
export const envSchema = subgraphEnv
  .extend({
    ...smtpEnv.shape,
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASSWORD: z.string().min(1).optional(),
    /** true: TLS from the first byte (port 465). Unset: true on port 465, else STARTTLS when offered. */
    SMTP_SECURE: z.stringbool().optional(),
    /** The site's origin, for the links in e-mails (challenge pages, sign-up, preferences). */
    PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }),
    /** Key of the HMAC that signs the e-mail preferences (unsubscribe) links. */
    NOTIFICATION_LINK_SECRET: z.string().min(32, 'must be at least 32 characters'),
    /**
     * Comma-separated addresses of the admins, mailed when a referee case is overdue
     * (docs/adr/0058). Empty: nobody is mailed (a warning is logged per overdue case).
     */
    ADMIN_EMAILS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((address) => address.trim())
          .filter((address) => address.length > 0),
      )
      .pipe(z.array(z.email())),
  })
  .refine((env) => (env.SMTP_USER === undefined) === (env.SMTP_PASSWORD === undefined), {
    message: 'SMTP_USER and SMTP_PASSWORD are set together or not at all',
    path: ['SMTP_PASSWORD'],
  });
export type NotificationEnv = z.output<typeof envSchema>;

export const readEnv = (): NotificationEnv => loadEnv(envSchema, process.env);

export const mailerConfig = (env: NotificationEnv): MailerConfig => ({
  host: env.SMTP_HOST,
  port: env.SMTP_PORT,
  secure: env.SMTP_SECURE ?? env.SMTP_PORT === 465,
  auth:
    env.SMTP_USER && env.SMTP_PASSWORD
      ? { user: env.SMTP_USER, pass: env.SMTP_PASSWORD }
      : undefined,
  from: env.MAIL_FROM,
});

export const adminEmails = (env: NotificationEnv): readonly string[] => [
  ...new Set(env.ADMIN_EMAILS.map((address) => address.toLowerCase())),
];

export const linkConfig = (env: NotificationEnv): LinkConfig => ({
  publicOrigin: new URL(env.PUBLIC_ORIGIN).origin,
  secret: env.NOTIFICATION_LINK_SECRET,
});
