/** Only same-site paths are followed after login ("/x", never "//host" or "https://..."). */
export function safeInternalPath(url: string | null | undefined): string | null {
  return url && url.startsWith('/') && !url.startsWith('//') && !url.includes('\\') ? url : null;
}

/**
 * The page a login link brings the user back to: the current page, except the login pages
 * themselves (a link back to the link checker or a used reset link leads nowhere).
 */
export function originUrlFor(pathname: string): string {
  return pathname.startsWith('/login') ? '/' : pathname;
}
