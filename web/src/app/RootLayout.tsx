import { useState } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useHydrated } from '../lib/useHydrated';
import { useModalRoute } from '../modules/auth/hooks/useModalRoute';
import { useVerifyingUser } from '../modules/auth/hooks/useVerifyingUser';
import { IntroVideoDialog } from '../modules/intro/components/IntroVideoDialog';
import { LocationGate } from '../modules/location/components/LocationGate';
import { NewVersionNotice } from '../modules/shell/components/NewVersionNotice';
import { dataComponent } from './dataComponent';

/**
 * The dialogs named by `?modal=` (log-in, complete account): their code, with Apollo's, loads
 * when one is asked for, after hydration (the server's prerender never knows the query).
 */
const AuthDialogs = dataComponent(
  () => import('../modules/auth/components/AuthDialogs').then((module) => module.AuthDialogs),
  { clientOnly: true },
);

/** Reads the session check (Apollo): its code loads with the page's (the prerender: nothing). */
const SessionRefreshNotice = dataComponent(() =>
  import('../modules/auth/components/SessionRefreshNotice').then(
    (module) => module.SessionRefreshNotice,
  ),
);

/**
 * Above every layout: the location check (route guard step 2; the route itself was matched
 * first), then the page, the routed dialogs and the first-visit intro; the latest-build check.
 */
export function RootLayout() {
  const { modal } = useModalRoute();
  const { verifying } = useVerifyingUser();
  // Loaded when first asked for, then kept: the closing dialog's effect gives focus back to the
  // button that opened it, which it cannot do once unmounted.
  const wanted = modal !== null || verifying !== null;
  const [authDialogsLoaded, setAuthDialogsLoaded] = useState(wanted);
  if (wanted && !authDialogsLoaded) setAuthDialogsLoaded(true);
  return (
    <>
      <LocationGate>
        <Outlet />
        {authDialogsLoaded ? <AuthDialogs /> : null}
        <IntroVideoDialog />
      </LocationGate>
      <SessionRefreshNotice />
      <NewVersionNotice />
      <ScrollRestorationAfterHydration />
    </>
  );
}

/**
 * The server renders no scroll restoration script (the policy allows no inline script). A
 * component of its own: the re-render that hydration's end causes (useHydrated) is blocking,
 * and it must not take the page below it along (docs/adr/0101).
 */
function ScrollRestorationAfterHydration() {
  return useHydrated() ? <ScrollRestoration /> : null;
}
