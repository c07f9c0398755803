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
 * Where the panel sits: on the side that covers less of the views (over the
 * form, or over the counters on a wide screen), unless the element the step
 * explains is there, in the panel's band at the foot of the window. With
 * `keys` (what names the rows the step marks: a marked table row's first
 * cell) the panel first keeps clear of those, with its real height
 * (`panelHeight`) when it is known: a row that spans the table is under
 * either side, but its name is under one only.
 */
export function panelSide(
  anchor: Box,
  main: Box | null,
  width = window.innerWidth,
  height = window.innerHeight,
  keys: readonly Box[] = [],
  panelHeight = PANEL_BOX.height,
): PanelSide {
  const span = (side: PanelSide): [number, number] =>
    side === 'left' ? [PANEL_BOX.left, PANEL_BOX.left + PANEL_BOX.width] : [width - PANEL_BOX.left - PANEL_BOX.width, width - PANEL_BOX.left];
  const covers = (side: PanelSide, box: Box) => {
    const [a, b] = span(side);
    return Math.max(0, Math.min(b, box.right) - Math.max(a, box.left));
  };
  const hides = (side: PanelSide, box: Box, top: number) => box.bottom > top && covers(side, box) > 0;
  const preferred: PanelSide = main && covers('right', main) < covers('left', main) ? 'right' : 'left';
  const other: PanelSide = preferred === 'left' ? 'right' : 'left';
  const keysTop = height - PANEL_BOX.left - panelHeight;
  const hidesKeys = (side: PanelSide) => keys.some((k) => hides(side, k, keysTop));
  if (hidesKeys(preferred) && !hidesKeys(other)) return other;
  if (hidesKeys(other) && !hidesKeys(preferred)) return preferred;
  const top = height - PANEL_BOX.height;
  return hides(preferred, anchor, top) && !hides(other, anchor, top) ? other : preferred;
}

/** What names a marked element: a table row's first cell, else the element itself. */
function keyOf(mark: Element): Element {
  return mark instanceof HTMLTableRowElement && mark.cells.length > 0 ? mark.cells[0]! : mark;
}

type Box = Pick<DOMRect, 'left' | 'right' | 'top' | 'bottom'>;

/**
 * How a step's element is brought into view: a marked row to the middle of
 * the window, above the panel's band at its foot; an element taller than
 * half the window by its top (where a card's heading and first rows are);
 * anything else as little as it takes.
 */
export function scrollBlock(target: Element, marked: boolean, height = window.innerHeight): ScrollLogicalPosition {
  if (marked) return 'center';
  return target.getBoundingClientRect().height > height / 2 ? 'start' : 'nearest';
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
      const target = marks[0] ?? anchor;
      target.scrollIntoView({ block: scrollBlock(target, marks.length > 0), inline: 'nearest', behavior: reducedMotion() ? 'auto' : 'smooth' });
    }
    if (anchor && shown) {
      const panel = document.querySelector('[data-testid="tour-panel"]');
      const wanted = panelSide(
        anchor.getBoundingClientRect(),
        document.querySelector('.main-column')?.getBoundingClientRect() ?? null,
        window.innerWidth,
        window.innerHeight,
        marks.filter(isShown).map((m) => keyOf(m).getBoundingClientRect()),
        panel ? panel.getBoundingClientRect().height : undefined,
      );
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
