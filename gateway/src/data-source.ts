import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import {
  ERROR_CATALOGUE,
  GATEWAY_SECRET_HEADER,
  inClientSpan,
  traceHeaders,
  tracerFor,
} from '@challenge/kit';
import { GraphQLError } from 'graphql';
import type { GatewayContext, Refusal } from './context.ts';
import { distinctRepresentations } from './representations.ts';

type Response = Awaited<ReturnType<GraphQLDataSource['process']>>;

const tracer = tracerFor('gateway');

const isGatewayContext = (context: unknown): context is GatewayContext =>
  typeof context === 'object' && context !== null && 'requestId' in context;

/** The identifier a subgraph's 401 body carries (kit's subgraphs send one), else unauthorized. */
function refusalOf(body: unknown): Refusal {
  const errors = (body as { errors?: { extensions?: { identifier?: unknown } }[] } | null)?.errors;
  return errors?.[0]?.extensions?.identifier === 'banned_user' ? 'banned_user' : 'unauthorized';
}

/** A subgraph's answer: hung up or silent for this long fails the fetch (generic_error). */
const SUBGRAPH_TIMEOUT_MS = 60_000;

export interface ForwardingOptions {
  /** The subgraph's name, for the fetch's span. */
  name: string;
  /** The subgraph's /graphql URL. */
  url: string;
  /** The gateway's credential (docs/adr/0069). */
  gatewaySecret: string;
  /**
   * Connections kept open to this subgraph (docs/adr/0088): requests beyond it wait for a free
   * one rather than opening more. Idle ones stay open; the subgraphs keep theirs for 75 s.
   */
  maxSockets?: number;
}

/**
 * The gateway's fetch of one subgraph: the credential (docs/adr/0069), the request id and the
 * caller's token go with it; a subgraph's HTTP 401 (it refused the token) becomes a catalogue
 * error and marks the request, so that the gateway's response is a 401 too (session-plugin.ts);
 * other HTTP failures, a 403 for a credential the subgraph does not take among them, stay masked
 * as generic_error. Each fetch is a CLIENT span whose context the subgraph continues
 * (docs/adr/0080).
 *
 * Not @apollo/gateway's RemoteGraphQLDataSource over fetch (docs/adr/0088): per subgraph call it
 * built a node-fetch Request and Headers nobody read, and undici wrote the headers and the body
 * in separate writes and parsed the answer in WebAssembly. Here one keep-alive pool per subgraph
 * (node:http, its native parser) takes the request in one write. An entity fetch sends each
 * distinct representation once (docs/adr/0108).
 */
export class ForwardingDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly agent: Agent;
  /** Parsed at the first call: a subgraph nobody calls may be configured without a URL. */
  private target: URL | null = null;
  private readonly baseHeaders: Record<string, string>;

  constructor(private readonly options: ForwardingOptions) {
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: options.maxSockets ?? 128,
      scheduling: 'lifo',
    });
    this.baseHeaders = {
      'content-type': 'application/json',
      accept: 'application/json',
      [GATEWAY_SECRET_HEADER]: options.gatewaySecret,
    };
  }

  private get url(): URL {
    this.target ??= new URL(this.options.url);
    return this.target;
  }

  /** Closes the idle connections (the gateway's stop). */
  close(): void {
    this.agent.destroy();
  }

  process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<Response> {
    return inClientSpan(
      tracer,
      `POST ${this.options.name}`,
      { 'http.request.method': 'POST', 'graphql.subgraph.name': this.options.name },
      () => this.send(options),
    );
  }

  private async send(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<Response> {
    const { request, context } = options;
    if (!request.query) throw new Error('Missing query');
    const headers: Record<string, string> = { ...this.baseHeaders, ...traceHeaders() };
    // The gateway's own health queries carry no request context.
    if (isGatewayContext(context)) {
      headers['x-request-id'] = context.requestId;
      if (context.token) headers.authorization = `Bearer ${context.token}`;
    }
    const distinct = distinctRepresentations(request.variables);
    const body = JSON.stringify({
      query: request.query,
      variables: distinct?.variables ?? request.variables,
      operationName: request.operationName,
      extensions: request.extensions,
    });
    const answer = await this.post(body, headers);
    if (answer.status === 401) {
      const identifier = refusalOf(parseJson(answer.body));
      if (isGatewayContext(context)) context.refusal = identifier;
      throw new GraphQLError(ERROR_CATALOGUE[identifier], {
        extensions: { code: 'UNAUTHENTICATED', identifier },
      });
    }
    // No code: formatError logs it and answers generic_error, never the subgraph's URL.
    if (answer.status < 200 || answer.status > 299) {
      throw new GraphQLError(`subgraph answered HTTP ${answer.status}`);
    }
    const parsed = parseJson(answer.body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error('the subgraph answered no JSON object');
    }
    // As Apollo's data source does: the response is no more cacheable than each subgraph's.
    const policy =
      'incomingRequestContext' in options
        ? options.incomingRequestContext.overallCachePolicy
        : undefined;
    if (policy && 'restrict' in policy) policy.restrict(cacheHint(answer.headers));
    return distinct ? distinct.expand(parsed as Response) : (parsed as Response);
  }

  private post(
    body: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: this.url.hostname,
          port: this.url.port,
          path: `${this.url.pathname}${this.url.search}`,
          method: 'POST',
          agent: this.agent,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          timeout: SUBGRAPH_TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString(),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('the subgraph did not answer in time')));
      req.on('error', reject);
      req.end(body);
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The cache hint of a subgraph's Cache-Control header (none: not cacheable). */
function cacheHint(headers: IncomingHttpHeaders): { maxAge: number; scope?: 'PRIVATE' | 'PUBLIC' } {
  const header = headers['cache-control'] ?? '';
  const maxAge = /(?:^|,)\s*max-age=(\d+)\s*(?:,|$)/i.exec(header)?.[1];
  const scope = /(?:^|,)\s*private\s*(?:,|$)/i.test(header)
    ? 'PRIVATE'
    : /(?:^|,)\s*public\s*(?:,|$)/i.test(header)
      ? 'PUBLIC'
      : undefined;
  return { maxAge: maxAge ? Number(maxAge) : 0, ...(scope ? { scope } : {}) };
}
