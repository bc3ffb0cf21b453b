import { useLayoutEffect, type RefObject } from 'react';

const SELECTED = '[aria-selected="true"], [aria-current="page"]';

/**
 * A horizontally scrolling tab strip keeps its selected tab in view: whenever `selectedKey`
 * changes (and on first render), the strip itself scrolls so that the tab is centred. Only the
 * strip moves (never the page), and nothing moves while the tab is already fully visible.
 */
export function useScrollSelectedIntoView(
  strip: RefObject<HTMLElement | null>,
  selectedKey: unknown,
): void {
  useLayoutEffect(() => {
    const element = strip.current;
    const selected = element?.querySelector<HTMLElement>(SELECTED);
    if (!element || !selected) return;
    const box = element.getBoundingClientRect();
    const tab = selected.getBoundingClientRect();
    if (tab.left >= box.left && tab.right <= box.right) return;
    const offset = tab.left - box.left - (box.width - tab.width) / 2;
    element.scrollLeft = Math.max(0, element.scrollLeft + offset);
  }, [strip, selectedKey]);
}
