/**
 * Role names are not fixed by the spec yet; accept "admin" in any case, with or without a
 * "ROLE_" prefix, so that the check keeps working whichever convention identity settles on.
 */
export function isAdmin(roles: readonly string[] | null | undefined): boolean {
  return (roles ?? []).some(
    (role) =>
      role
        .trim()
        .toLowerCase()
        .replace(/^role_/, '') === 'admin',
  );
}
