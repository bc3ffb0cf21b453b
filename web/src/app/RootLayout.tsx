import { Outlet, ScrollRestoration } from 'react-router';
import { AuthDialogs } from '../modules/auth/components/AuthDialogs';
import { IntroVideoDialog } from '../modules/intro/components/IntroVideoDialog';

/** Above every layout: the routed dialogs and the first-visit intro. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <AuthDialogs />
      <IntroVideoDialog />
      <ScrollRestoration />
    </>
  );
}
