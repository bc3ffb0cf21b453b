import { loadEnv, smtpEnv, subgraphEnv } from '@challenge/kit';

/**
 * The one place notification reads its environment. SMTP is required from the start, so that a
 * deployment without a mail relay fails at once rather than at the first e-mail.
 */
export const envSchema = subgraphEnv.extend({ ...smtpEnv.shape });
export type NotificationEnv = ReturnType<typeof envSchema.parse>;

export const readEnv = (): NotificationEnv => loadEnv(envSchema, process.env);
