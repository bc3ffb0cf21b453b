import { getCookie, setCookie } from '../../lib/cookies';

export const INTRO_COOKIE = 'firstTimeVisitVideoWatched';
export const INTRO_COOKIE_DAYS = 365;

export function hasWatchedIntro(): boolean {
  return getCookie(INTRO_COOKIE) !== null;
}

export function markIntroWatched(): void {
  setCookie(INTRO_COOKIE, 'true', { days: INTRO_COOKIE_DAYS });
}
