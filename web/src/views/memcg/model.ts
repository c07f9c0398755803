// The Memcgs view's model: one row per memcg with its usage against its
// limits and its reclaim counters, on scales shared by the rows, and the
// pgsteal coefficient of variation over time (kept in the UI). DOM-free.
import { scaleLinear } from 'd3';
import type { MemcgView } from '../../engine/pkg/reclaim_core';
import { counted, formatCount } from '../../util/format';
import { appendPoints, trailPoints, type TimePoint } from '../zones/model';
import { formatMetric } from '../comparison/model';

export interface Mark {
  name: 'max' | 'high' | 'low' | 'min';
  pages: number;
  /** Position on the usage scale, 0..1 (clamped). */
  at: number;
}

export interface MemcgRow {
  path: string;
  leaf: boolean;
  depth: number;
  usage: number;
  max: number | null;
  high: number | null;
  low: number;
  min: number;
  swapUsage: number;
  pgscan: number;
  pgsteal: number;
  eventsLow: number;
  eventsHigh: number;
  eventsMax: number;
  eventsOom: number;
  eventsOomKill: number;
  /** Bar lengths on the shared scales, 0..1 (clamped). */
  usageAt: number;
  pgscanAt: number;
  pgstealAt: number;
  /** The row's values go past a shared scale (a parent's hierarchical totals): its bars are clamped. */
  usageOffScale: boolean;
  reclaimOffScale: boolean;
  /** memory.max/high/low/min marks on the usage bar (only the ones set). */
  marks: Mark[];
  /** usage / max (or high) when limited. */
  fill: number | null;
  level: 'ok' | 'high' | 'full';
  /** pgsteal / pgscan (null before any scan). */
  efficiency: number | null;
}

export interface MemcgsModel {
  rows: MemcgRow[];
  /** The top of the usage scale (pages) and of the pgscan/pgsteal scale. */
  usageMax: number;
  reclaimMax: number;
  leaves: number;
  /** What the scales are taken from, in words. */
  scaleNote: string;
}

function depthOf(path: string): number {
  return path === '/' ? 0 : path.split('/').length - 1;
}

/**
 * Rows in the engine's order. The scales come from the memcgs other than the
 * root (whose usage and counters are the sums of everything) — from the
 * leaves for pgscan/pgsteal, the fairness that the coefficient of variation
 * measures; a row past a scale (a parent's totals) is drawn clamped.
 */
