#!/usr/bin/env node
// Reclaim Lab task runner: the one place that knows how to set up a machine,
// build the engine and run the app, the CLI and the tests.
//
//   node scripts/rl.mjs setup            install whatever is missing (idempotent, quick when present)
//   node scripts/rl.mjs start            setup, build the engine (wasm), serve the app on localhost
//   node scripts/rl.mjs test             setup, Rust tests, Vitest, browser tests in headless Chromium
//   node scripts/rl.mjs wasm             setup, build the engine to WebAssembly only
//   node scripts/rl.mjs build            setup, static site in dist/
//   node scripts/rl.mjs sim -- ARGS      native `reclaim-sim ARGS` (release build)
//   node scripts/rl.mjs bench [-- --quick | -- NAME...]
//                                        benchmarks that print figures: native, wasm under Node, and the
//                                        range check natively and in headless Chromium (not with --quick;
//                                        NAME... limits it to those experiments)
//   node scripts/rl.mjs experiments      regenerate docs/experiments.md and the app's recorded range tables (all experiments, seeds 1-5)
//
// Only Node built-ins are used here: this script runs before node_modules exists.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORE = path.join(ROOT, 'wasm-core');
const PKG_OUT = path.join(ROOT, 'web', 'src', 'engine', 'pkg');
const CHROMIUM = '/usr/bin/chromium';
const WASM_TARGET = 'wasm32-unknown-unknown';

// cargo-installed tools and node_modules/.bin must be on PATH for every child.
const cargoBin = path.join(process.env.CARGO_HOME || path.join(homedir(), '.cargo'), 'bin');
process.env.PATH = [path.join(ROOT, 'node_modules', '.bin'), cargoBin, process.env.PATH].join(path.delimiter);

function log(msg) {
  process.stderr.write(`[reclaim-lab] ${msg}\n`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    const err = new Error(`${cmd} ${args.join(' ')} exited with status ${r.status}`);
    err.exitCode = r.status ?? 1;
    throw err;
  }
}

function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: ROOT, ...opts });
  if (r.error || r.status !== 0) return null;
  return (r.stdout || '') + (r.stderr || '');
}

/** The exact wasm-bindgen version pinned in Cargo.lock (wasm-bindgen-cli must match it). */
function lockedWasmBindgenVersion() {
  const lock = readFileSync(path.join(CORE, 'Cargo.lock'), 'utf8');
  const m = lock.match(/\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!m) throw new Error('wasm-core/Cargo.lock does not pin wasm-bindgen');
  return m[1];
}

function ensureRustTarget() {
  const installed = capture('rustup', ['target', 'list', '--installed']);
  if (installed === null) throw new Error('rustup is not on PATH: install Rust with rustup first');
  if (!installed.split('\n').includes(WASM_TARGET)) {
    log(`adding Rust target ${WASM_TARGET}`);
    run('rustup', ['target', 'add', WASM_TARGET]);
  }
}

function ensureCargoTool(bin, crate, version) {
  const out = capture(bin, ['--version']);
  const have = out && out.trim().split(/\s+/)[1];
  if (have && (!version || have === version)) return;
  log(`installing ${crate}${version ? ' ' + version : ''} from crates.io (a few minutes, once)`);
  const args = ['install', crate];
  if (version) args.push('--version', version, '--force');
  try {
    run('cargo', [...args, '--locked']);
  } catch (e) {
    // A crate's published lock file can name a dependency version that the
    // registry no longer serves (yanked); then let cargo resolve afresh.
    log(`${crate}: install with its lock file failed (${e.message}); retrying without --locked`);
    run('cargo', args);
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function ensureNpmPackages() {
  const modules = path.join(ROOT, 'node_modules');
  const marker = path.join(modules, '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  // A node_modules that links to another checkout's (a git worktree sharing
  // one install) is that checkout's to update: `npm ci` here would empty it.
  if (existsSync(marker) && lstatSync(modules).isSymbolicLink()) {
    log('node_modules links to another checkout; not reinstalling it (run `npm ci` there if its lock file changed)');
    return;
  }
  log('installing npm packages from package-lock.json');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  log("installing Debian's chromium for the browser tests");
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args], { env }) : run('apt-get', args, { env }));
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', 'chromium', 'fonts-dejavu-core']);
}

function setup({ browser }) {
  ensureRustTarget();
  ensureCargoTool('wasm-pack', 'wasm-pack');
  ensureCargoTool('wasm-bindgen', 'wasm-bindgen-cli', lockedWasmBindgenVersion());
  ensureNpmPackages();
  if (browser) ensureChromium();
}

/** Builds the engine to WebAssembly (web/src/engine/pkg); skipped when nothing changed. */
async function buildWasm() {
  const stamp = path.join(PKG_OUT, 'reclaim_core_bg.wasm');
  const inputs = Math.max(newestMtime(path.join(CORE, 'src')), statSync(path.join(CORE, 'Cargo.toml')).mtimeMs,
    statSync(path.join(CORE, 'Cargo.lock')).mtimeMs);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= inputs) {
    log('engine (wasm) is up to date');
  } else {
    log('building the engine to WebAssembly (wasm-pack)');
    run('wasm-pack', ['build', CORE, '--release', '--target', 'web', '--out-dir', PKG_OUT, '--out-name', 'reclaim_core',
      '--no-pack'], {
      env: {
        ...process.env,
        WASM_PACK_CACHE: path.join(ROOT, 'node_modules', '.wasm-pack-cache'),
        // Optimised for size in the browser (the native build keeps opt-level 3): 11 KB
        // less gzipped wasm, and no slower (reclaim-sim compare times within 3 % natively
        // at opt-level "s"); the numbers are the same, Rust does no fast-math.
        CARGO_PROFILE_RELEASE_OPT_LEVEL: 's',
      },
    });
  }
  await writeDefaultKnobs(stamp);
}

