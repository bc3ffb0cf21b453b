import { print } from 'graphql';
import { appConfig } from '../../app/config';
import type { ResponseStatus } from '../../lib/graphql';
import type { MutationOutcome } from '../../lib/mutationOutcome';
import { UpdateProfileDocument, type UpdateProfileMutation } from './graphql/UpdateProfile';

/** The server's limit (docs/adr/0049); the server decides, this only spares a doomed upload. */
export const MAX_AVATAR_BYTES = 10 * 1000 * 1000;

/** The server's text when the stream passes the limit. */
export const TOO_LARGE_MESSAGE = 'File is too large';

const AVATAR_TYPES = ['image/jpeg', 'image/png'];
const AVATAR_EXTENSIONS = ['.jpg', '.jpeg', '.png'];

/** What the file picker offers. */
export const AVATAR_ACCEPT = [...AVATAR_TYPES, ...AVATAR_EXTENSIONS].join(',');

export type AvatarFileProblem = 'type' | 'size' | null;

/**
 * A first look at a picked picture: its declared type (or, without one, its name) and its size.
 * Media reads the real type from the content.
 */
export function avatarFileProblem(file: Pick<File, 'name' | 'type' | 'size'>): AvatarFileProblem {
  const name = file.name.toLowerCase();
  const typeOk = file.type
    ? AVATAR_TYPES.includes(file.type.toLowerCase())
    : AVATAR_EXTENSIONS.some((extension) => name.endsWith(extension));
  if (!typeOk) return 'type';
  if (file.size > MAX_AVATAR_BYTES) return 'size';
  return null;
}

export type ProfileResult = NonNullable<UpdateProfileMutation['updateProfile']>;

export interface ProfileFields {
  displayName?: string | null;
  bio?: string | null;
}

interface Answer {
  data?: Partial<UpdateProfileMutation> | null;
  errors?: { message?: string; extensions?: { identifier?: unknown; code?: unknown } }[];
}

const failure = (identifier: string, message: string | null = null) =>
  ({
    ok: false,
    status: { success: false, identifier, message } satisfies ResponseStatus,
    error: null,
  }) as const;

/**
 * updateProfile with a new picture: the GraphQL multipart request of spec section 7 (operations,
 * map, then the file) to the gateway's /graphql, which hands it to media (docs/adr/0049). The
 * session cookie goes along (same origin); `apollo-require-preflight` marks it as not a simple
 * cross-site form post. The other fields are saved in the same request.
 */
export async function updateProfileWithAvatar(
  file: File,
  fields: ProfileFields,
  url: string = appConfig.graphqlPath,
): Promise<MutationOutcome<ProfileResult>> {
  const body = new FormData();
  body.append(
    'operations',
    JSON.stringify({
      operationName: 'UpdateProfile',
      query: print(UpdateProfileDocument),
      variables: { input: { ...fields, avatar: null } },
    }),
  );
  body.append('map', JSON.stringify({ '0': ['variables.input.avatar'] }));
  body.append('0', file, file.name);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body,
      credentials: 'same-origin',
      headers: { 'apollo-require-preflight': 'true', accept: 'application/json' },
    });
  } catch (error) {
    return { ok: false, status: null, error };
  }
  const answer = (await response.json().catch(() => null)) as Answer | null;
  const result = answer?.data?.updateProfile;
  if (result)
    return result.status.success
      ? { ok: true, result }
      : { ok: false, status: result.status, error: null };
  const first = answer?.errors?.[0];
  const identifier = first?.extensions?.identifier ?? first?.extensions?.code;
  if (typeof identifier === 'string')
    return failure(identifier.toLowerCase(), first?.message ?? null);
  if (response.status === 413) return failure('upload_error', TOO_LARGE_MESSAGE);
  return failure('upload_error');
}