export function memcgsModel(memcgs: readonly MemcgView[]): MemcgsModel {
  const nonRoot = memcgs.filter((m) => m.path !== '/');
  const usageBase = nonRoot.length > 0 ? nonRoot : memcgs;
  const leaves = memcgs.filter((m) => m.leaf);
  const reclaimBase = leaves.length > 0 ? leaves : memcgs;
  // The largest values; the scales' tops are at least 1 (a domain of [0, 0] would not scale).
  const usageTop = Math.max(0, ...usageBase.map((m) => Math.max(m.usage, m.max ?? 0, m.high ?? 0, m.low, m.min)));
  const reclaimTop = Math.max(0, ...reclaimBase.map((m) => Math.max(m.pgscan, m.pgsteal)));
  const usageMax = Math.max(1, usageTop);
  const reclaimMax = Math.max(1, reclaimTop);
  const usage = scaleLinear().domain([0, usageMax]).range([0, 1]).clamp(true);
  const reclaim = scaleLinear().domain([0, reclaimMax]).range([0, 1]).clamp(true);
  const rows = memcgs.map((m): MemcgRow => {
    const max = m.max ?? null;
    const high = m.high ?? null;
    const marks: Mark[] = [];
    if (max !== null) marks.push({ name: 'max', pages: max, at: usage(max) });
    if (high !== null) marks.push({ name: 'high', pages: high, at: usage(high) });
    if (m.low > 0) marks.push({ name: 'low', pages: m.low, at: usage(m.low) });
    if (m.min > 0) marks.push({ name: 'min', pages: m.min, at: usage(m.min) });
    const limit = max ?? high;
    const fill = limit !== null && limit > 0 ? m.usage / limit : null;
    const level = fill === null ? 'ok' : fill >= 0.98 ? 'full' : fill >= 0.85 ? 'high' : 'ok';
    return {
      path: m.path,
      leaf: m.leaf,
      depth: depthOf(m.path),
      usage: m.usage,
      max,
      high,
      low: m.low,
      min: m.min,
      swapUsage: m.swapUsage,
      pgscan: m.pgscan,
      pgsteal: m.pgsteal,
      eventsLow: m.eventsLow,
      eventsHigh: m.eventsHigh,
      eventsMax: m.eventsMax,
      eventsOom: m.eventsOom,
      eventsOomKill: m.eventsOomKill,
      usageAt: usage(m.usage),
      pgscanAt: reclaim(m.pgscan),
      pgstealAt: reclaim(m.pgsteal),
      usageOffScale: m.usage > usageMax,
      reclaimOffScale: m.pgscan > reclaimMax || m.pgsteal > reclaimMax,
      marks,
      fill,
      level,
      efficiency: m.pgscan > 0 ? m.pgsteal / m.pgscan : null,
    };
  });
  const usageText =
    usageTop > 0
      ? `usage up to ${counted(usageTop, 'page')} (the largest memcg below the root)`
      : 'usage (no memcg below the root uses a page now)';
  const reclaimText = reclaimTop > 0 ? `pgscan/pgsteal up to ${formatCount(reclaimTop)} (the largest leaf)` : 'pgscan/pgsteal (none yet)';
  const scaleNote = `Bars share one scale per column: ${usageText}, ${reclaimText}. Rows past a scale are clamped (›).`;
  return { rows, usageMax, reclaimMax, leaves: leaves.length, scaleNote };
}

/** A leaf memcg that has given back a page: with one (and another leaf), pgsteal_cv is defined (its mean is not 0). */
export function reclaimedLeaf(m: Pick<MemcgView, 'leaf' | 'pgsteal'>): boolean {
  return m.leaf && m.pgsteal > 0;
}

/**
 * The CV series with a frame's values appended: first those of the earlier
 * steps of its window (a jump brings every step: Frame.pgstealCvTrail), then
 * its own; a step the series has already is not added again.
 */
export function appendCv(
  series: readonly TimePoint[],
  trail: readonly (readonly [number, number])[],
  cv: number,
  at: { step: number; timeNs: number },
  limit: number,
): TimePoint[] {
  const points = trailPoints(trail, series.at(-1)?.step ?? -1, at);
  points.push({ step: at.step, timeNs: at.timeNs, value: cv });
  return appendPoints(series, points, limit);
}

export interface SparkModel {
  /** [x, y] in a box of width × height (y down). */
  points: [number, number][];
  /** The y domain top. */
  yMax: number;
  last: number | null;
}

/** A small line over the series: x by time over the window, y from 0 to the series' max. */
export function sparkline(series: readonly TimePoint[], width: number, height: number, pad = 2): SparkModel {
  if (series.length === 0) return { points: [], yMax: 0, last: null };
  const t0 = series[0]!.timeNs;
  const t1 = series[series.length - 1]!.timeNs;
  // Frames where the value is not defined (NaN: nothing reclaimed yet) take their place on x but draw nothing.
  const defined = series.filter((p) => !Number.isNaN(p.value));
  const yMax = Math.max(...defined.map((p) => p.value), 1e-9);
  const x = scaleLinear().domain([t0, t1 > t0 ? t1 : t0 + 1]).range([pad, width - pad]);
  const y = scaleLinear().domain([0, yMax]).range([height - pad, pad]);
  return { points: defined.map((p) => [x(p.timeNs), y(p.value)]), yMax, last: defined[defined.length - 1]?.value ?? null };
}

/** "173 %": a percentage, as the comparison table shows pgsteal_cv and the patch author gives it (75 %, 20 %). */
export function formatCv(cv: number): string {
  return formatMetric(cv, 'pgsteal_cv');
}
