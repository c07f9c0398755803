// The shadow-LRU view's model: one lruvec's shadows (tracked pages out of
// memory) placed on a refault-distance axis against the workingset
// thresholds, or on the generations axis against min_seq..max_seq (MGLRU),
// and the last step's refault decisions as table rows. DOM-free and pure, so
// it can be tested; the engine computed every number (Frame.shadow), this
// only arranges them.
import { nice } from 'd3';
import type { RefaultView, ShadowEntryView, ShadowFrame, ShadowLruvecView, ThresholdView } from '../../engine/pkg/reclaim_core';
import { counted, formatCount } from '../../util/format';
import { folioKind } from '../generations/folios';
import type { FolioType } from '../generations/model';

/** How many generation columns the strip shows; older shadows share one "older" column. */
export const MAX_GEN_COLUMNS = 12;
/** The distance axis runs to at most this many times the largest threshold; farther shadows sit in an overflow band. */
export const DISTANCE_SPAN = 4;

/** The kernel function that decides, as the engine names it (ShadowFrame.model). */
export type RefaultModel = 'workingset_test_recent' | 'lru_gen_test_recent' | 'lru_test_refault';

export interface ShadowDot {
  /** "file:reader#120": the dot's key, and the folio the app selects. */
  page: string;
  kind: FolioType;
  /** "evicted" (page-cache shadow) or "swapped" (swap slot's shadow). */
  state: string;
  /** A refault now would count WORKINGSET_ACTIVATE. */
  activate: boolean;
  /** MGLRU: its generation is still min_seq. */
  recent: boolean | null;
  distance: number | null;
  tokenSeq: number | null;
  /** The distance lies beyond the axis (drawn in the overflow band). */
  overflow: boolean;
  /** The generation column it sits in ("older" when left of the shown columns). */
  column: string | null;
  /** The accessible name. */
  label: string;
}

export interface ThresholdLine {
  kind: FolioType;
  pages: number;
  /** "≤" or "<" (a distance that compares so counts). */
  comparison: string;
  /** The short label on the chart: "file ≤ 1,912". */
  label: string;
  /** The engine's rule ("workingset_test_recent: a file refault is activated when …"). */
  rule: string;
}

export interface DistanceStrip {
  /** The axis' end (pages of refault distance). */
  xMax: number;
  thresholds: ThresholdLine[];
  /** Shadows beyond xMax. */
  overflow: number;
}

export interface GenerationStrip {
  /** Column keys, oldest first: "older" (if any), then "seq:N". */
  columns: string[];
  /** The sequence number of each column (null for "older"). */
  seqs: (number | null)[];
  minSeq: Record<FolioType, number>;
  maxSeq: number;
}

export interface ShadowLruvecModel {
  key: string;
  memcg: string;
  node: number;
  model: RefaultModel;
  nonresidentAge: number;
  /** The refault-distance strip (classic; MGLRU with patch 004). */
  distance: DistanceStrip | null;
  /** The generation strip (MGLRU). */
  generation: GenerationStrip | null;
  dots: ShadowDot[];
  /** Tracked shadows of the lruvec (more than `dots` when the engine thinned them). */
  total: number;
  activate: number;
  /** A one-paragraph text alternative of the chart. */
  summary: string;
}

export function shadowLruvecKey(l: Pick<ShadowLruvecView, 'memcg' | 'node'>): string {
  return `${l.memcg}@${l.node}`;
}

/** ≤ and < as the UI prints the engine's "<=" and "<". */
export function comparisonSign(comparison: string): string {
  return comparison === '<=' ? '≤' : '<';
}

/** The opposite of a comparison that failed: "<=" -> ">", "<" -> "≥". */
function failedSign(comparison: string): string {
  return comparison === '<=' ? '>' : '≥';
}

export function refaultModel(frame: ShadowFrame): RefaultModel {
  return frame.model === 'workingset_test_recent' || frame.model === 'lru_test_refault' ? frame.model : 'lru_gen_test_recent';
}

/**
 * The lruvec to show: the one chosen (while listed), else the one holding
 * the selected page's shadow, else the one with the most shadows.
 */
export function chooseLruvec(frame: ShadowFrame, chosen: string | null, selectedPage: string | null): ShadowLruvecView | undefined {
  const byKey = frame.lruvecs.find((l) => shadowLruvecKey(l) === chosen);
  if (byKey) return byKey;
  if (selectedPage) {
    const holding = frame.lruvecs.find((l) => l.shadows.some((s) => s.page === selectedPage));
    if (holding) return holding;
  }
  let best: ShadowLruvecView | undefined;
  for (const l of frame.lruvecs) if (!best || l.shadowsTotal > best.shadowsTotal) best = l;
  return best;
}

function thresholdLine(t: ThresholdView): ThresholdLine {
  const kind = folioKind(t.kind);
  const sign = comparisonSign(t.comparison);
  return { kind, pages: t.pages, comparison: sign, label: `${kind} ${sign} ${formatCount(t.pages)}`, rule: t.rule };
}

