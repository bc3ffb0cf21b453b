/** POSTs a GraphQL operation as the web app does; returns the parsed body and the HTTP status. */
export async function graphql<T = Record<string, unknown>>(
  url: string,
  query: string,
  options: { token?: string; variables?: Record<string, unknown> } = {},
): Promise<{ httpStatus: number; data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: JSON.stringify({ query, variables: options.variables ?? {} }),
  });
  return { httpStatus: response.status, ...((await response.json()) as object) };
}
