// The comparison table's model: an experiment's metrics (rows) for each of
// its variants (columns), the change of `after` against the baseline, and
// for the patch's headline metrics the author's figures and whether our run
// moved the way the patch says. The same numbers `reclaim-sim compare NAME
// --json` prints. DOM-free.
import type { Comparison, ExperimentInfo, HeadlineInfo, ScenarioRequest } from '../../engine/pkg/reclaim_core';
import type { JobState } from '../../engine/useWorkerJob';
import { makeRequest } from '../../scenario/params';
import { sameRun } from '../../scenario/url';

/** The variant whose change against the baseline the table shows. */
export const AFTER = 'after';
/** The baseline of a metric that is not a headline (a headline names its own). */
export const DEFAULT_BASELINE = 'before';

export interface ComparisonColumn {
  variant: string;
  /** What the variant is (from the experiment's list; empty when the engine did not describe it). */
  description: string;
}

export type Verdict = 'held' | 'not-held' | 'unknown';

export interface Headline {
  /** Which way the patch says the metric moves, after against `baseline`. */
  direction: 'lower' | 'higher';
  baseline: string;
  authorBefore: string;
  authorAfter: string;
  /** Whether our after moved that way from our baseline (unknown when a value is missing). */
  verdict: Verdict;
  /** Whether after came out equal to the baseline: no effect either way. */
  tied: boolean;
  /** The verdict in words, with its sign: "✓ lower", "✗ not lower", or "✗ no change" for a tie. */
  verdictText: string;
}

export interface ComparisonRow {
  metric: string;
  /** One value per column (null when that variant did not report the metric). */
  values: (number | null)[];
  /** The variant `change` is against: the headline's baseline, or "before". */
  baseline: string;
  /** (after - baseline) / |baseline| as a fraction; null when it has no meaning (a value missing, baseline 0). */
  change: number | null;
  /** The change as a signed percentage ("+12.3 %", "−100 %", "0 %", "from 0", "—"), or for a share in percentage points ("+19.7 pp"). */
  changeText: string;
  headline: Headline | null;
  /** A headline's count over seeds 1 to 5, once they were checked (else null). */
  seeds: SeedTally | null;
}

export interface ComparisonTable {
  experiment: string;
  seed: number;
  /** The parameters the run used (all of them, effective values), sorted by name. */
  params: [string, number][];
  columns: ComparisonColumn[];
  rows: ComparisonRow[];
  /** Headline rows whose verdict is held / not held. */
  held: number;
  notHeld: number;
  /** Whether the headlines were also checked on seeds 1 to 5 (the rows' `seeds`). */
  seedsChecked: boolean;
  /** Whether that count is the one `npm run experiments` recorded at the defaults, not a check run here. */
  seedsRecorded?: boolean;
}

