/** The identifiers the error page has its own text for; any other identifier shows page_not_found. */
export const ERROR_PAGE_KEYS = [
  'user_not_found',
  'challenge_not_found',
  'access_denied',
  'ip_lookup_failed',
  'error_verifying_location',
  'access_denied_location',
  'page_not_found',
] as const;

export type ErrorPageKey = (typeof ERROR_PAGE_KEYS)[number];

export function resolveErrorPageKey(identifier: string | null | undefined): ErrorPageKey {
  return (ERROR_PAGE_KEYS as readonly string[]).includes(identifier ?? '')
    ? (identifier as ErrorPageKey)
    : 'page_not_found';
}

/** The status code that goes with each key when the error itself does not carry one. */
export const ERROR_PAGE_STATUS: Record<ErrorPageKey, number> = {
  user_not_found: 404,
  challenge_not_found: 404,
  access_denied: 403,
  ip_lookup_failed: 500,
  error_verifying_location: 500,
  access_denied_location: 500,
  page_not_found: 404,
};

/**
 * Thrown by a page (while rendering or in a loader) to show the error page, e.g.
 * `throw new PageError(404, 'challenge_not_found')`.
 */
export class PageError extends Error {
  readonly statusCode: number;
  readonly identifier: string;

  constructor(statusCode: number, identifier: string, message?: string) {
    super(message ?? identifier);
    this.name = 'PageError';
    this.statusCode = statusCode;
    this.identifier = identifier;
  }
}
