import { Outlet, ScrollRestoration } from 'react-router';
import { AuthDialogs } from '../modules/auth/components/AuthDialogs';
import { SessionRefreshNotice } from '../modules/auth/components/SessionRefreshNotice';
import { IntroVideoDialog } from '../modules/intro/components/IntroVideoDialog';
import { LocationGate } from '../modules/location/components/LocationGate';
import { NewVersionNotice } from '../modules/shell/components/NewVersionNotice';

/**
 * Above every layout: the location check (route guard step 2; the route itself was matched
 * first), then the page, the routed dialogs and the first-visit intro; the latest-build check.
 */
export function RootLayout() {
  return (
    <>
      <LocationGate>
        <Outlet />
        <AuthDialogs />
        <IntroVideoDialog />
      </LocationGate>
      <SessionRefreshNotice />
      <NewVersionNotice />
      <ScrollRestoration />
    </>
  );
}
