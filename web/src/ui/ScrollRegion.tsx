import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A block that may scroll (a dialog's body on a phone; a long IBAN sideways). While its content
 * overflows either way it takes keyboard focus, so that the arrow keys can scroll text that has
 * no link or button in it (WCAG 2.1.1; axe's scrollable-region-focusable); when nothing
 * overflows it adds no tab stop.
 */
export function ScrollRegion({ className, children }: { className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  // Measured before the first paint: the dialog never shows without its tab stop.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () =>
      setScrolls(
        element.scrollHeight > element.clientHeight + 1 ||
          element.scrollWidth > element.clientWidth + 1,
      );
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
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
