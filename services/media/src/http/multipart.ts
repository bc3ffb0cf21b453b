import { randomUUID } from 'node:crypto';
import {
  AppError,
  AuthStateUnavailableError,
  bearerToken,
  NUL_REFUSAL,
  requestHoldsNul,
  type AuthUser,
  type Logger,
  type RequestContext,
  type TokenVerifier,
} from '@challenge/kit';
import busboy from 'busboy';
import type { Request, RequestHandler, Response } from 'express';
import type {
  DocumentNode,
  ExecutionResult,
  GraphQLSchema,
  OperationDefinitionNode,
} from 'graphql';
import { z } from 'zod';
import { MAX_VIDEO_BYTES, Upload } from '../domain/uploads.ts';
import type { MediaContext } from '../context.ts';
import { graphqlCjs } from '../graphql-realm.ts';

const { execute, GraphQLError, parse, validate } = graphqlCjs;

/**
 * Where media takes GraphQL multipart requests (spec section 7). The gateway forwards a
 * multipart POST of its /graphql here as a stream; media's own /graphql takes JSON only.
 */
export const UPLOAD_PATH = '/uploads/graphql';

/** The root fields a multipart request may run: the ones that take an Upload. */
export const UPLOAD_FIELDS = new Set(['createChallengeVideo', 'updateProfile']);

/** The parts of the request besides the file's bytes: small JSON. */
const FIELD_LIMIT_BYTES = 64 * 1024;

/**
 * After answering early (a refusal before or during the file), how long the rest of the body
 * may still arrive before the connection is cut: the client reads the answer instead of an
 * error on its still-sending socket, and a huge body is not read to its end.
 */
const LINGER_MS = 2_000;

const operationsSchema = z.object({
  query: z.string().max(FIELD_LIMIT_BYTES),
  operationName: z.string().max(200).nullish(),
  variables: z.record(z.string(), z.unknown()).nullish(),
});
const mapSchema = z
  .record(z.string(), z.array(z.string().max(200)).length(1))
  .refine((map) => Object.keys(map).length === 1, 'exactly one file');

export interface MultipartOptions {
  schema: GraphQLSchema;
  verifier: TokenVerifier;
  checkUser: (user: AuthUser) => Promise<void>;
  extend: (base: RequestContext) => MediaContext;
  logger: Logger;
}

type Answer = { status: number; body: ExecutionResult | { errors: unknown[] } };

const refusal = (status: number, identifier: string, message: string): Answer => ({
  status,
  body: { errors: [{ message, extensions: { code: 'BAD_REQUEST', identifier } }] },
});

/** Sets `value` at a dotted path below `variables` (only existing objects, no prototypes). */
function place(variables: Record<string, unknown>, path: string, value: unknown): boolean {
  const steps = path.split('.');
  if (steps.shift() !== 'variables' || steps.length === 0) return false;
  let target: unknown = variables;
  for (const [index, step] of steps.entries()) {
    if (typeof target !== 'object' || target === null || !Object.hasOwn(target, step)) return false;
    if (index === steps.length - 1) {
      (target as Record<string, unknown>)[step] = value;
      return true;
    }
    target = (target as Record<string, unknown>)[step];
  }
  return false;
}

function uploadOperation(document: DocumentNode, name: string | null | undefined) {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === 'OperationDefinition',
  );
  const operation = name
    ? operations.find((candidate) => candidate.name?.value === name)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation || operation.operation !== 'mutation') return null;
  const fields = operation.selectionSet.selections;
  const allowed = fields.every(
    (selection) =>
      selection.kind === 'Field' &&
      (UPLOAD_FIELDS.has(selection.name.value) || selection.name.value === '__typename'),
  );
  return allowed ? operation : null;
}

/**
 * The multipart route: the token checked as on /graphql, the operations and map parts parsed,
 * the mutation started, and the file's stream handed to its resolver as it arrives (busboy
 * parses the body as it streams; nothing is buffered whole or written to disk).
 */
