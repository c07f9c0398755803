// Many tracked folios (thousands) on a <canvas> laid over the lruvec's chart:
// SVG with one element per dot is too slow for them. The dots are written
// straight into the canvas's pixels (squares of a pixel or two), moved from
// where they were to where the new frame puts them over the transition, one
// animation frame at a time. For keyboard and screen-reader users the canvas
// is a listbox with one option rendered: the folio the arrow keys are on
// (aria-activedescendant, with its position in the set); Enter or Space
// selects it, Escape clears the selection; a click selects the nearest dot.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { GenerationsModel } from './model';
import { denseSummary, groupAt, nearestDot, type DenseDots } from './denseDots';
import { folioLabel } from './folios';
import { easeOut, paintDots, readDotColors, type DotColors } from './paint';
import type { LruvecFolios } from './tracked';
import { listboxAction } from '../../util/listbox';

export interface FolioCanvasProps {
  model: GenerationsModel;
  folios: LruvecFolios;
  dots: DenseDots;
  width: number;
  height: number;
  /** Where the plot starts in the chart. */
  margin: { top: number; left: number };
  /** The step of the frame drawn (the canvas says it in data-step). */
  step: number;
  selected: string | null;
  onSelect(page: string | null): void;
  /** Transition length for this update in ms (0 = none). */
  duration: number;
  label: string;
}

/** What the animation moves between: the dots' places before and after a frame. */
interface Motion {
  dots: DenseDots;
  fromX: Float32Array;
  fromY: Float32Array;
  /** Where the dots are at the last draw (for clicks and the next frame's start). */
  atX: Float32Array;
  atY: Float32Array;
  began: number;
  duration: number;
}

