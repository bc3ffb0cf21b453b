import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SPA_ROUTE_PATTERNS } from './routePaths';
import { appRoutes } from './routes';

/** Every full path the route table can match (layout routes add nothing, `*` is the fallback). */
function fullPaths(routes: readonly RouteObject[], prefix = ''): string[] {
  return routes.flatMap((route) => {
    if (route.path === '*') return [];
    const here = route.path ? `${prefix.replace(/\/$/, '')}/${route.path}` : prefix;
    const self = route.path || route.index ? [here || '/'] : [];
    return [...self, ...(route.children ? fullPaths(route.children, here) : [])];
  });
}

describe('SPA route patterns', () => {
  it('list exactly the paths of the route table', () => {
    const table = [...new Set(fullPaths(appRoutes))].sort();
    expect([...SPA_ROUTE_PATTERNS].sort()).toEqual(table);
  });
});
