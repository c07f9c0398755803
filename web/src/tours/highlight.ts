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
const PANEL_BOX = { left: 16, width: 372, height: 280 };

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Whether an element is laid out and has a size (not hidden, not display: none). */
export function isShown(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

/** The panel's left and right edges on `side` of a window `width` wide. */
function panelSpan(side: PanelSide, width: number): [number, number] {
  return side === 'left' ? [PANEL_BOX.left, PANEL_BOX.left + PANEL_BOX.width] : [width - PANEL_BOX.left - PANEL_BOX.width, width - PANEL_BOX.left];
}

/**
 * Where the panel sits: on the side that covers less of the views (over the
 * form, or over the counters on a wide screen), unless the element the step
 * explains is there, in the panel's band at the foot of the window. With
 * `keys` (what names the rows the step marks: a marked table row's first
 * cell) the panel first keeps clear of those: a row that spans the table
 * is under either side, but its name is under one only; and where either
 * side covers as much of the views (a wide table), it takes the side away
 * from the names even when they are above it. Then it keeps away from the
 * column of the `names` of the table's other rows where one side can,
 * wherever they are scrolled to. The rules use the panel's real height
 * (`panelHeight`) when it is known.
 */
export function panelSide(
  anchor: Box,
  main: Box | null,
  width = window.innerWidth,
  height = window.innerHeight,
  keys: readonly Box[] = [],
  panelHeight = PANEL_BOX.height,
  names: readonly Box[] = [],
): PanelSide {
  const span = (side: PanelSide) => panelSpan(side, width);
  const covers = (side: PanelSide, box: Box) => {
    const [a, b] = span(side);
    return Math.max(0, Math.min(b, box.right) - Math.max(a, box.left));
  };
  const hides = (side: PanelSide, box: Box, top: number) => box.bottom > top && covers(side, box) > 0;
  // Over as much of the views either way (a wide table): the side clear of the rows' names, whatever their height.
  const under = (side: PanelSide) => keys.some((k) => covers(side, k) > 0);
  const tie = !main || covers('right', main) === covers('left', main);
  const preferred: PanelSide = tie ? (under('left') && !under('right') ? 'right' : 'left') : covers('right', main) < covers('left', main) ? 'right' : 'left';
  const other: PanelSide = preferred === 'left' ? 'right' : 'left';
  const top = height - PANEL_BOX.left - panelHeight;
  const hidesKeys = (side: PanelSide) => keys.some((k) => hides(side, k, top));
  if (hidesKeys(preferred) && !hidesKeys(other)) return other;
  if (hidesKeys(other) && !hidesKeys(preferred)) return preferred;
  // The names of the table's other rows, which the text may speak of too: the side away from their column,
  // wherever they are scrolled to (the step's scroll may bring them down into the panel's band).
  const overNames = (side: PanelSide) => names.some((k) => covers(side, k) > 0);
  if (overNames(preferred) && !overNames(other)) return other;
  return hides(preferred, anchor, top) && !hides(other, anchor, top) ? other : preferred;
}

/**
 * The side the panel opens on before it knows the step's element: the one
 * that covers less of the views' column, or for a step that marks rows,
 * the one clear of where their names will be (at the left edge of the
 * step's element, or of the views' column for a comparison to come).
 */
function firstSide(step: TourStep): PanelSide {
  const main = document.querySelector('.main-column');
  const nowhere = { left: 0, right: 0, top: 0, bottom: 0 };
  // The step's element if it is there already; a comparison's table will be in the views' column.
  const there = document.querySelector(anchorSelector(step));
  const from = there && isShown(there) ? there : step.compare ? main : null;
  const keys = from ? keyBoxes(from, step.marks?.length ?? 0, []) : [];
  return panelSide(nowhere, main?.getBoundingClientRect() ?? null, window.innerWidth, window.innerHeight, keys, undefined, keys);
}

/**
 * Where the names of a table's marked rows are taken to be before the rows
 * are there: a column KEY_COLUMN_WIDTH wide at the element's left edge,
 * down to KEY_ROWS_TOP plus a KEY_ROW_HEIGHT for each row below its top
 * (the tours mark the headline rows, which a comparison's table lists
 * first, under its heading and header row).
 */
const KEY_COLUMN_WIDTH = 180;
const KEY_ROWS_TOP = 120;
const KEY_ROW_HEIGHT = 50;

/**
 * The boxes that name the step's marked rows, for panelSide. While the rows
 * are not there yet (a comparison still running), where the names of
 * `rows` rows will be. So the panel opens where it stays once they come,
 * rather than jumping sides.
 */
function keyBoxes(anchor: Element, rows: number, marks: Element[]): Box[] {
  if (marks.length > 0) return marks.map((m) => keyOf(m).getBoundingClientRect());
  if (rows === 0) return [];
  const box = anchor.getBoundingClientRect();
  return [{ left: box.left, right: box.left + KEY_COLUMN_WIDTH, top: box.top, bottom: box.top + KEY_ROWS_TOP + rows * KEY_ROW_HEIGHT }];
}

/** The names (first cells) of the rows of the table that holds the first marked row, as shown. */
function rowNames(marks: Element[]): Box[] {
  const table = marks[0]?.closest('table');
  if (!table) return [];
  return [...table.tBodies].flatMap((body) => [...body.rows]).flatMap((row) => (row.cells[0] && isShown(row.cells[0]) ? [row.cells[0].getBoundingClientRect()] : []));
}

/** The space kept between the marked rows and the panel's top edge. */
const MARK_GAP = 12;

/**
 * How a step's marked rows (`marks`, their boxes in page order) come into
 * view: in the middle of what the panel leaves free of their scroll
 * container (`scrollport`), down to `panelTop` (window coordinates) less
 * MARK_GAP. scrollIntoView({ block: 'center' }) centres the first row's box
 * grown by its scroll margins, so its bottom margin adds the rows below it
 * and the band the panel covers. Where the rows are taller than that band,
 * the first row goes to the top instead ('start', no margin): its name and
 * values stay whole, and the panel covers the last row's end.
 */
export function markScroll(marks: readonly Box[], scrollport: Box, panelTop: number): { block: 'center' | 'start'; marginBottom: number } {
  const first = marks[0];
  if (!first) return { block: 'center', marginBottom: 0 };
  const bottom = Math.max(...marks.map((m) => m.bottom));
  const free = Math.min(scrollport.bottom, panelTop - MARK_GAP) - scrollport.top;
  if (bottom - first.top > free) return { block: 'start', marginBottom: 0 };
  const covered = Math.max(0, scrollport.bottom - (panelTop - MARK_GAP));
  return { block: 'center', marginBottom: Math.round(bottom - first.bottom + covered) };
}

/**
 * Whether marked table rows come into view under their table's header row
 * (`head`): when the header and the rows fit together in the views' height,
 * the header goes to the top, so that the rows' numbers are seen with the
 * columns they are in. The panel (372 pixels wide) then sits beside the
 * rows' names and values, on the side panelSide picks, and may cover the
 * ends of the last rows.
 */
export function headFirst(marks: readonly Box[], head: Box | null, scrollport: Box): boolean {
  if (!head || marks.length === 0) return false;
  const bottom = Math.max(...marks.map((m) => m.bottom));
  return bottom - head.top <= scrollport.bottom - scrollport.top - MARK_GAP;
}

/** The nearest box around `el` that scrolls up and down, else `fallback`. */
function scrollportOf(el: Element, fallback: Element | null): Element | null {
  for (let e = el.parentElement; e; e = e.parentElement) {
    const overflow = getComputedStyle(e).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && e.scrollHeight > e.clientHeight) return e;
  }
  return fallback;
}

