import { readFileSync } from 'node:fs';
import { buildASTSchema, parse, print, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';

/**
 * media's multipart route runs identity's updateProfile (docs/adr/0049) from its own copy of the
 * operation's types, so the document a client validates against the supergraph must validate
 * here too: the copy is the same as identity's, field for field.
 */
const read = (url: URL) => parse(readFileSync(url, 'utf8'));
const identity = read(new URL('../../identity/src/schema.graphql', import.meta.url));
const upload = read(new URL('../src/upload-schema.graphql', import.meta.url));

function fieldsOf(document: DocumentNode, name: string): string[] {
  for (const definition of document.definitions) {
    if (
      (definition.kind === 'InputObjectTypeDefinition' ||
        definition.kind === 'ObjectTypeDefinition' ||
        definition.kind === 'ObjectTypeExtension') &&
      definition.name.value === name
    ) {
      return (definition.fields ?? [])
        .map((field) => `${field.name.value}: ${print(field.type)}`)
        .sort();
    }
  }
  throw new Error(`${name} is not defined`);
}

const mutationField = (document: DocumentNode) =>
  document.definitions.flatMap((definition) =>
    (definition.kind === 'ObjectTypeDefinition' || definition.kind === 'ObjectTypeExtension') &&
    definition.name.value === 'Mutation'
      ? (definition.fields ?? [])
          .filter((field) => field.name.value === 'updateProfile')
          .map((field) => print({ ...field, description: undefined }))
      : [],
  );

describe("media's copy of updateProfile", () => {
  it.each(['UpdateProfileInput', 'UpdateProfileResult'])('%s matches identity', (name) => {
    expect(fieldsOf(upload, name)).toEqual(fieldsOf(identity, name));
  });

  it('has the same signature as identity', () => {
    expect(mutationField(upload)).toEqual(mutationField(identity));
    expect(mutationField(upload)).toHaveLength(1);
  });

  it('is a schema with media SDL types (Status, Upload) only', () => {
    const sdl = `type Status { success: Boolean! identifier: String! message: String! }
      scalar Upload type Mutation { _: Boolean }`;
    expect(() => buildASTSchema(parse(`${sdl}\n${print(upload)}`))).not.toThrow();
  });
});
