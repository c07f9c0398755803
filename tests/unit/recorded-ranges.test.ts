// The range tables the app shows before a check is run
// (web/src/views/comparison/recorded-ranges.json) are the ones
// docs/experiments.md prints: `npm run experiments` writes both from one run
// of `reclaim-sim experiments-doc`, and this catches one without the other.
// (wasm-core/tests/recorded_ranges.rs checks them against the engine's
// points and headlines.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import recorded from '../../web/src/views/comparison/recorded-ranges.json';

const ROOT = path.resolve(__dirname, '..', '..');
const doc = readFileSync(path.join(ROOT, 'docs', 'experiments.md'), 'utf8');

/** An experiment's "Across the parameter ranges" table in docs/experiments.md: its header cells and its rows' cells. */
function docTable(name: string): string[][] {
  const section = doc.split(/^## /m).find((s) => s.startsWith(`${name}\n`));
  if (!section) throw new Error(`docs/experiments.md has no section ${name}`);
  const lines = section.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| parameter point |'));
  if (start < 0) throw new Error(`${name}: no range table`);
  const rows: string[][] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('|')) break;
    if (line.startsWith('|---')) continue;
    rows.push(line.split('|').slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}

/** A cell as docs/experiments.md writes it (crate::sweep::markdown). */
function cell(held: number, tied: number, seeds: number): string {
  if (held === seeds) return `${held}/${seeds}`;
  return tied > 0 ? `**${held}/${seeds}** (${tied} tied)` : `**${held}/${seeds}**`;
}

describe('recorded range tables', () => {
  it('has a sweep of every experiment in docs/experiments.md, on seeds 1 to 5', () => {
    const names = [...doc.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);
    expect(recorded.sweeps.map((s) => s.experiment)).toEqual(names);
    for (const s of recorded.sweeps) expect(s.seeds).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts the work of every point, which the range check weighs its estimate of the time left by', () => {
    for (const s of recorded.sweeps) for (const r of s.rows) expect(r.work, `${s.experiment} ${r.point}`).toBeGreaterThan(0);
  });

  for (const sweep of recorded.sweeps) {
    it(`${sweep.experiment}: the same table as docs/experiments.md`, () => {
      const [header, ...rows] = docTable(sweep.experiment);
      expect(header).toEqual(['parameter point', ...sweep.headlines]);
      expect(rows).toEqual(sweep.rows.map((r) => [r.point, ...r.held.map((h, i) => cell(h, r.tied[i]!, sweep.seeds.length))]));
    });
  }
});
