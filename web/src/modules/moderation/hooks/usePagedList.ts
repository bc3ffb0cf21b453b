import type { OperationVariables, TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';

export interface PageInfo {
  currentPage: number;
  totalPages: number;
  totalCount: number;
}

/** The shape every staff list answers with: the envelope, a page of items and the pagination. */
export interface PagedResult<Item> {
  status: ResponseStatus;
  items: Item[];
  pagination?: PageInfo | null;
}

export interface PagedList<Item> {
  /** The page to show; null until one arrived or when the server refused it. */
  items: Item[] | null;
  pagination: PageInfo | null;
  /** The server's refusal (access_denied, invalid_input, ...); null otherwise. */
  failure: ResponseStatus | null;
  /** The request itself failed (network, gateway) and there is nothing to show. */
  requestFailed: boolean;
  /** Nothing to show yet. */
  loading: boolean;
  /** A (new) page is being fetched; the previous one is shown meanwhile. */
  fetching: boolean;
  refetch: () => Promise<void>;
}

/**
 * One page of a staff console list: fetched from the cache and the network, the previous page
 * kept on screen while the next one loads, a failed status told apart from a failed request.
 * Every console tab's list goes through this one hook.
 */
export function usePagedList<Data, Variables extends OperationVariables, Item>(
  document: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  pick: (data: Data) => PagedResult<Item> | null | undefined,
): PagedList<Item> {
  // Typed by the caller's document and variables; widened here only because Apollo's overloads
  // cannot be resolved for a generic Variables.
  const { data, previousData, loading, error, refetch } = useQuery(
    document as TypedDocumentNode<Data, OperationVariables>,
    { variables, fetchPolicy: 'cache-and-network', notifyOnNetworkStatusChange: true },
  );
  const shown = data ?? previousData;
  const result = shown ? pick(shown as Data) : null;
  const items = result?.status.success ? result.items : null;
  return {
    items,
    pagination: result?.status.success ? (result.pagination ?? null) : null,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !items,
    loading: loading && !items,
    fetching: loading,
    refetch: async () => {
      await refetch().catch(() => undefined);
    },
  };
}
