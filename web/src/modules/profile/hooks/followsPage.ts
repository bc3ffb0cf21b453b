import type { UserPage } from '../userPage';

/** Users per page in the followers and following lists. */
export const FOLLOWS_PAGE_SIZE = 20;

export interface FollowsPageState {
  page: UserPage | null;
  loading: boolean;
  failed: boolean;
}

export function followsPageState(
  result: UserPage | null | undefined,
  loading: boolean,
  error: unknown,
): FollowsPageState {
  return {
    page: result?.status.success ? result : null,
    loading: loading && !result,
    failed: Boolean(error && !result) || Boolean(result && !result.status.success),
  };
}
