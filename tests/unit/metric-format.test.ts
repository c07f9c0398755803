// The CLI (wasm-core/src/report.rs) and the app (views/comparison/model.ts)
// each format metrics: which are shares, shown as percentages with changes
// in percentage points (Rust's is_share, TS's PERCENT_METRIC), which have a
// unit (metric_unit, metricUnit), and the digits (fmt_metric, formatMetric).
// This keeps the two in step: every metric of every experiment reads the
// same in both, and its change in points in both or in neither.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Comparison, ExperimentInfo } from '../../web/src/engine/pkg/reclaim_core';
import { comparisonTable, formatMetric } from '../../web/src/views/comparison/model';

const SIM = fileURLToPath(new URL('../../wasm-core/target/release/reclaim-sim', import.meta.url));

// Small points: the metric names do not depend on the parameters.
const RUNS: [string, string[]][] = [
  ['memcg-lru-fairness', ['memcgs=2', 'writes=5']],
  ['multi-memcg-kswapd', ['seconds=2']],
  ['proactive-reclaim-batching', ['children=2']],
  ['kswapd-classzone', ['bursts=2']],
  ['refault-distance-mglru', ['seconds=2']],
];

/** The CLI table's cells: metric (26 wide), a column per variant (21 wide each), then the change; the table ends at its "change:" note. */
function cliRows(text: string, variants: number): Map<string, { values: string[]; change: string }> {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('metric '));
  const rows = new Map<string, { values: string[]; change: string }>();
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.startsWith('change: ')) break;
    const values = Array.from({ length: variants }, (_, i) => line.slice(26 + 21 * i, 26 + 21 * (i + 1)).trim());
    rows.set(line.slice(0, 26).trim(), { values, change: line.slice(26 + 21 * variants).trim() });
  }
  return rows;
}

describe('shares read the same in the CLI and the app', () => {
  if (!existsSync(SIM)) throw new Error(`${SIM} is missing: \`npm test\` builds it first`);
  for (const [name, params] of RUNS) {
    it(name, () => {
      const args = ['compare', name, '--seed', '1', ...params.flatMap((p) => ['--param', p])];
      const json = JSON.parse(execFileSync(SIM, [...args, '--json'], { encoding: 'utf8' })) as {
        variants: Record<string, { metrics: Record<string, number | null> }>;
      };
      const variants = Object.keys(json.variants);
      const cli = cliRows(execFileSync(SIM, args, { encoding: 'utf8' }), variants.length);
      const metrics = Object.keys(json.variants[variants[0]!]!.metrics);
      expect([...cli.keys()]).toEqual(metrics);
      // The app's table of the same comparison, for its change column.
      const comparison = {
        experiment: name,
        params: new Map(),
        seed: 1,
        variants: variants.map((v) => ({ variant: v, metrics: metrics.map((m) => [m, json.variants[v]!.metrics[m] ?? Number.NaN]) })),
      } as unknown as Comparison;
      const experiment = { name, title: '', patch: '', description: '', limits: '', params: [], variants: variants.map((v) => ({ name: v, description: '' })), headlines: [], ranges: [] } as unknown as ExperimentInfo;
      const app = comparisonTable(experiment, comparison);
      for (const metric of metrics) {
        const value = json.variants[variants[0]!]!.metrics[metric] ?? Number.NaN;
        const row = cli.get(metric)!;
        const shown = formatMetric(value, metric);
        if (!Number.isNaN(value)) {
          expect(row.values[0]!.endsWith(' %'), `${metric}: CLI ${row.values[0]}, app ${shown}`).toBe(shown.endsWith(' %'));
          // The same unit after the number (ms, s, µs), or none in both.
          const unitOf = (text: string) => /^[−\-\d.,]+ (\S+)$/.exec(text)?.[1] ?? null;
          expect(unitOf(row.values[0]!), `${metric}: CLI ${row.values[0]}, app ${shown}`).toBe(unitOf(shown));
          // And the same digits (the CLI writes its minus in ASCII).
          expect(row.values[0]!.replace('-', '−'), `${metric}: CLI ${row.values[0]}, app ${shown}`).toBe(shown);
        }
        const appChange = app.rows.find((r) => r.metric === metric)!.changeText;
        if (row.change !== '-' && appChange !== '—') expect(row.change.endsWith(' pp'), `${metric}: CLI ${row.change}, app ${appChange}`).toBe(appChange.endsWith(' pp'));
      }
    });
  }
});