/**
 * The axis' end: past the largest threshold, up to about DISTANCE_SPAN times
 * it (or the farthest shadow, if nearer), rounded up to a whole, round page
 * count (the end of an axis of about five ticks).
 */
export function distanceExtent(distances: readonly number[], thresholds: readonly number[]): number {
  const t = Math.max(1, ...thresholds);
  const d = Math.max(0, ...distances);
  const end = Math.max(t * 1.25, Math.min(d * 1.05, t * DISTANCE_SPAN));
  return nice(0, Math.ceil(end), 5)[1];
}

/** The generation columns from the oldest shadow (or min_seq) to max_seq, at most MAX_GEN_COLUMNS ("older" first when cut). */
export function generationColumns(l: ShadowLruvecView): GenerationStrip | null {
  if (l.minSeq == null || l.maxSeq == null) return null;
  const [anon, file] = l.minSeq;
  const maxSeq = l.maxSeq;
  let lo = Math.min(anon, file);
  for (const s of l.shadows) if (s.tokenSeq != null) lo = Math.min(lo, s.tokenSeq);
  const columns: string[] = [];
  const seqs: (number | null)[] = [];
  const first = Math.max(lo, maxSeq - MAX_GEN_COLUMNS + 2);
  if (first > lo) {
    columns.push('older');
    seqs.push(null);
  }
  for (let seq = first; seq <= maxSeq; seq++) {
    columns.push(`seq:${seq}`);
    seqs.push(seq);
  }
  return { columns, seqs, minSeq: { anon, file }, maxSeq };
}

function dotLabel(s: ShadowEntryView, model: RefaultModel, thresholds: Map<FolioType, ThresholdLine>, minSeq: Record<FolioType, number> | null): string {
  const kind = folioKind(s.kind);
  const where = s.state === 'swapped' ? 'swap entry' : 'shadow';
  const parts = [`${where} of ${s.page}`];
  if (s.distance != null) {
    const t = thresholds.get(kind);
    if (t) {
      const sign = s.activate ? t.comparison : t.comparison === '≤' ? '>' : '≥';
      parts.push(`refault distance ${formatCount(s.distance)} ${sign} ${formatCount(t.pages)}`);
    } else {
      parts.push(`refault distance ${formatCount(s.distance)}`);
    }
  }
  if (s.tokenSeq != null && minSeq) {
    parts.push(`evicted from generation ${s.tokenSeq}${s.recent ? ' = min_seq (recent)' : `, min_seq ${minSeq[kind]} (gone)`}`);
  }
  if (model === 'lru_gen_test_recent') parts.push(s.activate ? 'a refault now would be recent' : 'a refault now would not be recent');
  else parts.push(s.activate ? 'a refault now would activate' : model === 'lru_test_refault' && s.recent ? 'a refault now would be recent, not activated' : 'a refault now would not activate');
  return parts.join(', ');
}

export function shadowModel(frame: ShadowFrame, l: ShadowLruvecView): ShadowLruvecModel {
  const model = refaultModel(frame);
  const lines = l.thresholds.map(thresholdLine);
  const byKind = new Map(lines.map((t) => [t.kind, t]));
  const generation = generationColumns(l);
  const distance =
    model === 'lru_gen_test_recent'
      ? null
      : {
          xMax: distanceExtent(
            l.shadows.flatMap((s) => (s.distance == null ? [] : [s.distance])),
            lines.map((t) => t.pages),
          ),
          thresholds: lines,
          overflow: 0,
        };
  const dots: ShadowDot[] = l.shadows.map((s) => {
    const overflow = distance !== null && s.distance != null && s.distance > distance.xMax;
    let column: string | null = null;
    if (generation && s.tokenSeq != null) {
      const key = `seq:${s.tokenSeq}`;
      column = generation.columns.includes(key) ? key : 'older';
    }
    return {
      page: s.page,
      kind: folioKind(s.kind),
      state: s.state,
      activate: s.activate,
      recent: s.recent ?? null,
      distance: s.distance ?? null,
      tokenSeq: s.tokenSeq ?? null,
      overflow,
      column,
      label: dotLabel(s, model, byKind, generation?.minSeq ?? null),
    };
  });
  if (distance) distance.overflow = dots.filter((d) => d.overflow).length;
  const activate = dots.filter((d) => d.activate).length;
  return {
    key: shadowLruvecKey(l),
    memcg: l.memcg,
    node: l.node,
    model,
    nonresidentAge: l.nonresidentAge,
    distance,
    generation,
    dots,
    total: l.shadowsTotal,
    activate,
    summary: summarize(model, l, dots, lines, generation),
  };
}

