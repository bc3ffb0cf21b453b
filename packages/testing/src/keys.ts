import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';

export interface TestKeys {
  publicKeyPem: string;
  privateKeyPem: string;
}

let keys: Promise<TestKeys> | null = null;

/** One RS256 key pair per test worker, generated on first use (never a committed secret). */
/** Child processes of a test or benchmark share their parent's pair through this variable. */
export const TEST_KEYS_ENV = 'CHALLENGE_TEST_KEYS';

export function testKeys(): Promise<TestKeys> {
  const inherited = process.env[TEST_KEYS_ENV];
  if (!keys && inherited) keys = Promise.resolve(JSON.parse(inherited) as TestKeys);
  keys ??= (async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    return {
      publicKeyPem: await exportSPKI(pair.publicKey),
      privateKeyPem: await exportPKCS8(pair.privateKey),
    };
  })();
  return keys;
}