export function multipartUploads(options: MultipartOptions): RequestHandler {
  const { logger } = options;
  return async (req: Request, res: Response) => {
    const requestId = req.get('x-request-id') ?? randomUUID();
    const log = logger.child({ requestId });
    let answered = false;
    const answer = ({ status, body }: Answer) => {
      if (answered) return;
      answered = true;
      // No `connection: close` here: Node would then destroy the socket as soon as the answer is
      // written, and a client (the gateway) still sending the body gets EPIPE before it reads the
      // answer. The rest of the body drains below, and the socket is cut after LINGER_MS.
      res.status(status).json(body);
      if (!req.complete) {
        req.unpipe();
        req.resume();
        const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
        timer.unref();
        req.once('end', () => clearTimeout(timer));
      }
    };

    if (!req.is('multipart/form-data')) {
      answer(refusal(415, 'invalid_input', 'Send a multipart/form-data request.'));
      return;
    }
    const base: RequestContext = { user: null, requestId, logger: log };
    const token = bearerToken(req.get('authorization'));
    if (token) {
      try {
        base.user = await options.verifier.verify(token);
        await options.checkUser(base.user);
      } catch (error) {
        if (error instanceof AppError) {
          answer({
            status: 401,
            body: {
              errors: [
                {
                  message: error.message,
                  extensions: { code: 'UNAUTHENTICATED', identifier: error.identifier },
                },
              ],
            },
          });
          return;
        }
        if (error instanceof AuthStateUnavailableError) {
          answer(refusal(503, 'generic_error', 'Something went wrong.'));
          return;
        }
        throw error;
      }
    }

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fields: 2,
          files: 1,
          fieldSize: FIELD_LIMIT_BYTES,
          // The domain refuses sooner with its own message; this is the parser's backstop.
          fileSize: MAX_VIDEO_BYTES + 1,
        },
      });
    } catch {
      answer(refusal(400, 'invalid_input', 'The multipart request is malformed.'));
      return;
    }

    let operations: z.infer<typeof operationsSchema> | null = null;
    let upload: { upload: Upload; field: string } | null = null;
    let execution: Promise<void> | null = null;

    const start = (document: DocumentNode) => {
      const context = options.extend(base);
      execution = Promise.resolve(
        execute({
          schema: options.schema,
          document,
          operationName: operations?.operationName ?? undefined,
          variableValues: operations?.variables ?? {},
          contextValue: context,
        }),
      ).then(
        (result) => answer({ status: 200, body: masked(log, result) }),
        (error: unknown) => {
          log.error({ err: error }, 'multipart execution failed');
          answer(refusal(500, 'generic_error', 'Something went wrong.'));
        },
      );
    };

    parser.on('field', (name, value, info) => {
      if (answered) return;
      if (info.valueTruncated) {
        answer(refusal(413, 'invalid_input', 'A part of the request is too large.'));
        return;
      }
      try {
        if (name === 'operations' && !operations) {
          operations = operationsSchema.parse(JSON.parse(value));
          return;
        }
        if (name === 'map' && operations && !upload) {
          const [[field, paths]] = Object.entries(mapSchema.parse(JSON.parse(value))) as [
            [string, string[]],
          ];
          const variables = { ...(operations.variables ?? {}) };
          operations.variables = variables;
          const document = parse(operations.query, { maxTokens: 2_000 });
          const errors = validate(options.schema, document);
          if (errors.length > 0 || !uploadOperation(document, operations.operationName)) {
            answer(refusal(400, 'invalid_input', errors[0]?.message ?? 'Not an upload operation.'));
            return;
          }
          if (requestHoldsNul(document, variables)) {
            answer(refusal(400, 'invalid_input', NUL_REFUSAL));
            return;
          }
          upload = { upload: new Upload(), field };
          if (!place(variables, paths[0]!, upload.upload)) {
            answer(refusal(400, 'invalid_input', 'The map names no variable of the operation.'));
            return;
          }
          start(document);
          return;
        }
      } catch (error) {
        if (!(
          error instanceof z.ZodError ||
          error instanceof SyntaxError ||
          error instanceof GraphQLError
        )) {
          log.warn({ err: error }, 'multipart field refused');
        }
      }
      answer(refusal(400, 'invalid_input', 'The operations and map parts are malformed.'));
    });

    parser.on('file', (name, stream, info) => {
      if (answered || !upload || name !== upload.field) {
        stream.resume();
        return;
      }
      upload.upload.resolve({
        filename: info.filename ?? 'upload',
        mimeType: info.mimeType,
        stream,
      });
    });

    const noFile = () => upload?.upload.reject(new AppError('upload_error', 'No file arrived.'));
    parser.on('close', () => {
      noFile();
      if (!execution)
        answer(refusal(400, 'invalid_input', 'The operations or map part is missing.'));
    });
    parser.on('error', (error: Error) => {
      upload?.upload.reject(error);
      if (!execution) answer(refusal(400, 'invalid_input', 'The multipart request is malformed.'));
    });
    // A cut connection: the file's stream errors (busboy sees an unexpected end); the resolver
    // aborts the multipart upload and answers upload_error to nobody.
    req.on('aborted', () => parser.destroy(new Error('client aborted the upload')));
    req.pipe(parser);
  };
}

/** Like the subgraph's formatError: catalogue errors stay, anything else is generic_error. */
function masked(logger: Logger, result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  return {
    ...result,
    errors: result.errors.map((error) => {
      if (error.extensions?.identifier || error.extensions?.code === 'BAD_USER_INPUT') {
        return error;
      }
      if (!error.originalError) {
        // GraphQL's own refusals (variables that do not fit the operation).
        return new GraphQLError(error.message, {
          extensions: { code: 'BAD_USER_INPUT', identifier: 'invalid_input' },
        });
      }
      logger.error({ err: error.originalError ?? error }, 'unexpected GraphQL error in upload');
      return new GraphQLError('Something went wrong.', {
        extensions: { code: 'INTERNAL_SERVER_ERROR', identifier: 'generic_error' },
      });
    }),
  };
}
