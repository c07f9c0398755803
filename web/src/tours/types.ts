// Guided tours as data: one tour per experiment, each step a moment of the
// run (which variant, which step, which view) and a short explanation of
// what the kernel does there. A step also says what must be true of the
// frame for its text to hold (`check`): the page shows the problem when it
// does not, and the tests walk every tour in Node and in the browser
// asserting that it does. DOM-free.
import type { Comparison, Frame } from '../engine/pkg/reclaim_core';
import type { RunKind } from '../engine/protocol';
import type { ShareTab } from '../scenario/share';

/** Where a step takes the run: exactly a step, or from a step to the next event of a kind (as "Run to next" does). */
export type Position = { step: number } | { from: number; until: RunKind; maxSteps?: number };

export interface TourStep {
  title: string;
  /** Two or three sentences: what the kernel does at this moment and why, naming its functions. */
  text: string;
  /** The experiment's variant the step is seen in. */
  variant: string;
  /** Where the run goes; absent: it stays at the step the previous step left it at, in this step's variant (a comparison step). */
  at?: Position;
  /** The view the step is about. */
  tab: ShareTab;
  /** The `data-tour` anchor of the element the step highlights. */
  anchor: string;
  /** More attributes the anchored element must have (e.g. `{ lruvec: '/db@0' }` for `data-lruvec`). */
  anchorWith?: Record<string, string>;
  /** Selectors inside the anchored element to mark as well (rows the text names). */
  marks?: string[];
  /** Runs every variant to the end (the Comparison table is what the step shows). */
  compare?: boolean;
  /** What must hold of the frame on screen for the text to be true: a problem, or null. */
  check?: (frame: Frame) => string | null;
  /** For a comparison step: what must hold of the comparison. */
  checkComparison?: (comparison: Comparison) => string | null;
}

/** What the page knows of a tour before its steps load (the catalog, index.ts). */
export interface TourInfo {
  /** The experiment the tour runs (and the tour's name in links). */
  experiment: string;
  title: string;
  /** One sentence: what the reader will have seen by the end. */
  summary: string;
  /** The view the experiment is watched in: the tab of the tour's first step that is not the comparison (a unit test holds them together). */
  firstTab: ShareTab;
}

/** A tour with its steps (loaded when it opens). */
export interface Tour extends TourInfo {
  steps: TourStep[];
}

/** The tours' precondition problems: null when `ok`, the message otherwise. */
export function expect(ok: boolean, problem: string): string | null {
  return ok ? null : problem;
}

/** The first problem of several checks, or null. */
export function all(...problems: (string | null)[]): string | null {
  return problems.find((p) => p !== null) ?? null;
}

/** A /proc/vmstat counter of the frame (0 when absent). */
export function counter(frame: Frame, name: string): number {
  return frame.counters.find((c) => c.name === name)?.value ?? 0;
}

/** The lruvec of a memcg on node 0. */
export function lruvec(frame: Frame, memcg: string, node = 0) {
  return frame.lruvecs.find((l) => l.memcg === memcg && l.node === node);
}

/** Pages of one type (0 anon, 1 file) in a lruvec's generations. */
export function lruvecPages(frame: Frame, memcg: string, type: 'anon' | 'file'): number {
  return (lruvec(frame, memcg)?.gens ?? []).reduce((n, g) => n + g[type], 0);
}

/** A zone of node 0 by name ("DMA", "DMA32", "Normal"). */
export function zone(frame: Frame, name: string) {
  return frame.nodes[0]?.zones.find((z) => z.name === name);
}

/** Events of the frame's last step of an engine kind ("refault", "memcg-lru", ...), optionally by function. */
export function events(frame: Frame, kind: string, fn?: string) {
  return frame.events.filter((e) => e.kind === kind && (fn === undefined || e.function === fn));
}

/** Whether the frame's events show what a run to the next `kind` stops at. */
export function hasRunEvent(frame: Frame, kind: RunKind): boolean {
  return frame.events.some((e) => {
    switch (kind) {
      case 'kswapd-wake':
        return e.kind === 'kswapd' && e.function === 'balance_pgdat';
      case 'kswapd-sleep':
        return e.kind === 'kswapd' && e.reason.includes('asleep');
      default:
        return e.kind === kind;
    }
  });
}

/** A metric of one variant of a comparison (NaN when missing). */
export function metric(comparison: Comparison, variant: string, name: string): number {
  const v = comparison.variants.find((x) => x.variant === variant);
  const m = v?.metrics.find(([k]) => k === name);
  return m ? m[1] : Number.NaN;
}

/** The CSS selector of a step's highlighted element. */
export function anchorSelector(step: Pick<TourStep, 'anchor' | 'anchorWith'>): string {
  const extra = Object.entries(step.anchorWith ?? {})
    .map(([k, v]) => `[data-${k}="${CSS_ESCAPE(v)}"]`)
    .join('');
  return `[data-tour="${CSS_ESCAPE(step.anchor)}"]${extra}`;
}

/** Escapes a value for a double-quoted attribute selector (the DOM's CSS.escape is not in Node). */
function CSS_ESCAPE(value: string): string {
  return value.replace(/["\\]/g, '\\$&');
}

/** The step a position ends on when it is exact, or null for a run to the next event. */
export function exactStep(at: Position | undefined): number | null {
  return at && 'step' in at ? at.step : null;
}
