// The result tables of the patch pages (docs/patches/*.md) are copies of
// their experiment's section of docs/experiments.md (which
// `npm run experiments` generates): everything from its "Defaults:" line to
// the end of the section, between the markers
//
//   <!-- results: EXPERIMENT (copied from docs/experiments.md by npm run experiments) -->
//   ...
//   <!-- /results -->
//
// `npm run experiments` refreshes them after writing docs/experiments.md;
// `node scripts/patch-pages.mjs` does it alone, `--check` only says whether
// they are current (exit status 1 if not). tests/unit/patch-pages.test.ts
// checks that they are. Only Node built-ins.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BLOCK = /(<!-- results: ([a-z0-9-]+)[^>]*-->\n)([\s\S]*?)(<!-- \/results -->)/g;

/** The part of `name`'s section of docs/experiments.md the pages copy: from "Defaults:" to the next section. */
export function resultsOf(experimentsDoc, name) {
  const start = experimentsDoc.indexOf(`\n## ${name}\n`);
  if (start < 0) throw new Error(`docs/experiments.md has no section "## ${name}"`);
  const end = experimentsDoc.indexOf('\n## ', start + 1);
  const section = experimentsDoc.slice(start + 1, end < 0 ? undefined : end);
  const defaults = section.indexOf('\nDefaults:');
  if (defaults < 0) throw new Error(`the ${name} section of docs/experiments.md has no "Defaults:" line`);
  return `${section.slice(defaults + 1).trim()}\n`;
}

/** A page with its result blocks replaced by the current copies. */
export function refreshPage(page, experimentsDoc) {
  return page.replace(BLOCK, (_, open, name, _old, close) => `${open}${resultsOf(experimentsDoc, name)}${close}`);
}

/** The experiments a page copies results of. */
export function blocksOf(page) {
  return [...page.matchAll(BLOCK)].map((m) => m[2]);
}

/** Refreshes every page under docs/patches (or only checks, with `check`); returns the pages that were (or would be) changed. */
export function syncPatchPages(root, { check = false } = {}) {
  const doc = readFileSync(path.join(root, 'docs', 'experiments.md'), 'utf8');
  const dir = path.join(root, 'docs', 'patches');
  const changed = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md')).sort()) {
    const full = path.join(dir, file);
    const page = readFileSync(full, 'utf8');
    const fresh = refreshPage(page, doc);
    if (fresh !== page) {
      changed.push(path.relative(root, full));
      if (!check) writeFileSync(full, fresh);
    }
  }
  return changed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const check = process.argv.includes('--check');
  const changed = syncPatchPages(root, { check });
  for (const f of changed) process.stdout.write(`${check ? 'out of date' : 'updated'}: ${f}\n`);
  if (check && changed.length > 0) process.exit(1);
}
