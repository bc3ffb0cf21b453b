import { randomUUID } from 'node:crypto';
import { SignJWT, UnsecuredJWT, decodeProtectedHeader, importPKCS8, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearerToken,
  createTokenIssuer,
  createTokenVerifier,
  keyIdOf,
  requireRole,
  requireUser,
  type AuthUser,
  type TokenVerifier,
} from '../src/auth.ts';
import { AppError } from '../src/errors.ts';
import { rsaKeyPair, type KeyPair } from './support.ts';

const ISSUER = 'challenge-platform';
const AUDIENCE = 'challenge-platform';

let keys: KeyPair;
let otherKeys: KeyPair;
let verifier: TokenVerifier;

beforeAll(async () => {
  [keys, otherKeys] = await Promise.all([rsaKeyPair(), rsaKeyPair()]);
  verifier = await createTokenVerifier({ publicKeyPem: keys.publicKeyPem, issuer: ISSUER });
});

const now = () => Math.floor(Date.now() / 1000);

/** Signs arbitrary claims with RS256 (by default with the trusted key and the right issuer). */
async function signRs256(
  claims: JWTPayload,
  options: { privateKeyPem?: string; issuer?: string; audience?: string; exp?: number } = {},
): Promise<string> {
  const key = await importPKCS8(options.privateKeyPem ?? keys.privateKeyPem, 'RS256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setSubject(typeof claims.sub === 'string' ? claims.sub : randomUUID())
    .setJti(randomUUID())
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.exp ?? now() + 600)
    .sign(key);
}

async function expectUnauthorized(token: string): Promise<void> {
  const error = await verifier.verify(token).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).identifier).toBe('unauthorized');
}

describe('token issuer and verifier', () => {
  it('round-trips id, roles, token id and expiry', async () => {
    const issuer = await createTokenIssuer({
      privateKeyPem: keys.privateKeyPem,
      issuer: ISSUER,
      ttlSeconds: 3600,
    });
    const id = randomUUID();
    const issued = await issuer.issue({ id, roles: ['user', 'referee'] });
    expect(issued.expiresAt).toBeGreaterThanOrEqual(now() + 3599);
    expect(issued.expiresAt).toBeLessThanOrEqual(now() + 3600);
    const user = await verifier.verify(issued.token);
    expect(user).toEqual<AuthUser>({
      id,
      roles: ['user', 'referee'],
      tokenId: issued.tokenId,
      issuedAt: issued.issuedAt,
      expiresAt: issued.expiresAt,
      sessionVersion: 0,
    });
    // Each token has its own id (revocation works per token).
    const again = await issuer.issue({ id, roles: ['user'] });
    expect(again.tokenId).not.toBe(issued.tokenId);
  });

  it('refuses an expired token', async () => {
    const issuer = await createTokenIssuer({
      privateKeyPem: keys.privateKeyPem,
      issuer: ISSUER,
      ttlSeconds: -10,
    });
    await expectUnauthorized((await issuer.issue({ id: randomUUID(), roles: ['user'] })).token);
    await expectUnauthorized(await signRs256({ roles: ['user'] }, { exp: now() - 5 }));
  });

  it('refuses a token signed by another key', async () => {
    await expectUnauthorized(
      await signRs256({ roles: ['admin'] }, { privateKeyPem: otherKeys.privateKeyPem }),
    );
  });

  it('refuses another issuer and another audience', async () => {
    const foreign = await createTokenIssuer({
      privateKeyPem: keys.privateKeyPem,
      issuer: 'someone-else',
      ttlSeconds: 60,
    });
    await expectUnauthorized((await foreign.issue({ id: randomUUID(), roles: ['user'] })).token);
    await expectUnauthorized(await signRs256({ roles: ['user'] }, { audience: 'another-app' }));
  });

  it('refuses HS256 tokens, also one keyed with the public key (algorithm confusion)', async () => {
    for (const secret of ['a-shared-secret-of-at-least-32-bytes!!', keys.publicKeyPem]) {
      const token = await new SignJWT({ roles: ['admin'] })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(randomUUID())
        .setJti(randomUUID())
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime(now() + 600)
        .sign(new TextEncoder().encode(secret));
      await expectUnauthorized(token);
    }
  });

  it('refuses an unsigned (alg none) token', async () => {
    const token = new UnsecuredJWT({ roles: ['admin'] })
      .setSubject(randomUUID())
      .setJti(randomUUID())
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(now() + 600)
      .encode();
    await expectUnauthorized(token);
  });

  it('refuses a token without roles, with no role, or with an unknown role', async () => {
    await expectUnauthorized(await signRs256({}));
    await expectUnauthorized(await signRs256({ roles: [] }));
    await expectUnauthorized(await signRs256({ roles: ['superuser'] }));
    await expectUnauthorized(await signRs256({ roles: 'admin' }));
  });

  it('refuses a token that never expires', async () => {
    const token = await new SignJWT({ roles: ['user'] })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(randomUUID())
      .setJti(randomUUID())
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .sign(await importPKCS8(keys.privateKeyPem, 'RS256'));
    await expectUnauthorized(token);
  });

  it('refuses a subject that is not a user id', async () => {
    await expectUnauthorized(await signRs256({ sub: 'admin', roles: ['user'] }));
  });

  it('refuses garbage', async () => {
    for (const token of ['garbage', '', 'a.b.c', 'eyJhbGciOiJSUzI1NiJ9.e30.AAAA'])
      await expectUnauthorized(token);
  });
});

