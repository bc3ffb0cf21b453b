import { ERROR_IDENTIFIERS } from '@challenge/kit';
import { DOT_SEGMENTS, SEPARATORS } from '@challenge/testing';
import fc from 'fast-check';
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputType,
} from 'graphql';

/** Strings that have broken input handling somewhere before. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  'a'.repeat(10_000),
  '€'.repeat(5_000),
  '\u0000',
  'null\u0000byte',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '2147483648',
  '9007199254740993',
  '1e309',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שלום',
  '🦄💶🔥👩‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  '\uD800',
  '\uFEFF',
  '%00%0a',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${7*7}',
  'http://169.254.169.254/latest/meta-data/',
  '//evil.example/path',
  'javascript:alert(1)',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'user@example.test',
  'a@b',
  '@',
  '/',
  '/wallet',
  '/challenge/create?x=1#y',
  'NL91ABNA0417164300',
  'ABNANL2A',
  '+31612345678',
  '1990-01-01',
  '2999-12-31',
  '0000-00-00',
  'soft',
  'hard',
  'User',
  'Challenge',
  'open',
  'done',
  'pain.001.001.03',
];

const BOUNDARY_INTS = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 500, 1_000, 99, 100_000, 10_000_001];
/** Out of GraphQL's Int range, or not integers: the gateway must refuse them cleanly. */
const BAD_NUMBERS = [2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, 1.5, -0.0001, 1e308];

const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constantFrom(...ERROR_IDENTIFIERS) },
);
const anInt = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...BOUNDARY_INTS) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) },
);

/** Anything JSON can carry: what a client with a bug (or a malicious one) might send. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constantFrom(...BAD_NUMBERS),
  nastyString,
  fc.boolean(),
  fc.double({ noNaN: true }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/**
 * Values of type `type` with nasty contents. Well-typed values reach the resolvers; `broken`
 * ones also carry wrong types, nulls, missing and extra fields, for the gateway's validation.
 */
function valueOf(type: GraphQLInputType, broken: boolean): fc.Arbitrary<unknown> {
  const typed = typedValueOf(type, broken);
  return broken
    ? fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: wrongValue })
    : typed;
}

function typedValueOf(type: GraphQLInputType, broken: boolean): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return typedValueOf(type.ofType, broken);
  if (isListType(type)) return fc.array(valueOf(type.ofType, broken), { maxLength: 3 });
  if (isEnumType(type)) {
    const values = fc.constantFrom(...type.getValues().map((value) => value.name));
    return broken ? fc.oneof(values, nastyString) : values;
  }
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    const complete = fc.record(
      Object.fromEntries(fields.map((field) => [field.name, valueOf(field.type, broken)])),
      { requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name) },
    );
    if (!broken) return complete;
    return fc.oneof(
      { weight: 3, arbitrary: complete },
      // A field too many, a field missing, every field null.
      {
        weight: 1,
        arbitrary: fc
          .tuple(complete, fc.string({ minLength: 1, maxLength: 8 }), wrongValue)
          .map(([value, key, extra]) => ({ ...value, [`x${key}`]: extra })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(complete, fc.nat())
          .map(([value, index]) =>
            Object.fromEntries(Object.entries(value).filter((_, i) => i !== index % fields.length)),
          ),
      },
      {
        weight: 1,
        arbitrary: fc.constant(Object.fromEntries(fields.map((field) => [field.name, null]))),
      },
    );
  }
  switch (type.name) {
    case GraphQLInt.name:
      return anInt;
    case GraphQLFloat.name:
      return fc.oneof(anInt, fc.double({ noNaN: true, noDefaultInfinity: true }));
    case GraphQLBoolean.name:
      return fc.boolean();
    case GraphQLString.name:
    case GraphQLID.name:
      return nastyString;
    default:
      return wrongValue;
  }
}

/**
 * Variables for every argument of an operation (an optional one is sometimes left out): three in
 * four well-typed, one in four broken.
 */
export function variablesOf(
  args: readonly { name: string; type: GraphQLInputType }[],
): fc.Arbitrary<Record<string, unknown>> {
  if (args.length === 0) {
    // Nothing to vary but stray variables, which must be ignored.
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), wrongValue, { maxKeys: 2 });
  }
  const record = (broken: boolean) =>
    fc.record(Object.fromEntries(args.map((arg) => [arg.name, valueOf(arg.type, broken)])), {
      requiredKeys: args.filter((arg) => isNonNullType(arg.type)).map((arg) => arg.name),
    });
  return fc.oneof({ weight: 3, arbitrary: record(false) }, { weight: 1, arbitrary: record(true) });
}

/** Text that only an internal fault puts into an answer: stack frames, drivers, SQL errors. */
const INTERNAL_TEXT = [
  /"(stack|stacktrace|exception)"\s*:/i,
  /\bat [\w.<>$]+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)/,
  /node_modules|\.ts:\d+:\d+/,
  /prisma/i,
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE/,
  /syntax error at or near|violates (?:foreign key|unique|not-null|check) constraint/i,
  /invalid input syntax for type|duplicate key value|relation "[^"]+" does not exist/i,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError):/,
  /Cannot read propert(?:y|ies) of (?:undefined|null)/,
  /subgraph answered HTTP|kafkajs|ioredis|\bpg\b.*\berror\b/i,
];

const CLEAN_CODES = new Set([
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'GRAPHQL_PARSE_FAILED',
]);

/**
 * The faults in one answer of the gateway, as lines; none when it is a clean success or a clean
 * catalogue error. Statuses are checked wherever they sit in the data.
 */
