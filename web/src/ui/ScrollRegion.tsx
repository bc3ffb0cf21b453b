import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';

/**
 * A block that may scroll (a dialog's body on a phone; a long IBAN sideways). While its content
 * overflows either way it takes keyboard focus, so that the arrow keys can scroll text that has
 * no link or button in it (WCAG 2.1.1; axe's scrollable-region-focusable); when nothing
 * overflows it adds no tab stop.
 */
export function ScrollRegion({ className, children }: { className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  // Measured when the browser lays the block out: a ResizeObserver reports each element it
  // observes once at its first layout, before that frame is painted, and flushSync renders the
  // tab stop into the same frame, so the dialog never shows without it. Reading the sizes in
  // this effect instead would force the page's style and layout in the middle of React's commit,
  // before the dialog's own layout effect changes both again (docs/adr/0101).
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const overflows = () =>
      element.scrollHeight > element.clientHeight + 1 ||
      element.scrollWidth > element.clientWidth + 1;
    if (typeof ResizeObserver === 'undefined') {
      setScrolls(overflows());
      return;
    }
    const observer = new ResizeObserver(() => flushSync(() => setScrolls(overflows())));
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [children]);

  return (
    <div ref={ref} className={className} tabIndex={scrolls ? 0 : undefined}>
      {children}
    </div>
  );
}
