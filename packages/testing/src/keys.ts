import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';

export interface TestKeys {
  publicKeyPem: string;
  privateKeyPem: string;
}

let keys: Promise<TestKeys> | null = null;

/** One RS256 key pair per test worker, generated on first use (never a committed secret). */
/** A child process of a test or benchmark uses its parent's pair (before any testKeys call). */
export function useTestKeys(pair: TestKeys): void {
  keys = Promise.resolve(pair);
}

export function testKeys(): Promise<TestKeys> {
  keys ??= (async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    return {
      publicKeyPem: await exportSPKI(pair.publicKey),
      privateKeyPem: await exportPKCS8(pair.privateKey),
    };
  })();
  return keys;
}
