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
 * Whether the element has columns hidden past its right edge (it scrolls
 * sideways and is not scrolled to its end): for a hint that a wide table
 * goes on.
 */
export function useMoreToTheRight(ref: RefObject<HTMLElement | null>): boolean {
  const [more, setMore] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => setMore(element.scrollWidth - element.clientWidth - element.scrollLeft > 1);
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
  return more;
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
