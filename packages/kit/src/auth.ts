import { createPublicKey, randomUUID } from 'node:crypto';
import {
  SignJWT,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  exportJWK,
  importPKCS8,
  importSPKI,
  jwtVerify,
  errors as joseErrors,
  type CryptoKey,
} from 'jose';
import { z } from 'zod';
import { AppError } from './errors.ts';

/**
 * Bearer tokens: RS256 JWTs issued by identity (the only holder of the private key) and verified
 * by the gateway and every subgraph with the public key(s). Each token names its signing key in
 * the `kid` header (the key's RFC 7638 thumbprint), so that several public keys can verify at
 * once and identity can switch to a new key without logging anyone out (docs/runbook.md).
 */
export const ROLES = ['user', 'referee', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface AuthUser {
  id: string;
  roles: Role[];
  tokenId: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  /** Seconds since the epoch. */
  expiresAt: number;
  /**
   * The account's session version when the token was issued (claim `sv`, 0 when absent): a
   * password change or reset raises the account's version and so ends every older token.
   */
  sessionVersion: number;
}

const ALGORITHM = 'RS256';
const AUDIENCE = 'challenge-platform';
/** Re-authentication proofs carry their own audience: a proof is never a session token. */
const REAUTH_AUDIENCE = 'challenge-platform:reauth';

const claimsSchema = z.object({
  sub: z.uuid(),
  jti: z.string().min(1),
  exp: z.number().int(),
  iat: z.number().int(),
  roles: z.array(z.enum(ROLES)).min(1),
  sv: z.number().int().min(0).optional(),
});

const reauthClaimsSchema = z.object({
  sub: z.uuid(),
  sid: z.string().min(1),
  purpose: z.string().min(1),
  exp: z.number().int(),
});

/** What a re-authentication proof says: this user, in this session, confirmed it is them. */
export interface ReauthProof {
  userId: string;
  /** The `jti` of the session token that asked for the proof. */
  sessionId: string;
  purpose: string;
}

export interface TokenVerifier {
  /** Resolves the user, or throws AppError('unauthorized') for any bad, expired or forged token. */
  verify(token: string): Promise<AuthUser>;
  /**
   * Checks a re-authentication proof issued by identity for `purpose`; throws
   * AppError('invalid_credentials') for any bad, expired, forged or other-purpose proof.
   */
  verifyReauth(proof: string, purpose: string): Promise<ReauthProof>;
}

/** Every PEM block of a value: JWT_PUBLIC_KEY may hold several keys during a key rotation. */
export function splitPemKeys(pem: string): string[] {
  return pem.match(/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g) ?? [];
}

/** The key id of a public key (PEM): its RFC 7638 JWK thumbprint (SHA-256, base64url). */
export async function keyIdOf(publicKeyPem: string): Promise<string> {
  return calculateJwkThumbprint(
    await exportJWK(await importSPKI(publicKeyPem, ALGORITHM, { extractable: true })),
  );
}

/** The public key (SPKI PEM) that belongs to a private key (PKCS#8 PEM). */
export function publicKeyOf(privateKeyPem: string): string {
  return createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
}

/** Verified session tokens kept per process (docs/adr/0088): about 1 KB each. */
const VERIFIED_TOKENS_KEPT = 5_000;

export async function createTokenVerifier(options: {
  /** One or more PEM public keys; each verifies the tokens whose `kid` is its thumbprint. */
  publicKeyPem: string;
  issuer: string;
  /** Session tokens whose verification is remembered (default 5,000; 0: none). */
  verifiedTokensKept?: number;
  /** Seconds since the epoch (tests move it). */
  now?: () => number;
}): Promise<TokenVerifier> {
  const kept = options.verifiedTokensKept ?? VERIFIED_TOKENS_KEPT;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const pems = splitPemKeys(options.publicKeyPem);
  if (pems.length === 0) throw new Error('JWT_PUBLIC_KEY holds no PEM public key');
  const keys = new Map<string, CryptoKey>();
  for (const pem of pems) keys.set(await keyIdOf(pem), await importSPKI(pem, ALGORITHM));

  /** The keys to try: the one the `kid` names, or every key for a token from before key ids. */
  function candidates(token: string): CryptoKey[] {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return []; // not a JWS at all: refused below like a bad signature
    }
    if (kid === undefined) return [...keys.values()];
    const key = keys.get(kid);
    return key ? [key] : [];
  }

  async function verifyWith(token: string, audience: string) {
    // Made only when refusing: an error captures a stack, which every request paid for.
    let lastError: unknown = null;
    for (const key of candidates(token)) {
      try {
        return (
          await jwtVerify(token, key, {
            algorithms: [ALGORITHM],
            issuer: options.issuer,
            audience,
            currentDate: new Date(now() * 1000),
          })
        ).payload;
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError ?? new joseErrors.JWSSignatureVerificationFailed();
  }

  const refused = (error: unknown, identifier: 'unauthorized' | 'invalid_credentials') => {
    if (error instanceof joseErrors.JOSEError || error instanceof z.ZodError) {
      return new AppError(identifier);
    }
    return error;
  };

  /**
   * Tokens verified before, by their text, oldest first (docs/adr/0088): the gateway and every
   * subgraph see the same token on each of a user's requests, and its signature, issuer,
   * audience and claims give the same answer every time; only time changes it, so a remembered
   * one is refused again from its expiry on. Refusals are not remembered (garbage cannot fill
   * it). What a signature cannot say (revoked, banned) is checked per request elsewhere.
   */
  const verified = new Map<string, AuthUser>();
  const remember = (token: string, user: AuthUser) => {
    if (kept === 0) return;
    if (verified.size >= kept) verified.delete(verified.keys().next().value!);
    verified.set(token, user);
  };

  return {
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt > now()) return { ...known, roles: [...known.roles] };
        verified.delete(token);
      }
      try {
        const claims = claimsSchema.parse(await verifyWith(token, AUDIENCE));
        const user: AuthUser = {
          id: claims.sub,
          roles: claims.roles,
          tokenId: claims.jti,
          issuedAt: claims.iat,
          expiresAt: claims.exp,
          sessionVersion: claims.sv ?? 0,
        };
        remember(token, user);
        return { ...user, roles: [...user.roles] };
      } catch (error) {
        throw refused(error, 'unauthorized');
      }
    },
    async verifyReauth(proof, purpose) {
      try {
        const claims = reauthClaimsSchema.parse(await verifyWith(proof, REAUTH_AUDIENCE));
        if (claims.purpose !== purpose) throw new AppError('invalid_credentials');
        return { userId: claims.sub, sessionId: claims.sid, purpose: claims.purpose };
      } catch (error) {
        throw refused(error, 'invalid_credentials');
      }
    },
  };
}