/** A comparison's parameters as sorted name/value pairs (the bindings hand over a Map; a plain object is accepted too). */
export function comparisonParams(comparison: Pick<Comparison, 'params'>): [string, number][] {
  const params: unknown = comparison.params;
  const entries =
    params instanceof Map
      ? [...(params as Map<string, number>)]
      : params && typeof params === 'object'
        ? Object.entries(params as Record<string, number>)
        : [];
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function direction(headline: HeadlineInfo): 'lower' | 'higher' {
  return headline.direction === 'higher' ? 'higher' : 'lower';
}

/** Whether `after` moved from `baseline` the way the patch says (equal is not a move). */
export function verdictOf(dir: 'lower' | 'higher', after: number | null, baseline: number | null): Verdict {
  if (after === null || baseline === null || !Number.isFinite(after) || !Number.isFinite(baseline)) return 'unknown';
  return (dir === 'lower' ? after < baseline : after > baseline) ? 'held' : 'not-held';
}

/** A verdict in words. A tie (after equal to the baseline) did not hold either, but it is no effect rather than the opposite one. */
export function verdictText(verdict: Verdict, dir: 'lower' | 'higher', tied = false): string {
  switch (verdict) {
    case 'held':
      return `✓ ${dir}`;
    case 'not-held':
      return tied ? '✗ no change' : `✗ not ${dir}`;
    case 'unknown':
      return '? no value';
  }
}

/** (after - baseline) / |baseline|; null when a value is missing or the baseline is 0. */
export function relativeChange(after: number | null, baseline: number | null): number | null {
  if (after === null || baseline === null || !Number.isFinite(after) || !Number.isFinite(baseline)) return null;
  if (baseline === 0) return after === 0 ? 0 : null;
  return (after - baseline) / Math.abs(baseline);
}

const MINUS = '−';
const significant = new Intl.NumberFormat('en-US', { minimumSignificantDigits: 3, maximumSignificantDigits: 3 });
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A fraction as a signed percentage with 3 significant digits: 0.1234 -> "+12.3 %", -1 -> "−100 %", 0 -> "0 %". */
export function formatChange(change: number): string {
  const percent = change * 100;
  if (percent === 0) return '0 %';
  const magnitude = Math.abs(percent);
  const text = magnitude >= 1000 ? grouped.format(magnitude) : significant.format(magnitude);
  // A change too small to show at this precision still has a sign.
  return `${percent > 0 ? '+' : MINUS}${text} %`;
}

/**
 * A share's change in percentage points: it is a percentage already, and
 * 1.3 % -> 21 % reads as "+19.7 pp", where the relative change would be
 * "+1,513 %".
 */
export function formatPointsChange(after: number, baseline: number): string {
  const points = (after - baseline) * 100;
  if (points === 0) return '0 pp';
  return `${points > 0 ? '+' : MINUS}${significant.format(Math.abs(points))} pp`;
}

function changeText(metric: string, change: number | null, after: number | null, baseline: number | null): string {
  if (PERCENT_METRIC.test(metric) && after !== null && baseline !== null && Number.isFinite(after) && Number.isFinite(baseline)) {
    return formatPointsChange(after, baseline);
  }
  if (change !== null) return formatChange(change);
  if (baseline === 0 && after !== null && Number.isFinite(after) && after !== 0) return 'from 0';
  return '—';
}

/**
 * Metrics that are a share of something (a ratio, a coefficient of
 * variation, an efficiency), by the engine's naming: shown as percentages,
 * as the patch authors give them (75 %, 425 %, 98 %). Exports keep the
 * engine's fractions. The CLI decides the same (report.rs is_share);
 * tests/unit/metric-format.test.ts keeps the two in step.
 */
const PERCENT_METRIC = /(_ratio|_cv|_efficiency)$/;
/** Metrics that are times, by the unit their name ends in. */
const TIME_UNIT = /_(us|ms|s)$/;
const TIME_UNITS: Record<string, string> = { us: 'µs', ms: 'ms', s: 's' };
/** Metrics whose names the contract fixes without a unit (docs: experiments.md): the allocation latencies, in ms as the author gives them. */
const NAMED_UNITS: Record<string, string> = { alloc_latency_p95: 'ms', alloc_latency_p99: 'ms' };

/**
 * The unit a metric's value is in: the allocation latencies' (ms), a rate's
 * (IOPS, ops/s, pages/s, reads/s), else the one its name ends in (_us, _ms, _s). The CLI's metric_unit
 * (wasm-core/src/report.rs) answers the same; tests/unit/metric-format.test.ts
 * keeps the two in step.
 */
export function metricUnit(metric: string): string | undefined {
  return NAMED_UNITS[metric] ?? rateUnit(metric) ?? TIME_UNITS[TIME_UNIT.exec(metric)?.[1] ?? ''];
}

/** A rate's unit, as the authors' tables give them: …_iops in IOPS, …ops_per_sec in ops/s, pages/s, reads/s. */
function rateUnit(metric: string): string | undefined {
  if (metric.endsWith('_iops')) return 'IOPS';
  const per = /(ops|pages|reads)_per_sec$/.exec(metric);
  return per ? `${per[1]}/s` : undefined;
}

/**
 * A metric's value as the table shows it: whole numbers in full with
 * thousands separators; fractions (rates, seconds) to 3 significant digits
 * below 1,000 and to the unit above, trailing zeros kept (0.0130, 3.00);
 * a share (PERCENT_METRIC, when the metric is named) as a percentage to 3
 * significant digits, whole or not (98.0 %, 1.30 %, 504 %).
 */
export function formatMetric(value: number | null, metric?: string): string {
  if (value === null) return '—';
  // NaN: the engine's "not defined in this run" (an efficiency with nothing scanned).
  if (Number.isNaN(value)) return 'n/a';
  if (!Number.isFinite(value)) return String(value);
  if (metric !== undefined && PERCENT_METRIC.test(metric)) {
    const percent = value * 100;
    return `${(Math.abs(percent) >= 1000 ? grouped : significant).format(percent).replace('-', MINUS)} %`;
  }
  // A time's unit, as the name gives it, next to the authors' ms figures.
  const unit = metric !== undefined ? metricUnit(metric) : undefined;
  if (unit !== undefined) return `${formatMetric(value)} ${unit}`;
  if (Number.isInteger(value) || Math.abs(value) >= 1000) return grouped.format(value).replace('-', MINUS);
  return significant.format(value).replace('-', MINUS);
}

/**
 * A metric's value unrounded, in the unit the table shows it in (a share as
 * a percentage, a time with its unit), for the cell's tooltip: what the
 * table rounds, not the engine's fraction.
 */
export function exactMetric(value: number, metric: string): string {
  if (!Number.isFinite(value)) return formatMetric(value, metric);
  if (PERCENT_METRIC.test(metric)) return `${String(value * 100).replace('-', MINUS)} %`;
  const unit = metricUnit(metric);
  return `${String(value).replace('-', MINUS)}${unit !== undefined ? ` ${unit}` : ''}`;
}

/** The table for a comparison of this experiment: rows in the engine's order, columns in the variants' order. */
export function comparisonTable(experiment: ExperimentInfo, comparison: Comparison): ComparisonTable {
  const descriptions = new Map(experiment.variants.map((v) => [v.name, v.description]));
  const columns: ComparisonColumn[] = comparison.variants.map((v) => ({
    variant: v.variant,
    description: descriptions.get(v.variant) ?? '',
  }));
  const byVariant = comparison.variants.map((v) => new Map(v.metrics));
  const headlines = new Map(experiment.headlines.map((h) => [h.metric, h]));

  // Metrics in the order the variants report them (the engine's order), each once.
  const metrics: string[] = [];
  const seen = new Set<string>();
  for (const v of comparison.variants) {
    for (const [name] of v.metrics) {
      if (!seen.has(name)) {
        seen.add(name);
        metrics.push(name);
      }
    }
  }
  // A headline no variant reported still gets its row (with dashes), so the author's figures are not lost.
  for (const h of experiment.headlines) {
    if (!seen.has(h.metric)) {
      seen.add(h.metric);
      metrics.push(h.metric);
    }
  }

  const column = (variant: string) => columns.findIndex((c) => c.variant === variant);
  const value = (variant: string, metric: string): number | null => {
    const i = column(variant);
    return i < 0 ? null : (byVariant[i]!.get(metric) ?? null);
  };

  let held = 0;
  let notHeld = 0;
  const rows = metrics.map((metric): ComparisonRow => {
    const info = headlines.get(metric);
    const baseline = info?.baseline || DEFAULT_BASELINE;
    const after = value(AFTER, metric);
    const base = value(baseline, metric);
    const change = relativeChange(after, base);
    let headline: Headline | null = null;
    if (info) {
      const dir = direction(info);
      const verdict = verdictOf(dir, after, base);
      // Equal, or n/a on both sides (reported, but nothing to measure): no effect either way, as the native
      // sweep counts it. A metric a variant does not report is neither.
      const undefinedBoth = after !== null && base !== null && Number.isNaN(after) && Number.isNaN(base);
      const tied = (after !== null && after === base) || undefinedBoth;
      if (verdict === 'held') held++;
      else if (verdict === 'not-held') notHeld++;
      headline = {
        direction: dir,
        baseline,
        authorBefore: info.authorBefore,
        authorAfter: info.authorAfter,
        verdict,
        tied,
        verdictText: verdictText(verdict, dir, tied),
      };
    }
    return {
      metric,
      values: columns.map((c) => value(c.variant, metric)),
      baseline,
      change,
      changeText: changeText(metric, change, after, base),
      headline,
      seeds: null,
    };
  });

  return {
    experiment: comparison.experiment,
    seed: comparison.seed,
    params: comparisonParams(comparison),
    columns,
    rows,
    held,
    notHeld,
    seedsChecked: false,
  };
}

/** The command line that prints the same numbers (parameters that differ from their defaults only). */
export function compareCommand(experiment: ExperimentInfo, seed: number, params: [string, number][]): string {
  const args = paramsOffDefaults(experiment, params).map(([k, v]) => `--param ${k}=${v}`);
  return ['npm run sim -- compare', experiment.name, `--seed ${seed}`, ...args].join(' ');
}

/** The parameters whose value is not the experiment's default for them (or that it does not have). */
export function paramsOffDefaults(experiment: ExperimentInfo, params: readonly [string, number][]): [string, number][] {
  const defaults = new Map(experiment.params.map((p) => [p.name, p.default]));
  return params.filter(([k, v]) => defaults.get(k) !== v);
}

export interface PatchLabel {
  /** The patch file ("002_f511d3b6a19ec428.txt"); empty when the string names none. */
  file: string;
  /** Its subject line ("mm, vmscan: prevent kswapd sleeping prematurely ..."). */
  subject: string;
  /** Author and year ("Mel Gorman, 2017"); empty when not given. */
  byline: string;
}

/** Splits an experiment's `patch` string ("FILE.txt: subject (Author, year)") for display; never loses text. */
export function patchLabel(patch: string): PatchLabel {
  const match = /^(\S+\.txt):\s*(.*)$/.exec(patch.trim());
  const file = match ? match[1]! : '';
  let subject = match ? match[2]! : patch.trim();
  let byline = '';
  const by = /^(.*\S)\s*\(([^()]*)\)$/.exec(subject);
  if (by) {
    subject = by[1]!;
    byline = by[2]!;
  }
  return { file, subject, byline };
}

/** On how many of several seeds a headline held, and on how many it tied. */
export interface SeedTally {
  held: number;
  tied: number;
  seeds: number;
}

/** Each headline's tally over the comparisons of several seeds (what docs/experiments.md's "held for seeds 1-5" counts). */
export function seedTally(experiment: ExperimentInfo, results: Comparison[]): Map<string, SeedTally> {
  const out = new Map<string, SeedTally>();
  for (const result of results) {
    for (const row of comparisonTable(experiment, result).rows) {
      if (!row.headline) continue;
      const t = out.get(row.metric) ?? { held: 0, tied: 0, seeds: 0 };
      t.seeds++;
      if (row.headline.verdict === 'held') t.held++;
      else if (row.headline.tied) t.tied++;
      out.set(row.metric, t);
    }
  }
  return out;
}

/** Whether a check over seeds 1 to 5 was asked for `run`'s experiment and parameters (its seed does not matter). */
export function isCheckOf(check: JobState<Comparison[]> | undefined, run: ScenarioRequest): boolean {
  return check?.request != null && sameRun(check.request, run, { variant: true, seed: true });
}

/** The run a table is of (the experiment, its seed and parameters). */
export function tableRequest(table: ComparisonTable) {
  return makeRequest(table.experiment, table.seed, Object.fromEntries(table.params));
}

/**
 * The table with each headline's count over seeds 1 to 5, when `check` is a
 * finished check of the same parameters (the seed does not matter); else the
 * table as it is.
 */
export function withSeedCheck(experiment: ExperimentInfo, table: ComparisonTable, check: JobState<Comparison[]> | undefined): ComparisonTable {
  if (check?.status !== 'done' || !check.result || !isCheckOf(check, tableRequest(table))) return table;
  return withSeedTallies(table, seedTally(experiment, check.result));
}

/** The table with each headline row's count over seeds 1 to 5 (`recorded`: the one `npm run experiments` recorded). */
export function withSeedTallies(table: ComparisonTable, tally: ReadonlyMap<string, SeedTally | null>, recorded = false): ComparisonTable {
  return {
    ...table,
    seedsChecked: true,
    ...(recorded ? { seedsRecorded: true } : {}),
    rows: table.rows.map((r) => ({ ...r, seeds: r.headline ? (tally.get(r.metric) ?? null) : null })),
  };
}

/** A tally as the sweep tables write it: "5/5", "3/5", or "0/5 (5 tied)". */
export function formatTally({ held, tied, seeds }: SeedTally): string {
  return held < seeds && tied > 0 ? `${held}/${seeds} (${tied} tied)` : `${held}/${seeds}`;
}

/** An experiment's "Where it does not hold, and why", a paragraph an entry (its blank lines). */
export function limitsParagraphs(limits: string): string[] {
  return limits.split(/\n\n+/).filter((p) => p.trim() !== '');
}

/**
 * The paragraph of `paragraphs` that first names `metric` as a word (not
 * inside a longer name: pswpout is not in pswpout_rate), where a headline's
 * "why?" leads; 0, the section's first, when none names it.
 */
export function whyParagraph(paragraphs: readonly string[], metric: string): number {
  const word = new RegExp(`(^|[^A-Za-z0-9_])${metric.replace(/[^A-Za-z0-9_]/g, '\\$&')}($|[^A-Za-z0-9_])`);
  const i = paragraphs.findIndex((p) => word.test(p));
  return i < 0 ? 0 : i;
}