/** A header row that stays in view as its table scrolls (position: sticky): it needs no scrolling to. */
function stickyHead(head: HTMLTableSectionElement): boolean {
  const cell = head.rows[0]?.cells[0];
  return cell !== undefined && getComputedStyle(cell).position === 'sticky';
}

/** What names a marked element: a table row's first cell, else the element itself. */
function keyOf(mark: Element): Element {
  return mark instanceof HTMLTableRowElement && mark.cells.length > 0 ? mark.cells[0]! : mark;
}

type Box = Pick<DOMRect, 'left' | 'right' | 'top' | 'bottom'>;

function unmark(el: Element): void {
  el.removeAttribute(HIGHLIGHT);
  el.removeAttribute(MARK);
  if (el instanceof HTMLElement) {
    el.style.removeProperty('scroll-margin-bottom');
    el.style.removeProperty('scroll-margin-top');
  }
}

/** How long after a step's arrival its element is brought back into view if the layout moves it out. */
const SETTLE_MS = 5000;

/** Entirely above or below the window. */
function outOfView(el: Element): boolean {
  const box = el.getBoundingClientRect();
  return box.bottom <= 0 || box.top >= window.innerHeight;
}

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
  /** Until when (performance.now()) a step's element is brought back into view if the page's layout moved it out (a link's first render). */
  const settleUntil = useRef(0);
  const [side, setSide] = useState<PanelSide>('left');
  // A tour opening: before its step's element is there, the side that covers less of the views, where most steps put it.
  const [opened, setOpened] = useState(false);
  if ((step !== null) !== opened) {
    setOpened(step !== null);
    if (step !== null) setSide(firstSide(step));
  }
  const [found, setFound] = useState(false);

  useEffect(() => {
    const target = step ? document.querySelector(anchorSelector(step)) : null;
    const anchor = ready ? target : null;
    // In the order of the page (the step lists them as its text names them).
    const marks = (anchor && step?.marks ? step.marks.flatMap((m) => [...anchor.querySelectorAll(m)]) : []).sort((a, b) =>
      a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
    );
    const next = anchor ? [anchor, ...marks] : [];
    for (const el of marked.current) {
      if (!next.includes(el)) unmark(el);
    }
    if (anchor && !anchor.hasAttribute(HIGHLIGHT)) anchor.setAttribute(HIGHLIGHT, '');
    for (const m of marks) if (!m.hasAttribute(MARK)) m.setAttribute(MARK, '');
    marked.current = next;
    const shown = anchor !== null && isShown(anchor);
    if (shown !== found) setFound(shown);
    // The side is chosen while the step is still on its way too (its comparison running), once its element is
    // there: from where the marked rows will be, so that the panel does not change sides when they come. It is
    // chosen before the scroll below, which places the rows for the panel on that side.
    let placed = side;
    if (target && isShown(target)) {
      const panel = document.querySelector('[data-testid="tour-panel"]');
      const keys = keyBoxes(target, step?.marks?.length ?? 0, marks.filter(isShown));
      placed = panelSide(
        target.getBoundingClientRect(),
        document.querySelector('.main-column')?.getBoundingClientRect() ?? null,
        window.innerWidth,
        window.innerHeight,
        keys,
        panel ? panel.getBoundingClientRect().height : undefined,
        // Before the rows are there, their names' column is where they will be (the keys predicted).
        marks.length > 0 ? rowNames(marks) : keys,
      );
      if (placed !== side) setSide(placed);
    }
    const now = performance.now();
    // Views still laying out (a link opens the page at the step) can push the element out of view after the
    // scroll: for a while after its arrival, bring it back.
    const pushedOut = scrolled.current === key && now < settleUntil.current && anchor !== null && outOfView(marks[0] ?? anchor);
    if (anchor && shown && (scrolled.current !== key || pushedOut)) {
      if (scrolled.current !== key) settleUntil.current = now + SETTLE_MS;
      scrolled.current = key;
      const first = marks[0] ?? anchor;
      const column = anchor.closest('.main-column');
      const panel = document.querySelector('[data-testid="tour-panel"]');
      const panelTop = panel ? panel.getBoundingClientRect().top : window.innerHeight - PANEL_BOX.left - PANEL_BOX.height;
      // Where the panel will be: on the side just chosen (it may be moving there), at its height.
      const [panelLeft, panelRight] = panelSpan(placed, window.innerWidth);
      // The views may scroll past their end by the panel's height (tour.css).
      if (column instanceof HTMLElement) column.style.setProperty('--tour-panel-height', `${Math.round(window.innerHeight - panelTop)}px`);
      let block = scrollBlock(first, marks.length > 0);
      // An element the panel covers (a narrow window, where either side is over it) goes to the top of the views.
      const anchorBox = anchor.getBoundingClientRect();
      if (marks.length === 0 && panel && anchorBox.bottom > panelTop && anchorBox.left < panelRight && anchorBox.right > panelLeft) block = 'start';
      let into: Element = first;
      // The rows scroll in their own box where it scrolls (the counters' table), else in the views' column.
      const port = marks[0] ? scrollportOf(marks[0], column) : null;
      if (marks[0] instanceof HTMLElement && port) {
        const boxes = marks.map((m) => m.getBoundingClientRect());
        const portBox = port.getBoundingClientRect();
        // The panel covers the rows' band only where it is over their box.
        const over = panel ? panelLeft < portBox.right && panelRight > portBox.left : true;
        const head = marks[0].closest('table')?.tHead ?? null;
        const sticky = head !== null && stickyHead(head);
        if (head && !sticky && headFirst(boxes, head.getBoundingClientRect(), portBox)) {
          into = head;
          block = 'start';
        } else {
          // A header that stays at the top covers that much of the port.
          const headHeight = head && sticky ? head.getBoundingClientRect().height : 0;
          const below = { left: portBox.left, right: portBox.right, top: portBox.top + headHeight, bottom: portBox.bottom };
          const how = markScroll(boxes, below, over ? panelTop : window.innerHeight);
          marks[0].style.scrollMarginBottom = `${how.marginBottom}px`;
          marks[0].style.scrollMarginTop = `${Math.ceil(headHeight)}px`;
          block = how.block;
        }
      }
      into.scrollIntoView({ block, inline: 'nearest', behavior: reducedMotion() ? 'auto' : 'smooth' });
    }
  });

  // Nothing stays marked once the tour closes.
  useEffect(
    () => () => {
      for (const el of marked.current) unmark(el);
      marked.current = [];
    },
    [],
  );
  return { side, found };
}
