import type { ResponseStatus } from '../../lib/graphql';

/** Another user as anyone may see them. */
export interface UserReference {
  id: string;
  username: string;
  displayName: string | null;
  avatar: string | null;
}

export interface Pagination {
  currentPage: number;
  totalPages: number;
  totalCount: number;
}

/** The shape of a page of users (followers, following). */
export interface UserPage {
  status: ResponseStatus;
  items: UserReference[];
  pagination: Pagination | null;
}

export interface UserPageVariables {
  username: string;
  page: number;
  itemsPerPage: number;
}
