import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { AccessDeniedPage } from '../modules/errors/components/AccessDeniedPage';
import { NotFoundPage } from '../modules/errors/components/NotFoundPage';
import { dataComponent } from './dataComponent';
import { DefaultLayout } from './layouts/DefaultLayout';
import { FullscreenLayout } from './layouts/FullscreenLayout';
import { middleware } from './middleware';
import { RootLayout } from './RootLayout';
import { RouteErrorBoundary } from './RouteErrorBoundary';

/**
 * A page whose module loads on first render (one chunk per page, with Apollo beside it), inside
 * the app's ApolloProvider (dataComponent.tsx). The layouts' Suspense boundary shows the loader
 * meanwhile, and keeps the prerendered page in place while it hydrates (docs/adr/0081).
 */
function page<TModule extends Record<TName, ComponentType>, TName extends string>(
  load: () => Promise<TModule>,
  name: TName,
): Pick<RouteObject, 'Component'> {
  return { Component: dataComponent(async () => (await load())[name], { fallback: false }) };
}

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
    children: [
      {
        element: <DefaultLayout />,
        children: [
          {
            errorElement: <RouteErrorBoundary />,
            children: [
              {
                index: true,
                ...page(() => import('../modules/home/components/HomePage'), 'HomePage'),
              },
              { path: 'terms', ...page(legal, 'TermsPage') },
              { path: 'cookies', ...page(legal, 'CookiesPage') },
              { path: 'contact', ...page(legal, 'ContactPage') },
              { path: 'email-preferences', ...page(notifications, 'EmailPreferencesPage') },
              { path: 'email-opt-out', ...page(notifications, 'InvitationOptOutPage') },
              {
                // Development only: the gateway serves its data outside production alone.
                path: 'dev/inbox',
                ...page(
                  () => import('../modules/notifications/components/DevInboxPage'),
                  'DevInboxPage',
                ),
              },
              {
                path: 'profile/:username',
                ...page(profile, 'ProfileLayout'),
                children: [
                  { index: true, element: <Navigate to="ongoing-challenges" replace /> },
                  { path: 'ongoing-challenges', ...page(profile, 'OngoingChallengesTab') },
                  { path: 'completed-challenges', ...page(profile, 'CompletedChallengesTab') },
                  { path: 'uploaded-videos', ...page(profile, 'UploadedVideosTab') },
                  { path: 'respected-videos', ...page(profile, 'RespectedVideosTab') },
                ],
              },
              {
                path: 'challenge/:slug/detail',
                ...page(
                  () => import('../modules/challenge/components/ChallengeDetailPage'),
                  'ChallengeDetailPage',
                ),
              },
              {
                path: 'challenge/create',
                ...page(challenge, 'CreateChallengeLayout'),
                children: [
                  { index: true, element: <Navigate to="step-1" replace /> },
                  { path: 'step-1', ...page(challenge, 'CreateChallengeStep1Page') },
                  { path: 'step-2', ...page(challenge, 'CreateChallengeStep2Page') },
                ],
              },
              {
                element: middleware('not-logged-in'),
                children: [
                  {
                    path: 'login',
                    ...page(() => import('../modules/auth/components/AuthPages'), 'LoginPage'),
                  },
                  {
                    path: 'login/recover/request',
                    ...page(
                      () => import('../modules/auth/components/RecoverRequestPage'),
                      'RecoverRequestPage',
                    ),
                  },
                ],
              },
              {
                path: 'login/recover/reset',
                ...page(
                  () => import('../modules/auth/components/RecoverResetPage'),
                  'RecoverResetPage',
                ),
              },
              {
                path: 'login/magic-link/verify',
                ...page(
                  () => import('../modules/auth/components/MagicLinkVerifyPage'),
                  'MagicLinkVerifyPage',
                ),
              },
              {
                element: middleware('logged-in'),
                children: [
                  {
                    path: 'wallet',
                    ...page(() => import('../modules/wallet/components/WalletPage'), 'WalletPage'),
                  },
                  {
                    path: 'wallet/top-up',
                    ...page(() => import('../modules/wallet/components/TopUpPage'), 'TopUpPage'),
                  },
                  {
                    path: 'wallet/payment-success',
                    ...page(
                      () => import('../modules/wallet/components/PaymentSuccessPage'),
                      'PaymentSuccessPage',
                    ),
                  },
                  {
                    path: 'challenge-dashboard',
                    ...page(
                      () => import('../modules/challenge/components/ChallengeDashboardPage'),
                      'ChallengeDashboardPage',
                    ),
                  },
                  {
                    path: 'settings',
                    ...page(settings, 'SettingsLayout'),
                    children: [
                      { index: true, element: <Navigate to="edit-profile" replace /> },
                      {
                        path: 'edit-profile',
                        ...page(
                          () => import('../modules/settings/components/EditProfilePage'),
                          'EditProfilePage',
                        ),
                      },
                      {
                        path: 'edit-account',
                        ...page(
                          () => import('../modules/settings/components/EditAccountPage'),
                          'EditAccountPage',
                        ),
                      },
                      {
                        path: 'change-password',
                        ...page(
                          () => import('../modules/settings/components/ChangePasswordPage'),
                          'ChangePasswordPage',
                        ),
                      },
                      {
                        path: 'edit-payments',
                        ...page(
                          () => import('../modules/settings/components/EditPaymentsPage'),
                          'EditPaymentsPage',
                        ),
                      },
                      {
                        path: 'edit-email-preferences',
                        ...page(notifications, 'EditEmailPreferencesPage'),
                      },
                      { path: 'guidelines', ...page(settings, 'GuidelinesPage') },
                      {
                        path: 'my-reports',
                        ...page(
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
                    ...page(
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
