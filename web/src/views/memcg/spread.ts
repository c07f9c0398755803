// The spread of pgsteal over the leaf memcgs: what pgsteal_cv sums up in one
// number, drawn one bar per memcg so that an even share (the v6.1 walk) and an
// uneven one (a walk that stops early, the memcg LRU before its eventual
// fairness) look different. DOM-free; draw.ts draws it.
import type { MemcgView } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';
import { formatCv } from './model';

export interface SpreadBar {
  path: string;
  pgsteal: number;
}

export interface SpreadModel {
  /** The leaf memcgs in the engine's (tree) order. */
  bars: SpreadBar[];
  mean: number;
  /** Population standard deviation, as pgsteal_cv uses: cv × mean. */
  stddev: number;
  /** The engine's pgsteal_cv of the frame (Frame.pgstealCv), NaN before any reclaim. */
  cv: number;
  /** The y domain's top: the largest bar or mean + stddev, at least 1. */
  yMax: number;
  /** The chart in words (its accessible description). */
  summary: string;
}

/**
 * The leaves' pgsteal, its mean and standard deviation; null with fewer than
 * two leaves (no spread to show). `cv` is the engine's pgsteal_cv of the same
 * frame (the statistic is computed in one place, the engine's leaf_cv); the
 * deviation drawn is cv × mean. `top`: a y domain top to draw on instead of
 * this frame's own (side by side, both sides' charts share one scale).
 */
export function spreadModel(memcgs: readonly MemcgView[], cv: number, top?: number): SpreadModel | null {
  const bars = memcgs.filter((m) => m.leaf).map((m) => ({ path: m.path, pgsteal: m.pgsteal }));
  if (bars.length < 2) return null;
  const values = bars.map((b) => b.pgsteal);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  // With a mean of 0 every value is 0, and so is the deviation (the engine's cv is NaN then).
  const stddev = mean === 0 || !Number.isFinite(cv) ? 0 : cv * mean;
  const yMax = Math.max(1, mean + stddev, ...values, top ?? 0);
  let most = bars[0]!;
  let least = bars[0]!;
  for (const b of bars) {
    if (b.pgsteal > most.pgsteal) most = b;
    if (b.pgsteal < least.pgsteal) least = b;
  }
  const summary =
    mean === 0
      ? `pgsteal of the ${bars.length} leaf memcgs: none has been reclaimed from yet.`
      : `pgsteal of the ${bars.length} leaf memcgs: mean ${formatCount(Math.round(mean))}, standard deviation ` +
        `${formatCount(Math.round(stddev))} (CV ${formatCv(cv)}); most ${formatCount(most.pgsteal)} (${most.path}), ` +
        `least ${formatCount(least.pgsteal)} (${least.path}).`;
  return { bars, mean, stddev, cv, yMax, summary };
}
