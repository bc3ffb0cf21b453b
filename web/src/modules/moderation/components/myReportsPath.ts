/**
 * The reporter's own reports, a settings section (app/routes.tsx); the report dialog links to it.
 * A module of its own, so that the report button does not pull the page into its chunk.
 */
export const MY_REPORTS_PATH = '/settings/my-reports';
