import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ErrorPage } from '../modules/errors/components/ErrorPage';
import { PageError } from '../modules/errors/errorPage';
import { FullscreenLoader } from '../ui/FullscreenLoader';
import { isChunkLoadError, reloadForNewBuild } from './chunkReload';

function identifierFromData(data: unknown): string | undefined {
  if (
    typeof data === 'object' &&
    data !== null &&
    'identifier' in data &&
    typeof data.identifier === 'string'
  ) {
    return data.identifier;
  }
  return undefined;
}

/** errorElement of the routes: turns whatever was thrown into the error page. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { pathname, search } = useLocation();

  if (isChunkLoadError(error) && reloadForNewBuild()) return <FullscreenLoader />;

  if (error instanceof PageError)
    return <ErrorPage statusCode={error.statusCode} identifier={error.identifier} />;

  if (isRouteErrorResponse(error)) {
    const identifier = identifierFromData(error.data);
    if (error.status === 404 && !identifier) {
      return (
        <ErrorPage
          statusCode={404}
          identifier="page_not_found"
          heading={t('errorPage.notFoundPath', { path: `${pathname}${search}` })}
        />
      );
    }
    return <ErrorPage statusCode={error.status} identifier={identifier ?? null} />;
  }

  if (import.meta.env.DEV) console.error(error);
  return <ErrorPage statusCode={500} identifier={null} />;
}
