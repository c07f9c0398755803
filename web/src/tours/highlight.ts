// The highlight of a tour step: the anchored view element gets
// `data-tour-highlight` (a ring, tour.css) and the elements the step marks
// inside it `data-tour-mark`. Attributes rather than classes, because React
// leaves attributes it does not own alone when it re-renders the element.
// The element is scrolled into view once per step, smoothly unless the
// reader asked for reduced motion.
import { useEffect, useRef, useState } from 'react';
import { anchorSelector, type TourStep } from './types';

export type PanelSide = 'left' | 'right';

const HIGHLIGHT = 'data-tour-highlight';
const MARK = 'data-tour-mark';
/** Where the panel sits when it is on the left: its width and height, as tour.css places it. */
const PANEL_BOX = { left: 16, width: 380, height: 280 };

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Whether an element is laid out and has a size (not hidden, not display: none). */
export function isShown(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

/**
 * Keeps the highlight on the step's anchored element while `step` is
 * shown (`ready`), re-applied after every render (the element may be new:
 * another tab, a re-mounted view). `key` names the step's arrival: the
 * element is scrolled into view once per key. Returns the side the panel
 * should sit on so that it does not cover the element.
 */
export function useTourHighlight(step: TourStep | null, ready: boolean, key: string): { side: PanelSide; found: boolean } {
  const marked = useRef<Element[]>([]);
  const scrolled = useRef<string | null>(null);
  const [side, setSide] = useState<PanelSide>('left');
  const [found, setFound] = useState(false);

  useEffect(() => {
    const anchor = step && ready ? document.querySelector(anchorSelector(step)) : null;
    const marks = anchor && step?.marks ? step.marks.flatMap((m) => [...anchor.querySelectorAll(m)]) : [];
    const next = anchor ? [anchor, ...marks] : [];
    for (const el of marked.current) {
      if (!next.includes(el)) {
        el.removeAttribute(HIGHLIGHT);
        el.removeAttribute(MARK);
      }
    }
    if (anchor && !anchor.hasAttribute(HIGHLIGHT)) anchor.setAttribute(HIGHLIGHT, '');
    for (const m of marks) if (!m.hasAttribute(MARK)) m.setAttribute(MARK, '');
    marked.current = next;
    const shown = anchor !== null && isShown(anchor);
    if (shown !== found) setFound(shown);
    if (anchor && shown && scrolled.current !== key) {
      scrolled.current = key;
      (marks[0] ?? anchor).scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: reducedMotion() ? 'auto' : 'smooth' });
    }
    if (anchor && shown) {
      // The panel goes left (over the form) unless the element is there.
      const r = anchor.getBoundingClientRect();
      const top = window.innerHeight - PANEL_BOX.height;
      const overlapsLeft = r.left < PANEL_BOX.left + PANEL_BOX.width && r.bottom > top && r.right > PANEL_BOX.left;
      const wanted: PanelSide = overlapsLeft && r.left < window.innerWidth / 2 ? 'right' : 'left';
      if (wanted !== side) setSide(wanted);
    }
  });

  // Nothing stays marked once the tour closes.
  useEffect(
    () => () => {
      for (const el of marked.current) {
        el.removeAttribute(HIGHLIGHT);
        el.removeAttribute(MARK);
      }
      marked.current = [];
    },
    [],
  );
  return { side, found };
}
