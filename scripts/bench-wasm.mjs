// The reclaim-bench workloads, run in WebAssembly under Node: prints
// simulated accesses per wall-clock second, to compare with the native figures.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'src', 'engine', 'pkg');
const { default: init, Engine } = await import(path.join(pkg, 'reclaim_core.js'));
await init({ module_or_path: fs.readFileSync(path.join(pkg, 'reclaim_core_bg.wasm')) });

// Keep in step with wasm-core/src/bin/reclaim-bench.rs.
const workloads = [
  ['hit-heavy: zipf reads + kv heap', { memory_max: 65536, file_pages: 262144, anon_pages: 32768, anon_rate: 10000000 }, 200, 300],
  ['miss-heavy: near-uniform reads, 4x memory, swapping kv heap',
    { memory_max: 16384, file_pages: 65536, anon_pages: 16384, zipf_s: 0.1, anon_rate: 2000000 }, 300, 1000],
];
// Each workload twice: the engine alone (moveTo: steps without building a
// frame, as reclaim-bench's loop steps the simulation), and stepping one step
// at a time with the frame each step returns to JavaScript (as the app plays).
for (const [label, params, warmup, measured] of workloads) {
  for (const [how, advance] of [
    ['engine', (engine) => engine.moveTo(warmup + measured)],
    ['a frame a step', (engine) => { for (let i = 0; i < measured; i++) engine.step(1); }],
  ]) {
    const engine = new Engine({ name: 'mglru-basic', seed: 1, params: new Map(Object.entries(params)) });
    engine.step(warmup);
    const before = engine.accesses();
    const t0 = performance.now();
    advance(engine);
    const secs = (performance.now() - t0) / 1000;
    const n = engine.accesses() - before;
    console.log(`wasm [${label}, ${how}] (node ${process.version}): ${(n / secs / 1e6).toFixed(2)} M simulated accesses/s (${n} accesses in ${secs.toFixed(3)} s wall)`);
    engine.free();
  }
}

// Trace replay (docs/trace-replay.md): the 20M-request zipf trace of
// reclaim-bench, written by the native `reclaim-sim gen-trace` and streamed
// from disk into the wasm TraceReplay, one policy at a time.
const { TraceReplay } = await import(path.join(pkg, 'reclaim_core.js'));
const sim = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'wasm-core', 'target', 'release', 'reclaim-sim');
if (!fs.existsSync(sim)) {
  console.log('wasm [trace replay]: skipped (build wasm-core/target/release/reclaim-sim first: it writes the trace)');
} else {
  const { execFileSync } = await import('node:child_process');
  const os = await import('node:os');
  const file = path.join(os.tmpdir(), `reclaim-bench-${process.pid}.oracleGeneral.bin`);
  execFileSync(sim, ['gen-trace', file, '--requests', '20000000', '--pages', '1000000', '--zipf', '1.0', '--seed', '1']);
  try {
    for (const policy of ['mglru', 'classic', 'lru', 'clock', 's3fifo']) {
      const replay = new TraceReplay({ policies: [policy], cachePages: 262144, name: file });
      const t0 = performance.now();
      for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) replay.push(chunk);
      const report = replay.finish();
      const secs = (performance.now() - t0) / 1000;
      const r = report.results[0];
      console.log(`wasm [trace replay, ${policy}] (node ${process.version}): ${(r.accesses / secs / 1e6).toFixed(2)} M accesses/s (miss ratio ${r.missRatio.toFixed(4)}, in ${secs.toFixed(3)} s wall)`);
      replay.free();
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
}
