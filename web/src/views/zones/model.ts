// The zones view's model: each populated zone's free pages over the last
// frames against its min/low/high watermarks, and its lowmem_reserve.
// The history is kept here, in the UI: each frame brings the current free
// count and, after a multi-step move or a jump, the counts of the steps in
// between (ZoneView.freeTrail); DOM-free, so it is tested under Node.
import ENGINE_CONSTANTS from '../../engine/pkg/engine-constants.json';
import type { NodeView, ZoneView } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';

/** Zone types in the kernel's order (enum zone_type; the index of lowmem_reserve): the engine's names (ZoneType::name). */
export const ZONE_NAMES: readonly string[] = ENGINE_CONSTANTS.zoneNames;

/** One sample of a series kept over time. */
export interface TimePoint {
  step: number;
  timeNs: number;
  value: number;
}

/** Free pages per zone over the last frames, by zoneKey. */
export type ZoneSeries = Readonly<Record<string, readonly TimePoint[]>>;

export function zoneKey(node: number, zone: string): string {
  return `${node}/${zone}`;
}

/** The zone type's index (lowmem_reserve's index); -1 for a name the UI does not know. */
export function zoneIndex(name: string): number {
  return (ZONE_NAMES as readonly string[]).indexOf(name);
}

/** Appends a point to a series, keeping the last `limit`. */
export function appendPoint(series: readonly TimePoint[] | undefined, point: TimePoint, limit: number): TimePoint[] {
  return appendPoints(series, [point], limit);
}

/** Appends points (in order) to a series, keeping the last `limit`. */
export function appendPoints(series: readonly TimePoint[] | undefined, points: readonly TimePoint[], limit: number): TimePoint[] {
  return [...(series ?? []), ...points].slice(-limit);
}

/**
 * The simulated time at the end of `step`, from a frame's step and time:
 * the clock reads exactly step × step_ns after a step.
 */
export function timeOfStep(step: number, at: { step: number; timeNs: number }): number {
  return at.step > 0 ? (step * at.timeNs) / at.step : 0;
}

/** The steps of a frame's trail (ZoneView.freeTrail): the steps of its window before its own. */
export function trailSteps(nodes: readonly NodeView[]): readonly number[] {
  return nodes[0]?.zones[0]?.freeTrail.map(([step]) => step) ?? [];
}

/**
 * A frame's trail ([step, value] at the earlier steps of its window) as the
 * points a series lacks: those after its `last` step and before the frame's
 * own, each at its step's time.
 */
export function trailPoints(trail: readonly (readonly [number, number])[], last: number, at: { step: number; timeNs: number }): TimePoint[] {
  return trail.filter(([step]) => step > last && step < at.step).map(([step, value]) => ({ step, timeNs: timeOfStep(step, at), value }));
}

/**
 * The zones' series with this frame's free counts appended: first those of
 * the earlier steps of its window (a multi-step move or a jump brings every
 * step: ZoneView.freeTrail), then its own; a step the series has already is
 * not added again.
 */
export function appendZones(
  series: ZoneSeries,
  nodes: readonly NodeView[],
  at: { step: number; timeNs: number },
  limit: number,
): ZoneSeries {
  const next: Record<string, readonly TimePoint[]> = {};
  for (const n of nodes) {
    for (const z of n.zones) {
      const key = zoneKey(n.node, z.name);
      const last = series[key]?.at(-1)?.step ?? -1;
      const points = trailPoints(z.freeTrail, last, at);
      points.push({ step: at.step, timeNs: at.timeNs, value: z.free });
      next[key] = appendPoints(series[key], points, limit);
    }
  }
  return next;
}

export type WatermarkName = 'min' | 'low' | 'high';

export interface Watermark {
  name: WatermarkName;
  pages: number;
  /** What crossing it means, for the tooltip. */
  meaning: string;
}

/** Where free pages stand against the watermarks. */
export type ZoneLevel = 'above-high' | 'above-low' | 'below-low' | 'below-min';

export interface Reserve {
  /** The zone an allocation could also use ("lowmem_reserve[Normal]"). */
  zone: string;
  pages: number;
}

/**
 * How the y axis is scaled: to everything in the window ("fit"), around the
 * watermarks (up to twice the high one), or "auto": around the watermarks
 * once free pages are near them (below AUTO_ZOOM × high), to fit before.
 */
export type ZoneScale = 'auto' | 'fit' | 'watermarks';
export const AUTO_ZOOM = 4;

export interface ZoneChartModel {
  key: string;
  node: number;
  name: string;
  managed: number;
  free: number;
  watermarks: Watermark[];
  level: ZoneLevel;
  /** A short phrase for the level ("below low: allocating here wakes kswapd"). */
  levelText: string;
  reserves: Reserve[];
  points: readonly TimePoint[];
  /** The top of the y domain, in pages. */
  yMax: number;
  /** Points above yMax (zoomed to the watermarks): drawn clipped. */
  clipped: boolean;
  /** A note when the line leaves the view ("" when it does not). */
  clipNote: string;
  /** The scale in effect ("auto" resolved). */
  scale: 'fit' | 'watermarks';
  /** The accessible name of the chart. */
  label: string;
  /** One sentence for screen readers. */
  summary: string;
}

