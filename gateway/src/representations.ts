/**
 * One representation per entity in a subgraph's `_entities` fetch (docs/adr/0108).
 * @apollo/gateway sends a representation for every place an entity appears in the result: a
 * profile's six challenge cards by one owner ask identity for the same owner six times, and the
 * subgraph resolves each. The fetch sends each distinct representation once and gives every place
 * its own copy of the answer, and of the errors at it.
 */

interface SubgraphError {
  path?: readonly (string | number)[];
}

export interface SubgraphAnswer {
  data?: { _entities?: unknown } | null;
  errors?: readonly SubgraphError[];
}

export interface DistinctRepresentations {
  /** The fetch's variables with each representation once. */
  variables: Record<string, unknown>;
  /** The answer to those, as the gateway expects it: one entity per representation it asked. */
  expand<A extends SubgraphAnswer>(answer: A): A;
}

/** Null when there is nothing to merge: no representations, or no two alike. */
export function distinctRepresentations(
  variables: Record<string, unknown> | undefined,
): DistinctRepresentations | null {
  const representations = variables?.representations;
  if (!Array.isArray(representations) || representations.length < 2) return null;
  const indexOf = new Map<string, number>();
  const distinct: unknown[] = [];
  // The gateway builds each representation in its selection's field order: alike is equal text.
  const sentAs = representations.map((representation) => {
    const key = JSON.stringify(representation);
    let index = indexOf.get(key);
    if (index === undefined) {
      index = distinct.length;
      indexOf.set(key, index);
      distinct.push(representation);
    }
    return index;
  });
  if (distinct.length === representations.length) return null;
  return {
    variables: { ...variables, representations: distinct },
    expand: (answer) => expand(answer, sentAs, distinct.length),
  };
}

function expand<A extends SubgraphAnswer>(answer: A, sentAs: number[], sent: number): A {
  const entities = answer.data?._entities;
  const expanded = { ...answer };
  // A wrong count stays wrong: the gateway refuses it (generic_error), as it would have.
  if (Array.isArray(entities) && entities.length === sent) {
    const used = new Set<number>();
    expanded.data = {
      ...answer.data,
      // The gateway merges each entity into its place, and later fetches into what it merged:
      // places must not share objects.
      _entities: sentAs.map((index) => {
        if (used.has(index)) return structuredClone(entities[index]);
        used.add(index);
        return entities[index];
      }),
    };
  }
  if (answer.errors) {
    expanded.errors = answer.errors.flatMap((error) => {
      const [root, index, ...rest] = error.path ?? [];
      if (root !== '_entities' || typeof index !== 'number') return [error];
      return sentAs.flatMap((sentIndex, place) =>
        sentIndex === index ? [{ ...error, path: ['_entities', place, ...rest] }] : [],
      );
    });
  }
  return expanded;
}
