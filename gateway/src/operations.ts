import {
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** The root fields an operation selects, through inline fragments and fragment spreads. */
export function rootFields(
  document: DocumentNode,
  operation: OperationDefinitionNode,
): FieldNode[] {
  const fragments = new Map(
    document.definitions
      .filter((node): node is FragmentDefinitionNode => node.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const fields: FieldNode[] = [];
  const seen = new Set<string>();
  const visit = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return fields;
}

/** A field's arguments with variables substituted (inline literals and variables alike). */
export function argumentValues(
  field: FieldNode,
  variables: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return Object.fromEntries(
    (field.arguments ?? []).map((argument) => [
      argument.name.value,
      valueFromASTUntyped(argument.value, variables ?? {}),
    ]),
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The account a sign-in operation is about: its input's (or its own) `email` or `username`,
 * trimmed and lower-cased; null when absent.
 */
export function accountOf(args: Record<string, unknown>): string | null {
  const source = isRecord(args.input) ? args.input : args;
  const raw = source.email ?? source.username;
  if (typeof raw !== 'string') return null;
  const account = raw.trim().toLowerCase();
  return account || null;
}

/** The key a field's result has in the response: its alias, else its name. */
export const responseKey = (field: FieldNode): string => field.alias?.value ?? field.name.value;