const MEANING: Record<WatermarkName, string> = {
  min: 'below min only atomic and reclaim allocations succeed; others enter direct reclaim',
  low: 'below low the allocator wakes kswapd',
  high: 'kswapd reclaims until free pages are above high, then sleeps',
};

export function zoneLevel(zone: Pick<ZoneView, 'free' | 'min' | 'low' | 'high'>): ZoneLevel {
  if (zone.free < zone.min) return 'below-min';
  if (zone.free < zone.low) return 'below-low';
  if (zone.free < zone.high) return 'above-low';
  return 'above-high';
}

const LEVEL_TEXT: Record<ZoneLevel, string> = {
  'above-high': 'above high',
  'above-low': 'between low and high',
  // Against the zone's own watermarks: an allocation that could use a higher
  // zone also keeps lowmem_reserve free here (the engine's zone_watermark_ok).
  'below-low': 'below low: allocating here wakes kswapd',
  'below-min': 'below min: allocating here reclaims directly',
};

/** lowmem_reserve of the zone against allocations that could use a higher zone (j > the zone's own index). */
export function zoneReserves(zone: Pick<ZoneView, 'name' | 'lowmemReserve'>): Reserve[] {
  const own = zoneIndex(zone.name);
  return zone.lowmemReserve.flatMap((pages, j) => (j > own && own >= 0 ? [{ zone: ZONE_NAMES[j]!, pages }] : []));
}

/** The largest value of a series (0 when empty). */
function seriesMax(points: readonly TimePoint[]): number {
  let max = 0;
  for (const p of points) if (p.value > max) max = p.value;
  return max;
}

export function zoneChartModel(
  node: number,
  zone: ZoneView,
  points: readonly TimePoint[],
  scale: ZoneScale = 'auto',
): ZoneChartModel {
  const watermarks: Watermark[] = (['min', 'low', 'high'] as const).map((name) => ({
    name,
    pages: zone[name],
    meaning: MEANING[name],
  }));
  const highest = Math.max(seriesMax(points), zone.free);
  // Zoomed: twice the high watermark, so min/low/high take the lower half.
  const zoomTop = Math.max(2 * zone.high, 8);
  const effective = scale === 'auto' ? (zone.free < AUTO_ZOOM * zone.high ? 'watermarks' : 'fit') : scale;
  // Auto keeps the current value in view.
  const yMax =
    effective === 'fit' ? Math.max(highest, zone.high, 1) : scale === 'auto' ? Math.max(zoomTop, Math.ceil(zone.free * 1.15)) : zoomTop;
  const level = zoneLevel(zone);
  const label = `Free pages of zone ${zone.name} on node ${node}`;
  const reserves = zoneReserves(zone);
  const summary =
    `Zone ${zone.name}: ${formatCount(zone.free)} of ${formatCount(zone.managed)} managed pages free, ` +
    `${LEVEL_TEXT[level]}; watermarks min ${formatCount(zone.min)}, low ${formatCount(zone.low)}, high ${formatCount(zone.high)}` +
    (reserves.length ? `; lowmem_reserve ${reserves.map((r) => `${r.zone} ${formatCount(r.pages)}`).join(', ')}.` : '.');
  return {
    key: zoneKey(node, zone.name),
    node,
    name: zone.name,
    managed: zone.managed,
    free: zone.free,
    watermarks,
    level,
    levelText: LEVEL_TEXT[level],
    reserves,
    points,
    yMax,
    clipped: highest > yMax,
    clipNote:
      zone.free > yMax ? `free now ${formatCount(zone.free)}: above the view` : highest > yMax ? 'earlier values above the view' : '',
    scale: effective,
    label,
    summary,
  };
}

/**
 * Label positions for values drawn at `ys` (pixels, any order) so that no two
 * are closer than `gap`: labels that would collide are set as a block centred
 * on their values, kept inside [top, bottom] when the block fits. Returns the
 * positions in the input's order.
 */
export function spreadLabels(ys: readonly number[], gap: number, top = -Infinity, bottom = Infinity): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
  interface Block {
    first: number;
    count: number;
    sum: number;
  }
  const place = (b: Block) => {
    const span = (b.count - 1) * gap;
    const centred = b.sum / b.count - span / 2;
    return Math.max(top, Math.min(centred, bottom - span));
  };
  const blocks: Block[] = [];
  for (const o of order) {
    blocks.push({ first: o.y, count: 1, sum: o.y });
    blocks[blocks.length - 1]!.first = place(blocks[blocks.length - 1]!);
    // Merge with the block above while they overlap.
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1]!;
      const prev = blocks[blocks.length - 2]!;
      if (prev.first + prev.count * gap <= last.first) break;
      blocks.pop();
      prev.count += last.count;
      prev.sum += last.sum;
      prev.first = place(prev);
    }
  }
  const result = new Array<number>(order.length);
  let k = 0;
  for (const b of blocks) for (let j = 0; j < b.count; j++) result[order[k++]!.i] = b.first + j * gap;
  return result;
}