/**
 * Writes the engine's default switches (defaultKnobs(), i.e. Knobs::default())
 * to pkg/default-knobs.json, where the scenario editor reads them, and its
 * constants (engineConstants()) to pkg/engine-constants.json, where the UI
 * reads them: generated from the engine, like the types, never copied by hand.
 */
async function writeDefaultKnobs(wasm) {
  const outputs = [
    ['default-knobs.json', 'defaultKnobs', 'default switches'],
    ['engine-constants.json', 'engineConstants', 'constants (limits, memcg LRU shape, zone names, run kinds)'],
  ];
  const stale = outputs.filter(([file]) => {
    const out = path.join(PKG_OUT, file);
    return !existsSync(out) || statSync(out).mtimeMs < statSync(wasm).mtimeMs;
  });
  if (stale.length === 0) return;
  const pkg = await import(pathToFileURL(path.join(PKG_OUT, 'reclaim_core.js')).href);
  pkg.initSync({ module: readFileSync(wasm) });
  for (const [file, fn, what] of stale) {
    writeFileSync(path.join(PKG_OUT, file), `${JSON.stringify(pkg[fn](), null, 2)}\n`);
    log(`wrote the engine's ${what} to web/src/engine/pkg/${file}`);
  }
}

function cargo(args) {
  run('cargo', args, { cwd: CORE });
}

async function serve() {
  const port = process.env.PORT || '5173';
  log('starting the dev server');
  const child = spawn('vite', ['--port', port, '--strictPort', '--host', '127.0.0.1'], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
  process.stdout.write(`\nReclaim Lab is at http://127.0.0.1:${port}/  (Ctrl-C to stop)\n\n`);
}

async function main() {
  const [cmd, ...rest] = process.argv.slice(2);
  const args = rest[0] === '--' ? rest.slice(1) : rest;
  switch (cmd) {
    case 'setup':
      setup({ browser: true });
      break;
    case 'start':
      setup({ browser: false });
      await buildWasm();
      await serve();
      break;
    case 'wasm':
      setup({ browser: false });
      await buildWasm();
      break;
    case 'build':
      setup({ browser: false });
      await buildWasm();
      run('vite', ['build']);
      break;
    case 'sim': {
      setup({ browser: false });
      cargo(['build', '--release', '--quiet', '--bin', 'reclaim-sim']);
      // reclaim-sim's streams and exit status as they are: its usage errors are one line on stderr and status 2.
      const r = spawnSync(path.join(CORE, 'target', 'release', 'reclaim-sim'), args, { stdio: 'inherit', cwd: ROOT });
      if (r.error) throw new Error(`reclaim-sim: ${r.error.message}`);
      process.exit(r.status ?? 1);
    }
    case 'experiments': {
      setup({ browser: false });
      cargo(['build', '--release', '--quiet', '--bin', 'reclaim-sim']);
      const recorded = path.join(ROOT, 'web', 'src', 'views', 'comparison', 'recorded-ranges.json');
      const out = spawnSync(path.join(CORE, 'target', 'release', 'reclaim-sim'), ['experiments-doc', '--ranges-json', recorded], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      if (out.status !== 0) throw new Error(`reclaim-sim experiments-doc failed: ${out.stderr}`);
      writeFileSync(path.join(ROOT, 'docs', 'experiments.md'), out.stdout);
      log('wrote docs/experiments.md');
      log(`wrote ${path.relative(ROOT, recorded)} (the app's recorded range tables)`);
      // The patch pages (docs/patches) copy their experiment's tables.
      const { syncPatchPages } = await import('./patch-pages.mjs');
      for (const page of syncPatchPages(ROOT)) log(`updated ${page}`);
      break;
    }
    case 'bench': {
      // --quick: the engine benchmarks only, without the range check in the browser (about 10 minutes).
      const quick = args.includes('--quick');
      setup({ browser: !quick });
      await buildWasm();
      cargo(['run', '--release', '--quiet', '--bin', 'reclaim-bench']);
      run('node', [path.join(ROOT, 'scripts', 'bench-wasm.mjs')]);
      if (!quick) {
        log('the range check, natively and in headless Chromium (scripts/bench-ranges.mjs)');
        cargo(['build', '--release', '--quiet', '--bin', 'reclaim-sim']);
        run('vite', ['build', '--logLevel', 'warn']);
        run('node', [path.join(ROOT, 'scripts', 'bench-ranges.mjs'), ...args.filter((a) => a !== '--quick')]);
      }
      break;
    }
    case 'test': {
      const t0 = Date.now();
      setup({ browser: true });
      log('Rust unit and integration tests');
      cargo(['test']);
      await buildWasm();
      log('TypeScript type check');
      run('tsc', ['-p', '.', '--noEmit']);
      log('native reclaim-sim (release) for the native/wasm comparison');
      cargo(['build', '--release', '--quiet', '--bin', 'reclaim-sim']);
      log('Vitest unit tests');
      run('vitest', ['run', '--config', 'vitest.config.ts']);
      log('static build for the browser tests');
      run('vite', ['build', '--logLevel', 'warn']);
      log('browser tests (headless Chromium)');
      run('vitest', ['run', '--config', 'tests/e2e/vitest.e2e.config.ts']);
      log(`all test suites passed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      break;
    }
    default:
      process.stderr.write('usage: node scripts/rl.mjs setup|start|test|build|sim|bench [-- ARGS]\n');
      process.exit(2);
  }
}

main().catch((e) => {
  log(e.message);
  process.exit(e.exitCode || 1);
});
