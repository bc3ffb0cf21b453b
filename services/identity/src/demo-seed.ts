/**
 * Demo data for `npm start`: a few accounts with each role, created once (re-running is a no-op),
 * through the real registration rule so that their wallets follow via UserRegistered. Writes the
 * accounts with a fresh API token each to the file named by the first argument.
 */
import { writeFileSync } from 'node:fs';
import { createTokenIssuer, type Role } from '@challenge/kit';
import { createDatabase } from './data/db.ts';
import { findCredentialsByUsername, updatePasswordHash } from './data/users.ts';
import { createSecrets } from './domain/secrets.ts';
import { announceBirthday, registerUser } from './domain/users.ts';
import { readEnv } from './env.ts';

const DEMO_USERS: { username: string; displayName: string; locale: 'en' | 'nl'; roles: Role[] }[] =
  [
    { username: 'alice', displayName: 'Alice', locale: 'en', roles: ['user'] },
    { username: 'bob', displayName: 'Bob', locale: 'nl', roles: ['user'] },
    {
      username: 'rita_referee',
      displayName: 'Rita (referee)',
      locale: 'en',
      roles: ['user', 'referee'],
    },
    {
      username: 'mo_moderator',
      displayName: 'Mo (moderator)',
      locale: 'nl',
      roles: ['user', 'moderator'],
    },
    {
      username: 'ada_admin',
      displayName: 'Ada (admin)',
      locale: 'en',
      roles: ['user', 'moderator', 'admin'],
    },
  ];

const env = readEnv();
const db = createDatabase(env.DATABASE_URL);
const issuer = await createTokenIssuer({
  privateKeyPem: env.JWT_PRIVATE_KEY,
  issuer: env.JWT_ISSUER,
  ttlSeconds: env.JWT_TTL_SECONDS,
});

/** Every demo account logs in with this password (or by link or code through the inbox). */
const DEMO_PASSWORD = 'Challenge-2026!';
/** Adults: creating and accepting challenges needs 18 (docs/adr/0026). */
const DEMO_BIRTHDAY = new Date(Date.UTC(1990, 0, 1));
const passwordHash = await createSecrets(env.AUTH_HASH_SECRET).hashPassword(DEMO_PASSWORD);

const accounts = [];
for (const demo of DEMO_USERS) {
  const existing = await findCredentialsByUsername(db, demo.username);
  // Accounts seeded before demo passwords existed get one too.
  if (existing && !existing.passwordHash) await updatePasswordHash(db, existing.id, passwordHash);
  // Accounts seeded before UserRegistered carried the birthday: challenge's projection hears it.
  if (existing) await announceBirthday(db, existing.id, DEMO_BIRTHDAY);
  const user =
    existing ??
    (await registerUser(
      db,
      { ...demo, email: `${demo.username}@demo.challenge.local` },
      {
        passwordHash,
        birthday: DEMO_BIRTHDAY,
        eighteenPlusContent: true,
        termsAcceptedAt: new Date(),
      },
    ));
  const { token } = await issuer.issue({ id: user.id, roles: user.roles });
  accounts.push({
    username: user.username,
    email: user.email,
    password: DEMO_PASSWORD,
    roles: user.roles,
    token,
  });
  console.log(`demo user ${user.username.padEnd(14)} ${user.roles.join(', ')}`);
}
await db.$disconnect();

const output = process.argv[2];
if (output) writeFileSync(output, `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600 });
