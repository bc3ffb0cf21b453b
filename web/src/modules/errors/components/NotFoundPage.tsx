import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ErrorPage } from './ErrorPage';

/** No route matched: 404 "Page not found: {path}". */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  return (
    <ErrorPage
      identifier="page_not_found"
      statusCode={404}
      heading={t('errorPage.notFoundPath', { path: `${pathname}${search}` })}
    />
  );
}

/**
 * A route whose parameters fail validation (a slug or username no page can have): 404 "Page Not
 * Found: {path}", the spec's own text for it (section 8), apart from the no-route text above.
 */
export function InvalidRouteParamsPage() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  return (
    <ErrorPage
      identifier="page_not_found"
      statusCode={404}
      heading={t('errorPage.invalidRoutePath', { path: `${pathname}${search}` })}
    />
  );
}
