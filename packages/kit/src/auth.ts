import { randomUUID } from 'node:crypto';
import { SignJWT, importPKCS8, importSPKI, jwtVerify, errors as joseErrors } from 'jose';
import { z } from 'zod';
import { AppError } from './errors.ts';

/**
 * Bearer tokens: RS256 JWTs issued by identity (the only holder of the private key) and verified
 * by the gateway and every subgraph with the public key.
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
}

const ALGORITHM = 'RS256';
const AUDIENCE = 'challenge-platform';

const claimsSchema = z.object({
  sub: z.uuid(),
  jti: z.string().min(1),
  exp: z.number().int(),
  iat: z.number().int(),
  roles: z.array(z.enum(ROLES)).min(1),
});

export interface TokenVerifier {
  /** Resolves the user, or throws AppError('unauthorized') for any bad, expired or forged token. */
  verify(token: string): Promise<AuthUser>;
}

export async function createTokenVerifier(options: {
  publicKeyPem: string;
  issuer: string;
}): Promise<TokenVerifier> {
  const key = await importSPKI(options.publicKeyPem, ALGORITHM);
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: options.issuer,
          audience: AUDIENCE,
        });
        const claims = claimsSchema.parse(payload);
        return {
          id: claims.sub,
          roles: claims.roles,
          tokenId: claims.jti,
          issuedAt: claims.iat,
          expiresAt: claims.exp,
        };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof z.ZodError) {
          throw new AppError('unauthorized');
        }
        throw error;
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
  issue(user: { id: string; roles: Role[] }): Promise<IssuedToken>;
}

export async function createTokenIssuer(options: {
  privateKeyPem: string;
  issuer: string;
  ttlSeconds: number;
}): Promise<TokenIssuer> {
  const key = await importPKCS8(options.privateKeyPem, ALGORITHM);
  return {
    async issue(user) {
      const tokenId = randomUUID();
      const issuedAt = Math.floor(Date.now() / 1000);
      const expiresAt = issuedAt + options.ttlSeconds;
      const token = await new SignJWT({ roles: user.roles })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(user.id)
        .setJti(tokenId)
        .setIssuer(options.issuer)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, tokenId, issuedAt, expiresAt };
    },
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