export function faultsOf(httpStatus: number, text: string): string[] {
  const faults: string[] = [];
  if (httpStatus >= 500) faults.push(`HTTP ${httpStatus}`);
  for (const pattern of INTERNAL_TEXT) {
    if (pattern.test(text)) faults.push(`internal text ${pattern}`);
  }
  let body: {
    data?: unknown;
    errors?: { message?: string; extensions?: { code?: string; identifier?: string } }[];
  };
  try {
    body = JSON.parse(text);
  } catch {
    return [...faults, `not JSON: ${text.slice(0, 80)}`];
  }
  for (const error of body.errors ?? []) {
    const identifier = error.extensions?.identifier;
    if (identifier === undefined && CLEAN_CODES.has(error.extensions?.code ?? '')) {
      faults.push(`${error.extensions?.code} without a catalogue identifier`);
    } else if (!identifier || !ERROR_IDENTIFIERS.includes(identifier as never)) {
      faults.push(
        `error without a catalogue identifier: ${error.extensions?.code ?? error.message}`,
      );
    } else if (identifier === 'generic_error') {
      faults.push('generic_error (an unexpected fault, masked)');
    }
  }
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const status = (value as { status?: { identifier?: unknown } }).status;
    if (status && typeof status === 'object' && 'identifier' in status) {
      const identifier = String(status.identifier);
      if (identifier === 'generic_error') faults.push('status generic_error (an unexpected fault)');
      else if (identifier !== 'ok' && !ERROR_IDENTIFIERS.includes(identifier as never)) {
        faults.push(`status identifier outside the catalogue: ${identifier}`);
      }
    }
    Object.values(value).forEach(visit);
  };
  visit(body.data);
  if (!body.errors?.length && body.data === undefined) faults.push('neither data nor errors');
  return faults;
}

/**
 * One well-typed input per string in `strings` where every string argument and field is that
 * string (and every number an edge): the same edge reaches every field of every operation in
 * each run, whatever the random inputs happen to try.
 */
export function edgeVariablesOf(
  args: readonly { name: string; type: GraphQLInputType }[],
  // NUL alone is short enough for most minimum lengths to refuse it; inside a word it passes them
  // and reaches whatever the resolver does next.
  strings: readonly string[] = ['\u0000', 'a'.repeat(10_000), '', 'null\u0000byte'],
): Record<string, unknown>[] {
  const valueFor = (type: GraphQLInputType, text: string, index: number): unknown => {
    if (isNonNullType(type)) return valueFor(type.ofType, text, index);
    if (isListType(type)) return [valueFor(type.ofType, text, index)];
    if (isEnumType(type)) return type.getValues()[0]?.name;
    if (isInputObjectType(type)) {
      return Object.fromEntries(
        Object.values(type.getFields()).map((field) => [
          field.name,
          valueFor(field.type, text, index),
        ]),
      );
    }
    if (type.name === GraphQLInt.name || type.name === GraphQLFloat.name) {
      return BOUNDARY_INTS[(index * 3) % BOUNDARY_INTS.length];
    }
    if (type.name === GraphQLBoolean.name) return index % 2 === 0;
    return text;
  };
  return strings.map((text, index) =>
    Object.fromEntries(args.map((arg) => [arg.name, valueFor(arg.type, text, index)])),
  );
}

/** The gateway's paths that forward to another process, as a client would start them. */
export const FORWARDING_PREFIXES = [
  '/api/uploads/tus/',
  '/_ipx/',
  '/api/payments/webhook/',
  '/api/dev/inbox/',
] as const;

/** Characters a path segment is made of here: letters, digits and whatever a parser may decode. */
const PATH_CHARACTERS = [...'abcefAEF0123456789._-~%/\\;&,:@!$=+'];

const pathSegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DOT_SEGMENTS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'graphql',
      'metrics',
      'readyz',
      'healthz',
      'uploads',
      'tus',
      '_ipx',
      'internal',
      'avatars',
      'w_64',
      'w_64&f_webp',
      '',
      '.',
      '%2e',
      '%00',
      '%',
      '%zz',
      '%252f',
    ),
  },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...PATH_CHARACTERS), maxLength: 12 }) },
);

/** The endpoints a climb aims at: another process's own, or the gateway's. */
const INTERNAL_ENDPOINTS = ['graphql', 'metrics', 'readyz', 'uploads/graphql', 'internal'];

/**
 * A raw path below one of the forwarding prefixes, shaped like an attack and varied like a fuzz:
 * up to two segments of anything, then up to four parent-directory segments in mixed encodings,
 * then an internal endpoint's name or anything else, joined by a slash (mostly) or an encoded or
 * backslash separator, sometimes with a query that climbs too.
 */
export const forwardingPath: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...FORWARDING_PREFIXES),
    fc.array(pathSegment, { maxLength: 2 }),
    fc.array(fc.constantFrom(...DOT_SEGMENTS), { maxLength: 4 }),
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...INTERNAL_ENDPOINTS) },
      { weight: 1, arbitrary: pathSegment },
    ),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant('/') },
      { weight: 2, arbitrary: fc.constantFrom(...SEPARATORS) },
    ),
    fc.constantFrom('', '', '?x=../../graphql', '?', '#fragment'),
  )
  .map(
    ([prefix, junk, climb, target, separator, query]) =>
      `${prefix}${[...junk, ...climb, target].join(separator)}${query}`,
  );

/** Methods of the fuzzed paths: mostly the ones that read or send a body. */
export const forwardingMethod = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 1, arbitrary: fc.constantFrom('HEAD', 'PATCH', 'DELETE', 'OPTIONS') },
);
