// The reclaim-bench workload, run in WebAssembly under Node: prints simulated
// accesses per wall-clock second, to compare with the native figure.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'src', 'engine', 'pkg');
const { default: init, Engine } = await import(path.join(pkg, 'reclaim_core.js'));
await init({ module_or_path: fs.readFileSync(path.join(pkg, 'reclaim_core_bg.wasm')) });

const engine = new Engine({
  name: 'mglru-basic',
  seed: 1,
  params: { memory_max: 65536, file_pages: 262144, anon_pages: 32768, anon_rate: 10000000 },
});
engine.step(200);
const before = engine.accesses();
const t0 = performance.now();
for (let i = 0; i < 300; i++) engine.step(1);
const secs = (performance.now() - t0) / 1000;
const n = engine.accesses() - before;
console.log(`wasm (node ${process.version}): ${(n / secs / 1e6).toFixed(2)} M simulated accesses/s (${n} accesses in ${secs.toFixed(3)} s wall)`);
