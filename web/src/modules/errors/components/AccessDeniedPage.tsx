import { ErrorPage } from './ErrorPage';

export function AccessDeniedPage() {
  return <ErrorPage identifier="access_denied" statusCode={403} />;
}
