import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { AccessDeniedPage } from '../modules/errors/components/AccessDeniedPage';
import { NotFoundPage } from '../modules/errors/components/NotFoundPage';
import { FullscreenLoader } from '../ui/FullscreenLoader';
import { DefaultLayout } from './layouts/DefaultLayout';
import { FullscreenLayout } from './layouts/FullscreenLayout';
import { middleware } from './middleware';
import { RootLayout } from './RootLayout';
import { RouteErrorBoundary } from './RouteErrorBoundary';

/** Loads a page's module on first visit (one chunk per domain) and takes the named component. */
function page<TModule extends Record<TName, ComponentType>, TName extends string>(
  load: () => Promise<TModule>,
  name: TName,
): NonNullable<RouteObject['lazy']> {
  return async () => ({ Component: (await load())[name] });
}

const auth = () => import('../modules/auth/components/AuthPages');
const challenge = () => import('../modules/challenge/components/CreateChallenge');
const settings = () => import('../modules/settings/components/Settings');
const profile = () => import('../modules/profile/components/Profile');
const legal = () => import('../modules/legal/components/LegalPages');
const notifications = () => import('../modules/notifications/components/EmailPreferencesPage');

/**
 * Every route of the product spec (section 2). Guards are layout routes named after the spec's
 * middleware (app/middleware.tsx): logged-in, not-logged-in (the login landing page and the
 * recovery request), user-is-staff (the moderator page: admins, moderators and referees, each their tabs); user-is-owner waits for a route. Errors thrown inside the default layout
 * render there (with the sidebar); anything else falls through to the root boundary.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorBoundary />,
    HydrateFallback: FullscreenLoader,
    children: [
      {
        element: <DefaultLayout />,
        children: [
          {
            errorElement: <RouteErrorBoundary />,
            children: [
              {
                index: true,
                lazy: page(() => import('../modules/home/components/HomePage'), 'HomePage'),
              },
              { path: 'terms', lazy: page(legal, 'TermsPage') },
              { path: 'cookies', lazy: page(legal, 'CookiesPage') },
              { path: 'contact', lazy: page(legal, 'ContactPage') },
              { path: 'email-preferences', lazy: page(notifications, 'EmailPreferencesPage') },
              { path: 'email-opt-out', lazy: page(notifications, 'InvitationOptOutPage') },
              {
                // Development only: the gateway serves its data outside production alone.
                path: 'dev/inbox',
                lazy: page(
                  () => import('../modules/notifications/components/DevInboxPage'),
                  'DevInboxPage',
                ),
              },
              {
                path: 'profile/:username',
                lazy: page(profile, 'ProfileLayout'),
                children: [
                  { index: true, element: <Navigate to="ongoing-challenges" replace /> },
                  { path: 'ongoing-challenges', lazy: page(profile, 'OngoingChallengesTab') },
                  { path: 'completed-challenges', lazy: page(profile, 'CompletedChallengesTab') },
                  { path: 'uploaded-videos', lazy: page(profile, 'UploadedVideosTab') },
                  { path: 'respected-videos', lazy: page(profile, 'RespectedVideosTab') },
                ],
              },
              {
                path: 'challenge/:slug/detail',
                lazy: page(
                  () => import('../modules/challenge/components/ChallengeDetailPage'),
                  'ChallengeDetailPage',
                ),
              },
              {
                path: 'challenge/create',
                lazy: page(challenge, 'CreateChallengeLayout'),
                children: [
                  { index: true, element: <Navigate to="step-1" replace /> },
                  { path: 'step-1', lazy: page(challenge, 'CreateChallengeStep1Page') },
                  { path: 'step-2', lazy: page(challenge, 'CreateChallengeStep2Page') },
                ],
              },
              {
                element: middleware('not-logged-in'),
                children: [
                  { path: 'login', lazy: page(auth, 'LoginPage') },
                  { path: 'login/recover/request', lazy: page(auth, 'RecoverRequestPage') },
                ],
              },
              { path: 'login/recover/reset', lazy: page(auth, 'RecoverResetPage') },
              { path: 'login/magic-link/verify', lazy: page(auth, 'MagicLinkVerifyPage') },
              {
                element: middleware('logged-in'),
                children: [
                  {
                    path: 'wallet',
                    lazy: page(
                      () => import('../modules/wallet/components/WalletPage'),
                      'WalletPage',
                    ),
                  },
                  {
                    path: 'wallet/top-up',
                    lazy: page(() => import('../modules/wallet/components/TopUpPage'), 'TopUpPage'),
                  },
                  {
                    path: 'wallet/payment-success',
                    lazy: page(
                      () => import('../modules/wallet/components/PaymentSuccessPage'),
                      'PaymentSuccessPage',
                    ),
                  },
                  {
                    path: 'challenge-dashboard',
                    lazy: page(
                      () => import('../modules/challenge/components/ChallengeDashboardPage'),
                      'ChallengeDashboardPage',
                    ),
                  },
                  {
                    path: 'settings',
                    lazy: page(settings, 'SettingsLayout'),
                    children: [
                      { index: true, element: <Navigate to="edit-profile" replace /> },
                      { path: 'edit-profile', lazy: page(settings, 'EditProfilePage') },
                      { path: 'edit-account', lazy: page(settings, 'EditAccountPage') },
                      { path: 'change-password', lazy: page(settings, 'ChangePasswordPage') },
                      { path: 'edit-payments', lazy: page(settings, 'EditPaymentsPage') },
                      {
                        path: 'edit-email-preferences',
                        lazy: page(notifications, 'EditEmailPreferencesPage'),
                      },
                      { path: 'guidelines', lazy: page(settings, 'GuidelinesPage') },
                      {
                        path: 'my-reports',
                        lazy: page(
                          () => import('../modules/moderation/components/MyReportsPage'),
                          'MyReportsPage',
                        ),
                      },
                    ],
                  },
                ],
              },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
      {
        element: <FullscreenLayout />,
        children: [
          {
            errorElement: <RouteErrorBoundary />,
            children: [
              {
                element: middleware('user-is-staff'),
                children: [
                  {
                    path: 'moderator',
                    lazy: page(
                      () => import('../modules/moderation/components/ModeratorPage'),
                      'ModeratorPage',
                    ),
                  },
                ],
              },
              { path: 'access-denied', element: <AccessDeniedPage /> },
            ],
          },
        ],
      },
    ],
  },
];
