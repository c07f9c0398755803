// The trace page's replay against the real engine (the wasm build the
// browser runs): chunked streams give the native CLI's figures exactly,
// bad traces reject with the line or offset, cancelling stops; and the
// page's pure model (cache size field, miss-ratio series, table).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { TraceReplay } from '../../web/src/engine/pkg/reclaim_core';
import type { Policy, ReplayOptions, Sample } from '../../web/src/engine/pkg/reclaim_core';
import { replayChunks } from '../../web/src/trace/replay';
import { missRatioSeries, parseCachePages, POLICIES, resultRows } from '../../web/src/trace/model';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);
const SIM = fileURLToPath(new URL('../../wasm-core/target/release/reclaim-sim', import.meta.url));
const DATA = (name: string) => fileURLToPath(new URL(`../../wasm-core/tests/data/${name}`, import.meta.url));
const ALL: Policy[] = POLICIES.map((p) => p.policy);

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
});

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const options = (name: string, cachePages: number, policies: Policy[] = ALL): ReplayOptions => ({ policies, cachePages, name });

describe('trace replay in wasm', () => {
  it('gives the native CLI its figures, for the bundled traces in any chunking', async () => {
    if (!existsSync(SIM)) throw new Error(`${SIM} is missing: run \`node scripts/rl.mjs test\` (it builds the release binary first)`);
    for (const name of ['small.csv', 'small.oracleGeneral.bin.zst']) {
      const native = JSON.parse(execFileSync(SIM, ['replay', DATA(name), '--cache-pages', '40', '--policy', 'all', '--json'], { encoding: 'utf8' })) as {
        results: { policy: Policy; misses: number; missRatio: number; counters: Record<string, number> }[];
      };
      const bytes = new Uint8Array(readFileSync(DATA(name)));
      for (const size of [7, 1000, 1 << 20]) {
        const report = await replayChunks({ TraceReplay }, chunksOf(bytes, size), options(name, 40));
        expect(report).not.toBeNull();
        expect(report!.results.map((r) => r.policy)).toEqual(ALL);
        for (const [i, r] of report!.results.entries()) {
          const n = native.results[i]!;
          expect(r.misses).toBe(n.misses);
          expect(r.missRatio).toBe(n.missRatio);
          expect(r.counters).toEqual(n.counters);
          expect(r.samples?.at(-1)).toEqual({ accesses: 600, misses: r.misses });
        }
      }
    }
  });

  it('rejects a malformed trace with the line or byte offset, and a later replay works', async () => {
    const bad = new TextEncoder().encode('time,obj_id\n0,1\n0,2\n0,three\n');
    await expect(replayChunks({ TraceReplay }, chunksOf(bad, 5), options('bad.csv', 8))).rejects.toThrow('line 4: obj_id "three" is not a whole number');
    const cut = new Uint8Array(24 * 3 + 5);
    cut.fill(1);
    await expect(replayChunks({ TraceReplay }, chunksOf(cut, 10), options('cut.oracleGeneral.bin', 8, ['lru']))).rejects.toThrow(
      'byte offset 72: truncated record',
    );
    await expect(replayChunks({ TraceReplay }, chunksOf(bad, 5), { policies: [], cachePages: 8 })).rejects.toThrow('no policy chosen');
    const ok = await replayChunks({ TraceReplay }, chunksOf(new TextEncoder().encode('1\n2\n1\n'), 2), options('ok.txt', 8, ['lru']));
    expect(ok!.results[0]).toMatchObject({ accesses: 3, misses: 2 });
  });

  it('reports progress on the way and stops when cancelled', async () => {
    const bytes = new Uint8Array(readFileSync(DATA('small.csv')));
    const seen: number[] = [];
    await replayChunks({ TraceReplay }, chunksOf(bytes, 500), options('small.csv', 40, ['mglru']), {
      progressMs: 0,
      onProgress: (p, read) => seen.push(p.trace.requests, read),
    });
    expect(seen.length).toBeGreaterThan(4);
    let chunks = 0;
    const stopped = await replayChunks({ TraceReplay }, chunksOf(bytes, 500), options('small.csv', 40), { cancelled: () => ++chunks > 3 });
    expect(stopped).toBeNull();
  });
});

describe('trace page model', () => {
  it('reads the cache size field', () => {
    expect(parseCachePages('262144')).toEqual({ pages: 262144 });
    expect(parseCachePages(' 1,024 ')).toEqual({ pages: 1024 });
    expect(parseCachePages('0')).toHaveProperty('error');
    expect(parseCachePages('99999999')).toHaveProperty('error');
    expect(parseCachePages('1.5')).toEqual({ error: '"1.5" is not a whole number of pages' });
    expect(parseCachePages('  ')).toEqual({ error: 'enter a cache size: a whole number of pages from 1 to 4,194,304' });
    expect(parseCachePages('')).toHaveProperty('error');
  });

  it('turns samples into interval and cumulative miss ratios', () => {
    const samples: Sample[] = [
      { accesses: 100, misses: 100 },
      { accesses: 200, misses: 120 },
      { accesses: 400, misses: 140 },
    ];
    expect(missRatioSeries(samples, 'interval', 100)).toEqual([
      { x: 100, y: 1 },
      { x: 200, y: 0.2 },
      { x: 400, y: 0.1 },
    ]);
    expect(missRatioSeries(samples, 'cumulative')).toEqual([
      { x: 100, y: 1 },
      { x: 200, y: 0.6 },
      { x: 400, y: 0.35 },
    ]);
    expect(missRatioSeries([], 'interval')).toEqual([]);
    // More samples than intervals: joined, each interval's own ratio.
    const many: Sample[] = Array.from({ length: 1000 }, (_, i) => ({ accesses: (i + 1) * 10, misses: (i + 1) * (i < 500 ? 5 : 1) + (i < 500 ? 0 : 2000) }));
    const joined = missRatioSeries(many, 'interval', 100);
    expect(joined).toHaveLength(100);
    expect(joined[0]).toEqual({ x: 100, y: 0.5 });
    expect(joined[99]).toEqual({ x: 10000, y: 0.1 });
  });

  it('marks the lowest miss ratio in the table', async () => {
    const bytes = new Uint8Array(readFileSync(DATA('small.csv')));
    const report = await replayChunks({ TraceReplay }, chunksOf(bytes, 4096), options('small.csv', 40));
    const rows = resultRows(report!.results);
    expect(rows.map((r) => r.label)).toEqual(['MGLRU', 'classic LRU', 'exact LRU', 'CLOCK', 'S3-FIFO']);
    const best = Math.min(...report!.results.map((r) => r.missRatio));
    expect(rows.filter((r) => r.best).map((r) => r.policy)).toEqual(report!.results.filter((r) => r.missRatio === best).map((r) => r.policy));
    expect(rows.filter((r) => r.best).length).toBeLessThan(rows.length);
    expect(rows[0]!.missRatio).toMatch(/^0\.\d{4}$/);
    // A cache larger than the trace: every policy misses only the cold misses, and none is marked.
    const all = await replayChunks({ TraceReplay }, chunksOf(bytes, 4096), options('small.csv', 1_000_000));
    const tied = resultRows(all!.results);
    expect(new Set(tied.map((r) => r.missRatio)).size).toBe(1);
    expect(tied.filter((r) => r.best)).toEqual([]);
  });
});
