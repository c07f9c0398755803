// What "Export CSV" and "Export JSON" write: the /proc/vmstat counters of
// the frame shown (kernel names, kernel order, the change since the previous
// frame) and, on an experiment's page, its comparison table (the numbers of
// `reclaim-sim compare NAME --json`, unformatted) and its check across the
// parameter ranges (the counts of `reclaim-sim sweep NAME --json`). The JSON
// uses the command line's names and layout (run --json, compare --json,
// sweep --json), so one script reads both; the CSVs are laid out for a
// spreadsheet next to the page (pages, as the views show them). DOM-free.
import { csvFormatRows } from 'd3';
import type { Counter, MemcgView, ReclaimView, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { paramEntries } from '../scenario/params';
import { AFTER, type ComparisonTable } from '../views/comparison/model';
import type { RangeCheckResult } from '../views/comparison/ranges';
import { counterRows } from '../views/counters/model';
import { PAGE_SIZE } from '../util/format';
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

/** One memcg keyed by the memcgs CSV's columns (memory.max_pages and memory.high_pages null when unlimited). */
type MemcgRecord = Record<(typeof MEMCG_COLUMNS)[number], string | number | boolean | null>;

function memcgRecord(m: MemcgView): MemcgRecord {
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

/**
 * The comparison as JSON-ready data, laid out as `reclaim-sim compare NAME
 * --json` prints it (experiment, params, seed, variants.{variant}.metrics,
 * headlines with expected, baseline, baseline_value, after_value, held,
 * tied, author_before and author_after), so a script reads either; then what only the page has: each
 * metric's change as the table shows it, and the count over seeds 1 to 5
 * when one was checked or recorded.
 */
function comparisonData(table: ComparisonTable) {
  const value = (r: ComparisonTable['rows'][number], i: number) => r.values[i] ?? null;
  const columnValue = (r: ComparisonTable['rows'][number], variant: string) => {
    const i = table.columns.findIndex((c) => c.variant === variant);
    return i < 0 ? null : value(r, i);
  };
  return {
    experiment: table.experiment,
    params: Object.fromEntries(table.params),
    seed: table.seed,
    variants: Object.fromEntries(table.columns.map((c, i) => [c.variant, { metrics: Object.fromEntries(table.rows.map((r) => [r.metric, value(r, i)])) }])),
    headlines: table.rows.flatMap((r) =>
      r.headline
        ? [
            {
              metric: r.metric,
              expected: `after ${r.headline.direction} than ${r.headline.baseline}`,
              baseline: r.headline.baseline,
              // The two values the verdict compares, as the variants give them.
              baseline_value: columnValue(r, r.headline.baseline),
              after_value: columnValue(r, AFTER),
              held: r.headline.verdict === 'held',
              tied: r.headline.tied,
              author_before: r.headline.authorBefore,
              author_after: r.headline.authorAfter,
            },
          ]
        : [],
    ),
    // The page's own: the table's change column (relative, after / baseline - 1; change_shown its text, points for a share).
    changes: Object.fromEntries(table.rows.map((r) => [r.metric, { baseline: r.baseline, change: r.change, change_shown: r.changeText }])),
    ...(table.seedsChecked
      ? {
          seeds: {
            // "recorded": the counts `npm run experiments` wrote, not a check run here.
            source: table.seedsRecorded ? 'recorded' : 'checked',
            headlines: Object.fromEntries(table.rows.flatMap((r) => (r.seeds ? [[r.metric, { held: r.seeds.held, tied: r.seeds.tied, of: r.seeds.seeds }]] : []))),
          },
        }
      : {}),
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

/**
 * The range check as JSON-ready data, laid out as `reclaim-sim sweep NAME
 * --json` prints it: the seeds, the headlines, and per point the seeds on
 * which each headline held and tied (null where a variant did not report it);
 * `recorded` when it is the table `npm run experiments` wrote.
 */
function rangesData({ headlines, result, recorded }: ExportedRanges) {
  const seeds = Math.max(0, ...result.rows.flatMap((row) => row.tallies.map((t) => t?.seeds ?? 0)));
  return {
    experiment: result.experiment,
    seeds: Array.from({ length: seeds }, (_, i) => i + 1),
    headlines: [...headlines],
    rows: result.rows.map((row) => ({
      point: row.point,
      held: headlines.map((_, i) => row.tallies[i]?.held ?? null),
      tied: headlines.map((_, i) => row.tallies[i]?.tied ?? null),
    })),
    ...(recorded ? { recorded: true } : {}),
  };
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

/** Pages to bytes, as the cgroup files count them (null stays null: unlimited). */
function bytes(pages: number | null | undefined): number | null {
  return pages === null || pages === undefined ? null : pages * PAGE_SIZE;
}

/**
 * One memcg for the JSON exports, keyed as `reclaim-sim run --json` keys its
 * memcgs (path, memory_current in bytes, memory_stat, memory_events), with
 * what the Memcgs view shows besides: whether it is a leaf (pgsteal_cv is
 * taken over the leaves) and its limits and swap, in bytes as the files hold
 * them, null when unlimited. memory_stat has the two counters the view shows.
 */
export function memcgJson(m: MemcgView) {
  return {
    path: m.path,
    leaf: m.leaf,
    memory_current: bytes(m.usage),
    memory_max: bytes(m.max),
    memory_high: bytes(m.high),
    memory_low: bytes(m.low),
    memory_min: bytes(m.min),
    memory_swap_current: bytes(m.swapUsage),
    memory_stat: { pgscan: m.pgscan, pgsteal: m.pgsteal },
    memory_events: { low: m.eventsLow, high: m.eventsHigh, max: m.eventsMax, oom: m.eventsOom, oom_kill: m.eventsOomKill },
  };
}

/**
 * Everything as one JSON document, under the names `reclaim-sim run --json`
 * uses (scenario, seed, variant, params, steps, time_ns, vmstat, memcgs):
 * the run, the counters by /proc/vmstat name (in the kernel's order) and
 * their change since the frame shown before (vmstat_delta), the memcgs and
 * the memory.reclaim writes (with their rounds) as the Memcgs view shows
 * them, the comparison when there is one (as `compare --json`), and the
 * check across the parameter ranges (as `sweep --json`) when one has
 * finished, else the recorded one the page shows, marked `recorded`.
 */
export function exportJson(run: ExportedRun, comparison: ComparisonTable | null, ranges: ExportedRanges | null = null): string {
  const rows = counterRows(run.counters, run.previous?.counters ?? null);
  const document = {
    scenario: runLabel(run.request),
    // A custom scenario's whole document (what `reclaim-sim run FILE.json` reads).
    ...(isCustomRequest(run.request) ? { custom: customDocument(run.request) } : {}),
    seed: run.request.seed,
    ...(run.request.variant !== undefined ? { variant: run.request.variant } : {}),
    params: sortedParams(run.request),
    steps: run.step,
    time_ns: run.timeNs,
    vmstat: Object.fromEntries(rows.map((r) => [r.name, r.value])),
    vmstat_delta: run.previous
      ? { since_step: run.previous.step, values: Object.fromEntries(rows.map((r) => [r.name, r.delta])) }
      : null,
    // What the Memcgs view shows: each memcg's state, and the memory.reclaim writes with their rounds.
    ...(run.memcgs && run.memcgs.length > 0 ? { memcgs: run.memcgs.map(memcgJson) } : {}),
    ...(run.reclaims && run.reclaims.length > 0 ? { memory_reclaim: run.reclaims.map(reclaimJson) } : {}),
    comparison: comparison ? comparisonData(comparison) : null,
    ...(ranges ? { ranges: rangesData(ranges) } : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** One memory.reclaim write as the Memcgs view lists it, in the JSON's snake_case: each round's batch is its nr_to_reclaim. */
function reclaimJson(r: ReclaimView) {
  return {
    memcg: r.memcg,
    requested: r.requested,
    reclaimed: r.reclaimed,
    overreclaim: r.overreclaim,
    ok: r.ok,
    start_ns: r.startNs,
    duration_ns: r.durationNs,
    rounds: r.rounds.map((round) => ({ batch: round.batch, reclaimed: round.reclaimed })),
  };
}

function sortedParams(request: ScenarioRequest): Record<string, number> {
  return Object.fromEntries(paramEntries(request).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
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

/** Compare mode as JSON: the run, each side's variant, steps, vmstat and memcgs (as exportJson writes them), and any comparison table. */
export function compareJson(request: ScenarioRequest, sides: readonly ExportedSide[], comparison: ComparisonTable | null): string {
  const document = {
    scenario: runLabel(request),
    seed: request.seed,
    params: sortedParams(request),
    sides: sides.map((side) => ({
      variant: side.variant,
      steps: side.step,
      vmstat: Object.fromEntries(side.counters.map((c) => [c.name, c.value])),
      ...(side.memcgs && side.memcgs.length > 0 ? { memcgs: side.memcgs.map(memcgJson) } : {}),
    })),
    comparison: comparison ? comparisonData(comparison) : null,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