describe('verified tokens kept per process (docs/adr/0088)', () => {
  it('answers a known token from memory until it expires, then refuses it', async () => {
    let clock = now();
    const remembering = await createTokenVerifier({
      publicKeyPem: keys.publicKeyPem,
      issuer: ISSUER,
      now: () => clock,
    });
    const token = await signRs256({ roles: ['user'] }, { exp: clock + 60 });
    const first = await remembering.verify(token);
    // A caller that changes its copy changes nothing the next caller sees.
    first.roles.push('admin');
    expect((await remembering.verify(token)).roles).toEqual(['user']);
    clock += 60;
    const refused = await remembering.verify(token).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).identifier).toBe('unauthorized');
  });

  it('keeps at most as many as configured, oldest out first, and never a refusal', async () => {
    const remembering = await createTokenVerifier({
      publicKeyPem: keys.publicKeyPem,
      issuer: ISSUER,
      verifiedTokensKept: 1,
    });
    const garbage = 'not.a.token';
    for (let i = 0; i < 2; i += 1) {
      await expect(remembering.verify(garbage)).rejects.toBeInstanceOf(AppError);
    }
    const [a, b] = await Promise.all([
      signRs256({ roles: ['user'] }),
      signRs256({ roles: ['referee'] }),
    ]);
    expect((await remembering.verify(a)).roles).toEqual(['user']);
    expect((await remembering.verify(b)).roles).toEqual(['referee']);
    expect((await remembering.verify(a)).roles).toEqual(['user']);
  });
});

