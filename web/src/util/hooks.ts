// Small React hooks shared by the views.
import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';

/** The content width of an element, kept up to date with a ResizeObserver (0 until measured). */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box) setWidth(Math.floor(box.width));
    });
    observer.observe(element);
    setWidth(Math.floor(element.getBoundingClientRect().width));
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The headers of the columns hidden, wholly or in part, past the right edge
 * of a table that scrolls sideways in the element (none when it fits or is
 * scrolled to its end): for a hint that names what the table goes on with.
 */
export function useColumnsToTheRight(ref: RefObject<HTMLElement | null>): string[] {
  const [hidden, setHidden] = useState<string[]>([]);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => {
      const edge = element.getBoundingClientRect().right;
      const names =
        element.scrollWidth - element.clientWidth - element.scrollLeft > 1
          ? [...element.querySelectorAll('thead tr:first-child th')]
              .filter((th) => th.getBoundingClientRect().right > edge + 1)
              .map((th) => th.textContent?.replace(/\s+/g, ' ').trim() ?? '')
              .filter((name) => name !== '')
          : [];
      setHidden((old) => (old.join('\n') === names.join('\n') ? old : names));
    };
    const observer = new ResizeObserver(check);
    observer.observe(element);
    const table = element.firstElementChild;
    if (table) observer.observe(table);
    element.addEventListener('scroll', check, { passive: true });
    check();
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', check);
    };
  }, [ref]);
  return hidden;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** True when the user asked the system for less motion. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}
