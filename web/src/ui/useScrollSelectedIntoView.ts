import { useLayoutEffect, type RefObject } from 'react';

const SELECTED = '[aria-selected="true"], [aria-current="page"]';

/** Scrolls the strip (never the page) so that its selected tab is centred, if it is not in view. */
function centreSelected(element: HTMLElement | null): void {
  const selected = element?.querySelector<HTMLElement>(SELECTED);
  if (!element || !selected) return;
  const box = element.getBoundingClientRect();
  const tab = selected.getBoundingClientRect();
  if (tab.left >= box.left && tab.right <= box.right) return;
  const offset = tab.left - box.left - (box.width - tab.width) / 2;
  element.scrollLeft = Math.max(0, element.scrollLeft + offset);
}

/**
 * A horizontally scrolling tab strip keeps its selected tab in view: whenever `selectedKey`
 * changes (and on first render), and when the window changes size (a phone turned: at a width
 * where every tab fitted the strip went back to its start), the strip itself scrolls so that
 * the tab is centred. Only the strip moves (never the page), and nothing moves while the tab is
 * already fully visible.
 */
export function useScrollSelectedIntoView(
  strip: RefObject<HTMLElement | null>,
  selectedKey: unknown,
): void {
  useLayoutEffect(() => {
    centreSelected(strip.current);
  }, [strip, selectedKey]);
  useLayoutEffect(() => {
    const onResize = () => centreSelected(strip.current);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [strip]);
}