export interface IssuedToken {
  token: string;
  tokenId: string;
  issuedAt: number;
  expiresAt: number;
}

export interface TokenIssuer {
  /** The `kid` this issuer signs with. */
  keyId: string;
  issue(user: { id: string; roles: Role[]; sessionVersion?: number }): Promise<IssuedToken>;
  /** A short-lived proof that the user of session `sessionId` just re-authenticated. */
  issueReauth(proof: ReauthProof & { ttlSeconds: number }): Promise<IssuedToken>;
}

export async function createTokenIssuer(options: {
  privateKeyPem: string;
  issuer: string;
  ttlSeconds: number;
}): Promise<TokenIssuer> {
  const key = await importPKCS8(options.privateKeyPem, ALGORITHM);
  const keyId = await keyIdOf(publicKeyOf(options.privateKeyPem));
  const sign = async (
    claims: Record<string, unknown>,
    subject: string,
    audience: string,
    ttlSeconds: number,
  ): Promise<IssuedToken> => {
    const tokenId = randomUUID();
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid: keyId })
      .setSubject(subject)
      .setJti(tokenId)
      .setIssuer(options.issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key);
    return { token, tokenId, issuedAt, expiresAt };
  };
  return {
    keyId,
    issue: (user) =>
      sign(
        { roles: user.roles, sv: user.sessionVersion ?? 0 },
        user.id,
        AUDIENCE,
        options.ttlSeconds,
      ),
    issueReauth: (proof) =>
      sign(
        { sid: proof.sessionId, purpose: proof.purpose },
        proof.userId,
        REAUTH_AUDIENCE,
        proof.ttlSeconds,
      ),
  };
}

/** The Authorization header's bearer token, if any. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

export interface AuthContext {
  user: AuthUser | null;
}

export function requireUser(context: AuthContext): AuthUser {
  if (!context.user) throw new AppError('unauthorized');
  return context.user;
}

export function requireRole(context: AuthContext, ...roles: Role[]): AuthUser {
  const user = requireUser(context);
  if (!user.roles.some((role) => roles.includes(role))) throw new AppError('access_denied');
  return user;
}
