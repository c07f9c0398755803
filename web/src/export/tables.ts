// What "Export CSV" and "Export JSON" write: the /proc/vmstat counters of
// the frame shown (kernel names, kernel order, the change since the previous
// frame) and, on an experiment's page, its comparison table (the numbers of
// `reclaim-sim compare NAME --json`, unformatted) and its check across the
// parameter ranges (the counts of `reclaim-sim sweep NAME --json`). DOM-free.
import { csvFormatRows } from 'd3';
import type { Counter, MemcgView, ReclaimView, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { paramEntries } from '../scenario/params';
import type { ComparisonTable } from '../views/comparison/model';
import type { RangeCheckResult } from '../views/comparison/ranges';
import { counterRows } from '../views/counters/model';
import { customDocument, isCustomRequest, runLabel } from '../scenario/custom';

/** The run a file was exported from. */
export interface ExportedRun {
  request: ScenarioRequest;
  step: number;
  timeNs: number;
  counters: readonly Counter[];
  /** The counters of the frame shown before (for the delta), if any. */
  previous: { step: number; counters: readonly Counter[] } | null;
  /** The memcgs as the Memcgs view shows them (usage, limits, pgscan, pgsteal, events), if any. */
  memcgs?: readonly MemcgView[];
  /** The memory.reclaim writes the Memcgs view lists (the latest), with their rounds. */
  reclaims?: readonly ReclaimView[];
}

/** A file name for this run: scenario[-variant]-seed-step (or -comparison, or step-memcgs) and the extension. */
export function exportFileName(request: ScenarioRequest, what: number | string, extension: string): string {
  const parts = [runLabel(request), request.variant, String(request.seed), String(what)].filter((p) => p !== undefined && p !== '');
  return `${parts.join('-').replace(/[^A-Za-z0-9._-]/g, '_')}.${extension}`;
}

/**
 * The counters as CSV: name (the /proc/vmstat name), value, delta and the
 * step it is the change since (since_step: the frame shown before, which
 * after a jump can be far back; both empty without one).
 */
export function countersCsv(run: ExportedRun): string {
  const rows = counterRows(run.counters, run.previous?.counters ?? null);
  const since = run.previous ? String(run.previous.step) : '';
  return `${csvFormatRows([['name', 'value', 'delta', 'since_step'], ...rows.map((r) => [r.name, String(r.value), r.delta === null ? '' : String(r.delta), r.delta === null ? '' : since])])}\n`;
}

/**
 * The columns of the memcgs CSV: the cgroup files they come from, with the
 * unit where it is not the file's (the files hold bytes; the columns pages,
 * as the Memcgs view shows them).
 */
const MEMCG_COLUMNS = [
  'memcg',
  'leaf',
  'memory.current_pages',
  'memory.max_pages',
  'memory.high_pages',
  'memory.low_pages',
  'memory.min_pages',
  'memory.swap.current_pages',
  'pgscan',
  'pgsteal',
  'events_low',
  'events_high',
  'events_max',
  'events_oom',
  'events_oom_kill',
] as const;

/**
 * The Memcgs view as CSV, a row per memcg in the engine's (tree) order:
 * memory.current and the limits in pages (memory.max and memory.high empty
 * when unlimited), memory.stat pgscan and pgsteal (hierarchical: a parent's
 * include its children's; `leaf` says which rows pgsteal_cv is taken over)
 * and the memory.events counts.
 */
export function memcgsCsv(memcgs: readonly MemcgView[]): string {
  return `${csvFormatRows([[...MEMCG_COLUMNS], ...memcgRows(memcgs)])}\n`;
}

/** Side by side's Memcgs view as CSV: memcgsCsv's rows of each side, after a column naming its variant. */
export function compareMemcgsCsv(sides: readonly ExportedSide[]): string {
  const rows = sides.flatMap((side) => memcgRows(side.memcgs ?? []).map((row) => [side.variant, ...row]));
  return `${csvFormatRows([['variant', ...MEMCG_COLUMNS], ...rows])}\n`;
}

/**
 * One memcg as the exports write it, keyed by the memcgs CSV's columns
 * (memory.max_pages and memory.high_pages null when unlimited): the JSON
 * exports hold these records, and the CSV's rows are their values.
 */
export type MemcgRecord = Record<(typeof MEMCG_COLUMNS)[number], string | number | boolean | null>;

export function memcgRecord(m: MemcgView): MemcgRecord {
  return {
    memcg: m.path,
    leaf: m.leaf,
    'memory.current_pages': m.usage,
    'memory.max_pages': m.max ?? null,
    'memory.high_pages': m.high ?? null,
    'memory.low_pages': m.low,
    'memory.min_pages': m.min,
    'memory.swap.current_pages': m.swapUsage,
    pgscan: m.pgscan,
    pgsteal: m.pgsteal,
    events_low: m.eventsLow,
    events_high: m.eventsHigh,
    events_max: m.eventsMax,
    events_oom: m.eventsOom,
    events_oom_kill: m.eventsOomKill,
  };
}

function memcgRows(memcgs: readonly MemcgView[]): string[][] {
  return memcgs.map((m) => {
    const record = memcgRecord(m);
    return MEMCG_COLUMNS.map((column) => {
      const value = record[column];
      return value === null ? '' : typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    });
  });
}

/**
 * The comparison table as CSV: a row per metric, a column per variant, then
 * the change (`change`: relative, after / baseline - 1; `change_shown`: as
 * the table shows it, in percentage points for a share) and the headline; with a check over seeds 1 to 5, on how many
 * seeds each headline held and tied, and whether those counts were checked
 * here or recorded by `npm run experiments` (seeds_source).
 */
export function comparisonCsv(table: ComparisonTable): string {
  const header = [
    'metric',
    ...table.columns.map((c) => c.variant),
    'baseline',
    'change',
    'change_shown',
    'headline_direction',
    'author_before',
    'author_after',
    'verdict',
    ...(table.seedsChecked ? ['seeds_held', 'seeds_tied', 'seeds', 'seeds_source'] : []),
  ];
  const source = table.seedsRecorded ? 'recorded' : 'checked';
  const rows = table.rows.map((r) => [
    r.metric,
    // Empty for a value the run does not have or does not define (NaN).
    ...r.values.map((v) => (v === null || Number.isNaN(v) ? '' : String(v))),
    r.baseline,
    r.change === null ? '' : String(r.change),
    r.changeText,
    r.headline?.direction ?? '',
    r.headline?.authorBefore ?? '',
    r.headline?.authorAfter ?? '',
    r.headline?.verdict ?? '',
    ...(table.seedsChecked ? (r.seeds ? [String(r.seeds.held), String(r.seeds.tied), String(r.seeds.seeds), source] : ['', '', '', '']) : []),
  ]);
  return `${csvFormatRows([header, ...rows])}\n`;
}

/** The comparison as JSON-ready data (values keyed by variant). */
function comparisonData(table: ComparisonTable) {
  return {
    experiment: table.experiment,
    seed: table.seed,
    params: Object.fromEntries(table.params),
    variants: table.columns.map((c) => c.variant),
    headlinesHeld: table.held,
    headlinesNotHeld: table.notHeld,
    // The seeds counts are the ones `npm run experiments` recorded, not a check run here.
    ...(table.seedsRecorded ? { seedsRecorded: true } : {}),
    metrics: table.rows.map((r) => ({
      metric: r.metric,
      values: Object.fromEntries(table.columns.map((c, i) => [c.variant, r.values[i] ?? null])),
      baseline: r.baseline,
      // Relative (after / baseline - 1); changeShown is the table's text (percentage points for a share).
      change: r.change,
      changeShown: r.changeText,
      headline: r.headline
        ? {
            direction: r.headline.direction,
            authorBefore: r.headline.authorBefore,
            authorAfter: r.headline.authorAfter,
            verdict: r.headline.verdict,
            ...(r.seeds ? { seeds: { held: r.seeds.held, tied: r.seeds.tied, of: r.seeds.seeds } } : {}),
          }
        : null,
    })),
  };
}

/** A finished range check as the JSON export writes it. */
export interface ExportedRanges {
  /** The experiment's headline metrics, in the order of each row's tallies. */
  headlines: readonly string[];
  result: RangeCheckResult;
  /** The table `npm run experiments` recorded, not a check run here. */
  recorded?: boolean;
}

/** The range check as JSON-ready data: per point, each headline's seeds held and tied (`reclaim-sim sweep --json`'s counts). */
function rangesData({ headlines, result }: ExportedRanges) {
  return result.rows.map((row) => ({
    point: row.point,
    headlines: Object.fromEntries(
      headlines.map((metric, i) => {
        const t = row.tallies[i];
        return [metric, t ? { held: t.held, tied: t.tied, of: t.seeds } : null];
      }),
    ),
  }));
}

/**
 * The range check as CSV, a row per point and headline: point, headline,
 * held, tied, seeds (the counts of `reclaim-sim sweep --json`; held and tied
 * empty where a variant did not report the headline), and source: "checked"
 * for a check run here, "recorded" for the table `npm run experiments` wrote.
 */
export function rangesCsv({ headlines, result, recorded }: ExportedRanges): string {
  const source = recorded ? 'recorded' : 'checked';
  const rows = result.rows.flatMap((row) =>
    headlines.map((metric, i) => {
      const t = row.tallies[i];
      return [row.point, metric, t ? String(t.held) : '', t ? String(t.tied) : '', t ? String(t.seeds) : '', source];
    }),
  );
  return `${csvFormatRows([['point', 'headline', 'held', 'tied', 'seeds', 'source'], ...rows])}\n`;
}

/**
 * Everything as one JSON document: the run (scenario, seed, variant,
 * parameters, step, simulated time), the counters by /proc/vmstat name (in
 * the kernel's order) with their deltas, the memcgs and the memory.reclaim
 * writes (with their rounds) as the Memcgs view shows them, the comparison
 * when there is one,
 * and the check across the parameter ranges when one has finished (else the
 * recorded one the page shows, marked `rangesRecorded`).
 */
export function exportJson(run: ExportedRun, comparison: ComparisonTable | null, ranges: ExportedRanges | null = null): string {
  const rows = counterRows(run.counters, run.previous?.counters ?? null);
  const document = {
    scenario: runLabel(run.request),
    // A custom scenario's whole document (what `reclaim-sim run FILE.json` reads).
    ...(isCustomRequest(run.request) ? { custom: customDocument(run.request) } : {}),
    ...(run.request.variant !== undefined ? { variant: run.request.variant } : {}),
    seed: run.request.seed,
    params: Object.fromEntries(paramEntries(run.request).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    step: run.step,
    timeNs: run.timeNs,
    counters: Object.fromEntries(rows.map((r) => [r.name, r.value])),
    deltas: run.previous
      ? { sinceStep: run.previous.step, values: Object.fromEntries(rows.map((r) => [r.name, r.delta])) }
      : null,
    // What the Memcgs view shows: each memcg's state, and the memory.reclaim writes with their rounds.
    ...(run.memcgs && run.memcgs.length > 0 ? { memcgs: run.memcgs.map(memcgRecord) } : {}),
    ...(run.reclaims && run.reclaims.length > 0 ? { memoryReclaim: run.reclaims } : {}),
    comparison: comparison ? comparisonData(comparison) : null,
    ...(ranges ? { ranges: rangesData(ranges), ...(ranges.recorded ? { rangesRecorded: true } : {}) } : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** One side of compare mode, as the exports see it. */
export interface ExportedSide {
  variant: string;
  step: number;
  counters: readonly Counter[];
  /** The side's memcgs, as its Memcgs view shows them. */
  memcgs?: readonly MemcgView[];
}

/** Compare mode's counters as CSV: a row per counter (kernel order), a column per side's variant. */
export function compareCountersCsv(sides: readonly ExportedSide[]): string {
  const values = sides.map((side) => new Map(side.counters.map((c) => [c.name, c.value])));
  const names = sides[0]?.counters.map((c) => c.name) ?? [];
  const rows = names.map((name) => [name, ...values.map((v) => String(v.get(name) ?? ''))]);
  return `${csvFormatRows([['name', ...sides.map((s) => s.variant)], ...rows])}\n`;
}

/** Compare mode as JSON: the run, each side's variant, step, counters and memcgs (as exportJson writes them), and any comparison table. */
export function compareJson(request: ScenarioRequest, sides: readonly ExportedSide[], comparison: ComparisonTable | null): string {
  const document = {
    scenario: runLabel(request),
    seed: request.seed,
    params: Object.fromEntries(paramEntries(request).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    sides: sides.map((side) => ({
      variant: side.variant,
      step: side.step,
      counters: Object.fromEntries(side.counters.map((c) => [c.name, c.value])),
      ...(side.memcgs && side.memcgs.length > 0 ? { memcgs: side.memcgs.map(memcgRecord) } : {}),
    })),
    comparison: comparison ? comparisonData(comparison) : null,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
