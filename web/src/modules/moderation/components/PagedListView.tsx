import type { ReactNode } from 'react';
import { Pager } from '../../../ui/Pager';
import type { PagedList } from '../hooks/usePagedList';
import { LoadFailedNotice } from './LoadFailedNotice';
import { Loading } from './ModeratorParts';

/**
 * A paged list's states in one place for every console tab and My reports: the items (or the
 * empty text), loading, the refusal with a retry, and the pager under them.
 */
export function PagedListView<Item>({
  list,
  page,
  onPage,
  empty,
  loadFailedTitle,
  pagesLabel,
  children,
}: {
  list: PagedList<Item>;
  page: number;
  onPage: (page: number) => void;
  empty: ReactNode;
  loadFailedTitle: string;
  pagesLabel: string;
  children: (items: Item[]) => ReactNode;
}) {
  return (
    <>
      {list.items ? (
        list.items.length === 0 ? (
          empty
        ) : (
          children(list.items)
        )
      ) : list.loading ? (
        <Loading />
      ) : (
        <LoadFailedNotice
          title={loadFailedTitle}
          failure={list.failure}
          onRetry={() => void list.refetch()}
        />
      )}
      <Pager
        page={list.pagination?.currentPage ?? page}
        totalPages={list.pagination?.totalPages ?? 1}
        onPage={onPage}
        label={pagesLabel}
        disabled={list.fetching}
      />
    </>
  );
}
