/**
 * The discover lists live on the index page and are chosen with `?discover=`; the spec's route
 * table has no separate paths for them.
 */
export const DISCOVER_SECTIONS = ['challenges', 'solo', 'duel', 'users', 'following'] as const;
export type DiscoverSection = (typeof DISCOVER_SECTIONS)[number];
export const DISCOVER_PARAM = 'discover';
export const DEFAULT_DISCOVER_SECTION: DiscoverSection = 'challenges';

export function parseDiscoverSection(value: string | null): DiscoverSection {
  return (DISCOVER_SECTIONS as readonly string[]).includes(value ?? '')
    ? (value as DiscoverSection)
    : DEFAULT_DISCOVER_SECTION;
}

export function discoverPath(section: DiscoverSection): string {
  return section === DEFAULT_DISCOVER_SECTION ? '/' : `/?${DISCOVER_PARAM}=${section}`;
}
