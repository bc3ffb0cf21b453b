import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * One-time secrets (link hashes, codes, reset tokens) are stored as HMAC-SHA256 under a server
 * key, so a database dump alone cannot replay or brute-force them; passwords use argon2id.
 */
export interface Secrets {
  keyed(value: string): string;
  newCode(): string;
  newToken(): string;
  hashPassword(password: string): Promise<string>;
  verifyPassword(passwordHash: string | null, password: string): Promise<boolean>;
}

export function createSecrets(hashKey: string): Secrets {
  // A fixed hash for unknown accounts, so that "no such user" takes as long as "wrong password".
  const decoy = hash('decoy-password-for-timing');
  return {
    keyed: (value) => createHmac('sha256', hashKey).update(value).digest('base64url'),
    newCode: () => String(randomInt(0, 1_000_000)).padStart(6, '0'),
    newToken: () => randomBytes(32).toString('base64url'),
    hashPassword: (password) => hash(password),
    async verifyPassword(passwordHash, password) {
      if (!passwordHash) {
        await verify(await decoy, password).catch(() => false);
        return false;
      }
      return verify(passwordHash, password).catch(() => false);
    },
  };
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