describe('key rotation: key ids, several verifying keys', () => {
  const issuerFor = (pair: KeyPair) =>
    createTokenIssuer({ privateKeyPem: pair.privateKeyPem, issuer: ISSUER, ttlSeconds: 600 });

  it('names the signing key in the kid header: its RFC 7638 thumbprint', async () => {
    const issued = await (await issuerFor(keys)).issue({ id: randomUUID(), roles: ['user'] });
    const { kid } = decodeProtectedHeader(issued.token);
    expect(kid).toBe(await keyIdOf(keys.publicKeyPem));
    expect(kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await keyIdOf(keys.publicKeyPem)).not.toBe(await keyIdOf(otherKeys.publicKeyPem));
  });

  it('verifies tokens of the old and the new key while both are listed; then only the new', async () => {
    const both = await createTokenVerifier({
      publicKeyPem: `${keys.publicKeyPem}\n${otherKeys.publicKeyPem}`,
      issuer: ISSUER,
    });
    const oldToken = (await (await issuerFor(keys)).issue({ id: randomUUID(), roles: ['user'] }))
      .token;
    const newToken = (
      await (await issuerFor(otherKeys)).issue({ id: randomUUID(), roles: ['user'] })
    ).token;
    await expect(both.verify(oldToken)).resolves.toMatchObject({ roles: ['user'] });
    await expect(both.verify(newToken)).resolves.toMatchObject({ roles: ['user'] });
    // A token from before key ids (no kid) still verifies against the listed keys.
    await expect(
      both.verify(await signRs256({ roles: ['user'], exp: now() + 60 })),
    ).resolves.toBeDefined();

    const onlyNew = await createTokenVerifier({
      publicKeyPem: otherKeys.publicKeyPem,
      issuer: ISSUER,
    });
    await expect(onlyNew.verify(newToken)).resolves.toBeDefined();
    await expect(onlyNew.verify(oldToken)).rejects.toEqual(new AppError('unauthorized'));
  });

  it('refuses a kid it does not know, even with a signature of a listed key', async () => {
    const key = await importPKCS8(keys.privateKeyPem, 'RS256');
    const token = await new SignJWT({ roles: ['user'] })
      .setProtectedHeader({ alg: 'RS256', kid: 'not-a-known-key' })
      .setSubject(randomUUID())
      .setJti(randomUUID())
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(key);
    await expect(verifier.verify(token)).rejects.toEqual(new AppError('unauthorized'));
  });

  it('carries the session version (claim sv), 0 when absent', async () => {
    const issued = await (
      await issuerFor(keys)
    ).issue({ id: randomUUID(), roles: ['user'], sessionVersion: 3 });
    expect((await verifier.verify(issued.token)).sessionVersion).toBe(3);
  });

  it('re-authentication proofs: only for their purpose, never as a session token', async () => {
    const issuer = await issuerFor(keys);
    const userId = randomUUID();
    const proof = await issuer.issueReauth({
      userId,
      sessionId: 'session-1',
      purpose: 'payment_profile',
      ttlSeconds: 60,
    });
    await expect(verifier.verifyReauth(proof.token, 'payment_profile')).resolves.toEqual({
      userId,
      sessionId: 'session-1',
      purpose: 'payment_profile',
    });
    await expect(verifier.verifyReauth(proof.token, 'other')).rejects.toEqual(
      new AppError('invalid_credentials'),
    );
    await expect(verifier.verify(proof.token)).rejects.toEqual(new AppError('unauthorized'));
    const session = await issuer.issue({ id: userId, roles: ['user'] });
    await expect(verifier.verifyReauth(session.token, 'payment_profile')).rejects.toEqual(
      new AppError('invalid_credentials'),
    );
  });
});

describe('requireUser and requireRole', () => {
  const user: AuthUser = {
    id: randomUUID(),
    roles: ['user', 'referee'],
    tokenId: 't1',
    issuedAt: now(),
    expiresAt: now() + 60,
    sessionVersion: 0,
  };

  const identifierOf = (run: () => unknown): string | null => {
    try {
      run();
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).identifier;
    }
  };

  it('requireUser returns the user or throws unauthorized', () => {
    expect(requireUser({ user })).toBe(user);
    expect(identifierOf(() => requireUser({ user: null }))).toBe('unauthorized');
  });

  it('requireRole needs one of the roles: unauthorized without a user, access_denied without the role', () => {
    expect(requireRole({ user }, 'moderator', 'referee')).toBe(user);
    expect(identifierOf(() => requireRole({ user }, 'moderator', 'admin'))).toBe('access_denied');
    expect(identifierOf(() => requireRole({ user: null }, 'user'))).toBe('unauthorized');
  });
});

describe('bearerToken', () => {
  it.each<[string | undefined, string | null]>([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer abc', 'abc'],
    ['BEARER   abc', 'abc'],
    [undefined, null],
    ['', null],
    ['Bearer', null],
    ['Bearer ', null],
    ['Basic dXNlcjpwYXNz', null],
    ['Bearer a b', null],
    ['xBearer abc', null],
  ])('parses %j as %j', (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });
});
