import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import {
  VerifyingUserProvider,
  type VerifyingUserStore,
} from '../modules/auth/components/VerifyingUserProvider';
import { LocationCheckContext } from '../modules/location/hooks/useCheckLocation';
import type { LocationCheck } from '../modules/location/locationVerdict';
import { FullscreenLoaderProvider } from '../ui/FullscreenLoader';
import { ToastProvider } from '../ui/toast/Toasts';
import type { ToastStore } from '../ui/toast/toastStore';
import { ApolloSourceContext, type ApolloSource } from './apolloSource';

export interface AppProvidersProps {
  i18n: I18n;
  toasts: ToastStore;
  /**
   * The app's Apollo client, loaded when data is first needed (apolloSource.ts). Omit when the
   * caller provides Apollo itself (MockedProvider in tests).
   */
  apollo?: ApolloSource;
  /** Replaces the gateway's location verdict (tests). */
  checkLocation?: LocationCheck;
  /** The sign-up in progress; the app's own, so that a 401 can clear it. */
  verifyingUser?: VerifyingUserStore;
  children: ReactNode;
}

export function AppProviders({
  i18n,
  toasts,
  apollo,
  checkLocation,
  verifyingUser,
  children,
}: AppProvidersProps) {
  let content = (
    <ToastProvider store={toasts}>
      <FullscreenLoaderProvider>
        <VerifyingUserProvider {...(verifyingUser ? { store: verifyingUser } : {})}>
          {children}
        </VerifyingUserProvider>
      </FullscreenLoaderProvider>
    </ToastProvider>
  );
  if (checkLocation) {
    content = <LocationCheckContext value={checkLocation}>{content}</LocationCheckContext>;
  }
  return (
    <I18nextProvider i18n={i18n}>
      {apollo ? <ApolloSourceContext value={apollo}>{content}</ApolloSourceContext> : content}
    </I18nextProvider>
  );
}