function summarize(model: RefaultModel, l: ShadowLruvecView, dots: readonly ShadowDot[], lines: readonly ThresholdLine[], generation: GenerationStrip | null): string {
  const n = dots.length;
  const activate = dots.filter((d) => d.activate).length;
  const outcome = model === 'lru_gen_test_recent' ? 'would be recent' : 'would be activated';
  const head = `${counted(l.shadowsTotal, 'tracked page')} out of memory in ${l.memcg} on node ${l.node}; ${formatCount(activate)} of the ${formatCount(n)} shown ${outcome} if they refaulted now.`;
  const rules = lines.map((t) => `${t.kind === 'anon' ? 'An' : 'A'} ${t.kind} refault activates when its distance ${t.comparison} ${formatCount(t.pages)} pages.`);
  if (model !== 'workingset_test_recent' && generation) {
    rules.push(
      `Generations min_seq[anon] ${generation.minSeq.anon}, min_seq[file] ${generation.minSeq.file} to max_seq ${generation.maxSeq}; a shadow evicted from its type's min_seq is recent.`,
    );
  }
  return [head, ...rules].join(' ');
}

/** Stacks dots that would overlap into levels: each dot's level in its pixel bin (bins `diameter` wide), in input order. */
export function stackLevels(xs: readonly number[], diameter: number): number[] {
  const used = new Map<number, number>();
  return xs.map((x) => {
    const bin = Math.round(x / Math.max(1, diameter));
    const level = used.get(bin) ?? 0;
    used.set(bin, level + 1);
    return level;
  });
}

// ---------- The decisions table ----------

export type Decision = 'activate' | 'recent' | 'not recent' | 'ignored';
export const DECISIONS: readonly Decision[] = ['activate', 'recent', 'not recent', 'ignored'];

/**
 * The decisions a refault model can make: the classic LRU activates or not;
 * MGLRU v6.12 activates no refault (a recent one feeds the PID controller)
 * and ignores a shadow from another lruvec; with patch 004 all four.
 */
export function decisionsOf(model: RefaultModel): readonly Decision[] {
  if (model === 'workingset_test_recent') return ['activate', 'not recent'];
  if (model === 'lru_gen_test_recent') return ['recent', 'not recent', 'ignored'];
  return DECISIONS;
}

export interface RefaultRow {
  key: string;
  timeNs: number;
  page: string;
  tracked: boolean;
  kind: FolioType;
  lruvec: string;
  /** What was compared, one line per check: ["812 ≤ 1,024"], ["gen 12 = min_seq 12"]. */
  checks: string[];
  decision: Decision;
  /** WORKINGSET_ACTIVATE was counted: every "activate", and MGLRU v6.12's "recent". */
  activateCounted: boolean;
  /** Further effects: "restore", "tier 0→1". */
  extras: string[];
  rule: string;
}

export function decisionOf(r: RefaultView): Decision {
  return (DECISIONS as readonly string[]).includes(r.decision) ? (r.decision as Decision) : 'not recent';
}

function checkTexts(r: RefaultView): string[] {
  const parts: string[] = [];
  if (r.distance != null && r.threshold != null && r.comparison != null) {
    const passes = r.comparison === '<=' ? r.distance <= r.threshold : r.distance < r.threshold;
    const sign = passes ? comparisonSign(r.comparison) : failedSign(r.comparison);
    parts.push(`${formatCount(r.distance)} ${sign} ${formatCount(r.threshold)}`);
  }
  if (r.tokenSeq != null && r.minSeq != null) {
    parts.push(`gen ${r.tokenSeq} ${r.tokenSeq === r.minSeq ? '=' : '<'} min_seq ${r.minSeq}`);
  }
  return parts;
}

export function refaultRows(refaults: readonly RefaultView[]): RefaultRow[] {
  return refaults.map((r, i) => {
    const extras: string[] = [];
    if (r.restore) extras.push('restore');
    if (r.tier != null && r.tierBefore != null && r.tier !== r.tierBefore) extras.push(`tier ${r.tierBefore}→${r.tier}`);
    return {
      key: `${r.step}:${i}`,
      timeNs: r.timeNs,
      page: r.page,
      tracked: r.tracked,
      kind: folioKind(r.kind),
      lruvec: `${r.memcg} node ${r.node}`,
      checks: checkTexts(r),
      decision: decisionOf(r),
      activateCounted: r.activateCounted,
      extras,
      rule: r.rule,
    };
  });
}

export interface DecisionCounts {
  /** Per decision, per kind. */
  byDecision: Record<Decision, Record<FolioType, number>>;
  /** Refaults that counted workingset_activate, per kind. */
  activateCounted: Record<FolioType, number>;
  restore: Record<FolioType, number>;
  total: number;
}

/** The decisions by kind (workingset_refault_* counts the rows with refaultCounted: all but "ignored", and before v6.5 only MGLRU's "recent"; workingset_activate_* the rows with activateCounted). */
export function decisionCounts(refaults: readonly RefaultView[]): DecisionCounts {
  const zero = (): Record<FolioType, number> => ({ anon: 0, file: 0 });
  const byDecision = { activate: zero(), recent: zero(), 'not recent': zero(), ignored: zero() } as Record<Decision, Record<FolioType, number>>;
  const restore = zero();
  const activateCounted = zero();
  for (const r of refaults) {
    const kind = folioKind(r.kind);
    byDecision[decisionOf(r)][kind] += 1;
    if (r.restore) restore[kind] += 1;
    if (r.activateCounted) activateCounted[kind] += 1;
  }
  return { byDecision, activateCounted, restore, total: refaults.length };
}
