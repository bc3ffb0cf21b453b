import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import {
  ERROR_CATALOGUE,
  GATEWAY_SECRET_HEADER,
  inClientSpan,
  traceHeaders,
  tracerFor,
} from '@challenge/kit';
import { GraphQLError } from 'graphql';
import type { GatewayContext, Refusal } from './context.ts';

type Base = RemoteGraphQLDataSource<GatewayContext>;
type FetcherResponse = Parameters<Base['errorFromResponse']>[0];
type FetchRequest = Parameters<Base['didEncounterError']>[1];
type ProcessOptions = Parameters<Base['process']>[0];

const tracer = tracerFor('gateway');

const isGatewayContext = (context: unknown): context is GatewayContext =>
  typeof context === 'object' && context !== null && 'requestId' in context;

/** The identifier a subgraph's 401 body carries (kit's subgraphs send one), else unauthorized. */
function refusalOf(body: unknown): Refusal {
  const errors = (body as { errors?: { extensions?: { identifier?: unknown } }[] } | null)?.errors;
  return errors?.[0]?.extensions?.identifier === 'banned_user' ? 'banned_user' : 'unauthorized';
}

/**
 * Sends the gateway's credential (docs/adr/0069), the request id and the caller's token to the
 * subgraphs. A subgraph's HTTP 401 (it refused the token) becomes a catalogue error and marks the
 * request, so that the gateway's response is a 401 too (session-plugin.ts); other HTTP failures,
 * a 403 for a credential the subgraph does not take among them, stay masked as generic_error.
 * Each fetch is a CLIENT span whose context the subgraph continues (docs/adr/0080).
 */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  private readonly gatewaySecret: string;
  private readonly subgraph: string;

  constructor(
    config: ConstructorParameters<typeof RemoteGraphQLDataSource>[0] & {
      gatewaySecret: string;
      /** The subgraph's name, for the fetch's span. */
      name: string;
    },
  ) {
    super(config);
    this.gatewaySecret = config.gatewaySecret;
    this.subgraph = config.name;
  }

  override process(options: ProcessOptions): ReturnType<Base['process']> {
    return inClientSpan(
      tracer,
      `POST ${this.subgraph}`,
      { 'http.request.method': 'POST', 'graphql.subgraph.name': this.subgraph },
      () => super.process(options),
    );
  }

  override willSendRequest({
    request,
    context,
  }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    request.http?.headers.set(GATEWAY_SECRET_HEADER, this.gatewaySecret);
    for (const [name, value] of Object.entries(traceHeaders())) {
      request.http?.headers.set(name, value);
    }
    if (!isGatewayContext(context)) return; // the gateway's own health queries
    request.http?.headers.set('x-request-id', context.requestId);
    if (context.token) request.http?.headers.set('authorization', `Bearer ${context.token}`);
  }

  override async errorFromResponse(response: FetcherResponse): Promise<GraphQLError> {
    if (response.status !== 401) {
      // No code: formatError logs it and answers generic_error, never the subgraph's URL.
      return new GraphQLError(`subgraph answered HTTP ${response.status}`);
    }
    const identifier = refusalOf(await this.parseBody(response).catch(() => null));
    return new GraphQLError(ERROR_CATALOGUE[identifier], {
      extensions: { code: 'UNAUTHENTICATED', identifier },
    });
  }

  override didEncounterError(
    error: Error,
    _request: FetchRequest,
    response?: FetcherResponse,
    context?: GatewayContext,
  ): void {
    if (response?.status === 401 && isGatewayContext(context)) {
      const identifier = (error as GraphQLError).extensions?.identifier;
      context.refusal = identifier === 'banned_user' ? 'banned_user' : 'unauthorized';
    }
    throw error;
  }
}
