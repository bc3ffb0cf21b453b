/**
 * Role names are not fixed by the spec yet; accept them in any case, with or without a "ROLE_"
 * prefix, so that the checks keep working whichever convention identity settles on (identity
 * uses user, referee, moderator and admin).
 */
function normalise(role: string): string {
  return role
    .trim()
    .toLowerCase()
    .replace(/^role_/, '');
}

export function hasRole(roles: readonly string[] | null | undefined, name: string): boolean {
  return (roles ?? []).some((role) => normalise(role) === name);
}

export function isAdmin(roles: readonly string[] | null | undefined): boolean {
  return hasRole(roles, 'admin');
}

/** Admins, moderators and referees: each reaches their own part of the staff console. */
export function isStaff(roles: readonly string[] | null | undefined): boolean {
  return hasRole(roles, 'admin') || hasRole(roles, 'moderator') || hasRole(roles, 'referee');
}

/** A referee who is neither moderator nor admin: the console is a referee's (its title too). */
export function isRefereeOnly(roles: readonly string[] | null | undefined): boolean {
  return hasRole(roles, 'referee') && !hasRole(roles, 'moderator') && !hasRole(roles, 'admin');
}
