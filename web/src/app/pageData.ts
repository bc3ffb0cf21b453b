import type { DocumentNode, OperationVariables } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { useEffect, useState } from 'react';

/**
 * The answers to a page's own queries that the gateway put into the page it sent, as the visitor
 * who asked for it (gateway/src/page-subjects.ts, docs/adr/0100): the page renders from them at
 * once instead of asking the same questions again. Each answer serves one render of its page,
 * the first: a later visit of that page asks the network as before.
 */
export const PAGE_DATA_ELEMENT_ID = 'page-data';

interface PageDataEntry {
  operation: string;
  variables: Record<string, unknown>;
  data: unknown;
}

const isEntry = (value: unknown): value is PageDataEntry =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PageDataEntry).operation === 'string' &&
  typeof (value as PageDataEntry).variables === 'object' &&
  (value as PageDataEntry).variables !== null &&
  typeof (value as PageDataEntry).data === 'object' &&
  (value as PageDataEntry).data !== null;

let entries: PageDataEntry[] | null = null;

function pageEntries(): PageDataEntry[] {
  if (entries) return entries;
  entries = [];
  const element =
    typeof document === 'undefined' ? null : document.getElementById(PAGE_DATA_ELEMENT_ID);
  if (element?.tagName === 'SCRIPT' && element.getAttribute('type') === 'application/json') {
    try {
      const parsed: unknown = JSON.parse(element.textContent ?? '');
      if (Array.isArray(parsed)) entries = parsed.filter(isEntry);
    } catch {
      // Unreadable: the page asks as it always did.
    }
  }
  return entries;
}

const operationName = (document: DocumentNode) =>
  document.definitions.flatMap((definition) =>
    definition.kind === 'OperationDefinition' && definition.name ? [definition.name.value] : [],
  )[0] ?? '';

const sameVariables = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([name, value]) => b[name] === value);

/** For tests: forget what the page carried (it is read once, from the document). */
export function resetPageData(): void {
  entries = null;
}

const indexOf = (name: string, variables: Record<string, unknown>) =>
  pageEntries().findIndex(
    (entry) => entry.operation === name && sameVariables(entry.variables, variables),
  );

/**
 * The options that make `useQuery(document, { variables })` render from the page's answer, once:
 * it goes into the cache and the query reads it from there (`cache-first`) instead of asking the
 * network; none when the page carries no answer to it (then the app's defaults apply: network).
 * The answer is used up when the component has mounted, not before: a render that React throws
 * away (a hydration that suspended further down) finds it again. Polling and refetching always
 * ask the network.
 */
export function usePageData<V extends OperationVariables>(
  document: DocumentNode,
  variables: V,
): { fetchPolicy?: 'cache-first' } {
  const client = useApolloClient();
  const name = operationName(document);
  const key = JSON.stringify(variables);
  const [seeded] = useState(() => {
    const entry = pageEntries()[indexOf(name, variables)];
    if (!entry) return null;
    try {
      client.writeQuery({ query: document, variables, data: entry.data as never });
    } catch {
      return null;
    }
    return key;
  });
  useEffect(() => {
    if (seeded === null) return;
    const index = indexOf(name, JSON.parse(seeded) as Record<string, unknown>);
    if (index >= 0) pageEntries().splice(index, 1);
  }, [name, seeded]);
  // Only for the variables it answered: the same page with another subject asks as before.
  return seeded === key ? { fetchPolicy: 'cache-first' } : {};
}