/** Watches the document's theme attribute: the colours come from CSS variables. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const observer = new MutationObserver(() => setVersion((v) => v + 1));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] });
    return () => observer.disconnect();
  }, []);
  return version;
}

export function FolioCanvas(props: FolioCanvasProps) {
  const { model, folios, dots, width, height, margin, step, selected, onSelect, duration, label } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const motion = useRef<Motion | null>(null);
  const raf = useRef(0);
  const draws = useRef(0);
  const colors = useRef<DotColors | null>(null);
  const image = useRef<ImageData | null>(null);
  const [focused, setFocused] = useState(false);
  const optionId = useId();
  const describedBy = useId();
  const themeVersion = useThemeVersion();

  // The folio the keyboard is on, by sample index (kept across frames), and its place in reading order.
  const [activeId, setActiveId] = useState<number | null>(null);
  const positions = useMemo(() => {
    const map = new Map<number, number>();
    dots.ids.forEach((id, at) => map.set(id, at));
    return map;
  }, [dots]);
  const selectedId = selected === null ? -1 : folios.index.find(selected);
  const activeAt =
    activeId !== null && positions.has(activeId)
      ? positions.get(activeId)!
      : selectedId >= 0 && positions.has(selectedId)
        ? positions.get(selectedId)!
        : dots.ids.length > 0
          ? 0
          : -1;
  const rings = useRef({ selectedAt: -1, activeAt: -1, focused: false });
  rings.current = { selectedAt: positions.get(selectedId) ?? -1, activeAt, focused };

  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;

  /** Draws the dots where they are at time `now`; says whether they are still moving. */
  const draw = useCallback(
    (now: number): boolean => {
      const canvas = canvasRef.current;
      const m = motion.current;
      if (!canvas || !m) return false;
      const context = canvas.getContext('2d');
      if (!context) return false;
      colors.current ??= readDotColors(canvas);
      if (!image.current || image.current.width !== canvas.width || image.current.height !== canvas.height) {
        image.current = context.createImageData(canvas.width, canvas.height);
      }
      const t = m.duration <= 0 ? 1 : Math.min(1, (now - m.began) / m.duration);
      const e = easeOut(t);
      const { x, y } = m.dots;
      for (let j = 0; j < x.length; j++) {
        m.atX[j] = m.fromX[j]! + (x[j]! - m.fromX[j]!) * e;
        m.atY[j] = m.fromY[j]! + (y[j]! - m.fromY[j]!) * e;
      }
      paintDots(context, image.current, { x: m.atX, y: m.atY, side: m.dots.side, style: m.dots.style }, colors.current, {
        dpr,
        left: margin.left,
        top: margin.top,
        rings: rings.current,
      });
      draws.current++;
      canvas.dataset.draws = String(draws.current);
      return t < 1;
    },
    [dpr, margin.left, margin.top],
  );

  const animate = useCallback(() => {
    cancelAnimationFrame(raf.current);
    const frame = (now: number) => {
      if (draw(now)) raf.current = requestAnimationFrame(frame);
    };
    raf.current = requestAnimationFrame(frame);
  }, [draw]);

  useEffect(() => () => cancelAnimationFrame(raf.current), []);

  // A new layout: move every dot from where it is now to its new place.
  const drawnSize = useRef({ width, height });
  useEffect(() => {
    const previous = motion.current;
    const n = dots.ids.length;
    // A resize moves the dots at once.
    const resized = drawnSize.current.width !== width || drawnSize.current.height !== height;
    drawnSize.current = { width, height };
    const moves = !resized && duration > 0;
    const fromX = Float32Array.from(dots.x);
    const fromY = Float32Array.from(dots.y);
    if (previous && moves) {
      const at = new Map<number, number>();
      previous.dots.ids.forEach((id, j) => at.set(id, j));
      for (let j = 0; j < n; j++) {
        const k = at.get(dots.ids[j]!);
        if (k !== undefined) {
          fromX[j] = previous.atX[k]!;
          fromY[j] = previous.atY[k]!;
        }
      }
    }
    motion.current = { dots, fromX, fromY, atX: new Float32Array(n), atY: new Float32Array(n), began: performance.now(), duration: moves ? duration : 0 };
    if (canvasRef.current) canvasRef.current.dataset.step = String(step);
    animate();
    // Only a new layout starts a motion (not a new duration or step alone).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dots]);

  // A new size, theme, selection or focus: draw again where the dots are.
  useEffect(() => {
    colors.current = null;
    animate();
  }, [themeVersion, width, height, animate, selectedId, activeAt, focused]);

  const choose = (at: number) => {
    const id = dots.ids[at];
    if (id === undefined) return;
    setActiveId(id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const n = dots.ids.length;
    if (n === 0) return;
    const here = Math.max(0, activeAt);
    const group = groupAt(dots, here);
    let next: number | null = null;
    // Page Up/Down move by column (generation); the other keys as in every listbox of dots.
    if (event.key === 'PageDown') {
      next = group ? Math.min(n - 1, group.end) : here;
    } else if (event.key === 'PageUp') {
      const previous = group && group.start > 0 ? groupAt(dots, group.start - 1) : undefined;
      next = here > (group?.start ?? 0) ? (group?.start ?? 0) : (previous?.start ?? 0);
    } else {
      const action = listboxAction(event.key, here, n);
      if (!action) return;
      if ('move' in action) next = action.move;
      else onSelect('select' in action ? folios.index.page(dots.ids[here]!) : null);
    }
    // The page's own shortcuts (→ steps, Space plays) must not see these keys.
    event.preventDefault();
    event.stopPropagation();
    if (next !== null) choose(next);
  };

  // Clicks reach the chart under the canvas (its bars keep their tooltips); the nearest dot is chosen.
  const onClick = useRef<(event: globalThis.MouseEvent) => void>(() => {});
  onClick.current = (event) => {
    const m = motion.current;
    const canvas = canvasRef.current;
    if (!m || !canvas) return;
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left - margin.left;
    const y = event.clientY - box.top - margin.top;
    const at = nearestDot({ x: m.atX, y: m.atY }, x, y, Math.max(4, m.dots.spacing));
    if (at < 0) return;
    choose(at);
    onSelect(folios.index.page(m.dots.ids[at]!));
    listRef.current?.focus({ preventScroll: true });
  };
  useEffect(() => {
    const chart = canvasRef.current?.parentElement?.parentElement;
    if (!chart) return;
    const listener = (event: globalThis.MouseEvent) => onClick.current(event);
    chart.addEventListener('click', listener);
    return () => chart.removeEventListener('click', listener);
  }, []);

  const active = activeAt >= 0 ? folios.index.record(folios.frame, dots.ids[activeAt]!) : null;
  const activeGroup = activeAt >= 0 ? groupAt(dots, activeAt) : undefined;
  return (
    <div className={`folio-canvas${focused ? ' focused' : ''}`} style={{ width, height }}>
      <canvas
        ref={canvasRef}
        aria-hidden="true"
        data-testid="folio-canvas"
        width={Math.round(width * dpr)}
        height={Math.round(height * dpr)}
        style={{ width, height }}
      />
      <div
        ref={listRef}
        // On screen only as the ring on the canvas.
        className="folio-canvas-list visually-hidden"
        role="listbox"
        tabIndex={0}
        aria-label={`${label}: ${dots.ids.length.toLocaleString('en-US')} drawn`}
        aria-describedby={describedBy}
        aria-activedescendant={active ? optionId : undefined}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      >
        {active && (
          <div
            id={optionId}
            role="option"
            aria-selected={active.page === selected}
            aria-setsize={dots.ids.length}
            aria-posinset={activeAt + 1}
            data-page={active.page}
          >
            {folioLabel(active, model.mode)}
            {activeGroup ? ` (${activeGroup.label} group: ${activeAt - activeGroup.start + 1} of ${activeGroup.end - activeGroup.start})` : ''}
          </div>
        )}
      </div>
      <p id={describedBy} className="visually-hidden">
        {denseSummary(dots)} Arrow keys move from folio to folio, Page Up and Page Down from group to group, Enter selects, Escape
        clears the selection.
      </p>
    </div>
  );
}
