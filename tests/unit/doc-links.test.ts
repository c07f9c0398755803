// Every link into the app in docs/**/*.md and README.md opens what it says:
// it decodes with the app's own URL codecs (scenario/url.ts for the run,
// scenario/pageUrl.ts for the step, tab and tour) without a problem, the
// engine (the wasm build, in Node) accepts its scenario, parameters and
// variant, its step can be reached and its tab is one the page shows for
// that run, and a tour link names a tour of that experiment and one of its
// steps. Also: the patch pages' result tables are the current copies of
// docs/experiments.md (scripts/patch-pages.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, listScenarios, type Frame, type ScenarioList } from '../../web/src/engine/pkg/reclaim_core';
import { decodePageView } from '../../web/src/scenario/pageUrl';
import { paramRecord } from '../../web/src/scenario/params';
import { decodeScenarioUrl } from '../../web/src/scenario/url';
import { ALL_TOURS } from '../../web/src/tours/all';
// @ts-expect-error: a plain Node module without types
import { blocksOf, refreshPage } from '../../scripts/patch-pages.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);
/** Where `npm start` serves the app: the docs' links point there. */
const APP = 'http://127.0.0.1:5173/';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(full);
    return e.name.endsWith('.md') ? [full] : [];
  });
}

const FILES = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))];

interface Link {
  file: string;
  url: string;
}

/** Links to the app: markdown links and bare URLs that start with its address (any port, so a mistyped one is caught too). */
function appLinks(): Link[] {
  const links: Link[] = [];
  for (const file of FILES) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\/[^\s)>\]`'"]*/g)) {
      links.push({ file: path.relative(ROOT, file), url: m[0] });
    }
  }
  return links;
}

let list: ScenarioList;
beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
  list = listScenarios();
});

/** The tabs the page shows for a frame (App.tsx's tabsFor): the comparison for an experiment only. */
function tabsShown(frame: Frame, experiment: boolean): string[] {
  const tabs = experiment ? ['comparison', 'lru'] : ['lru'];
  if (frame.nodes.length > 0) tabs.push('system');
  if (frame.memcgs.length > 0 || frame.nodes.some((n) => n.memcgLru) || frame.reclaims.length > 0) tabs.push('memcgs');
  return tabs;
}

const links = appLinks();

describe('app links in the docs', () => {
  it('there are links to every tour and every experiment', () => {
    const urls = links.map((l) => new URL(l.url).searchParams);
    for (const e of list.experiments.map((x) => x.name)) {
      expect(urls.some((q) => q.get('tour') === e), `a link to the ${e} tour`).toBe(true);
      expect(urls.some((q) => q.get('scenario') === e && q.has('step')), `a link to a step of ${e}`).toBe(true);
    }
  });

  for (const { file, url } of links) {
    it(`${file}: ${url.replace(APP, '')}`, { timeout: 60_000 }, () => {
      if (!url.includes('?')) {
        // The address `npm start` prints: the default scenario.
        expect(url).toBe(APP);
        return;
      }
      expect(url.startsWith(`${APP}?`), `points at ${APP} (npm start)`).toBe(true);
      const search = new URL(url).search;
      const run = decodeScenarioUrl(search, list.defaultScenario);
      expect(run.ok ? [] : run.errors).toEqual([]);
      const page = decodePageView(search);
      expect(page.errors).toEqual([]);
      expect(new URLSearchParams(search).get('scenario'), 'names its scenario').toBe(run.request.name);
      // The engine builds the run: the scenario, every parameter and the variant are valid and in range.
      const experiment = list.experiments.find((e) => e.name === run.request.name);
      expect(experiment ?? list.scenarios.find((s) => s.name === run.request.name), 'a scenario or experiment the engine lists').toBeDefined();
      const engine = new Engine({ name: run.request.name, seed: run.request.seed, params: new Map(Object.entries(paramRecord(run.request))), variant: run.request.variant });
      try {
        const frame = page.view.step !== undefined ? engine.seek(page.view.step, page.view.step) : engine.frame();
        expect(frame.step).toBe(page.view.step ?? 0);
        if (page.view.tab) expect(tabsShown(frame, experiment !== undefined), 'a tab the page shows for this run').toContain(page.view.tab);
      } finally {
        engine.free();
      }
      if (page.view.tour !== undefined) {
        const tour = ALL_TOURS.find((t) => t.experiment === page.view.tour);
        expect(tour, `a tour named ${page.view.tour}`).toBeDefined();
        expect(tour!.experiment, 'the tour of the linked experiment').toBe(run.request.name);
        expect(page.view.tourStep ?? 1).toBeLessThanOrEqual(tour!.steps.length);
      }
    });
  }
});

describe('the patch pages', () => {
  const dir = path.join(ROOT, 'docs', 'patches');
  const pages = readdirSync(dir).filter((f) => f.endsWith('.md'));
  const experimentsDoc = readFileSync(path.join(ROOT, 'docs', 'experiments.md'), 'utf8');

  it("docs/experiments.md says what each experiment's metrics measure as the engine does (npm run experiments writes it)", () => {
    for (const e of list.experiments) {
      const line = `Metrics: ${e.metrics.map((m) => `\`${m.name}\`: ${m.help}`).join('; ')}.`;
      expect(experimentsDoc.split('\n'), e.name).toContain(line);
    }
  });

  it('one per experiment, each with its results block', () => {
    const named = pages.flatMap((f) => blocksOf(readFileSync(path.join(dir, f), 'utf8')) as string[]);
    expect(named.sort()).toEqual(['kswapd-classzone', 'memcg-lru-fairness', 'multi-memcg-kswapd', 'proactive-reclaim-batching', 'refault-distance-mglru']);
    expect(pages.sort()).toEqual(named.map((n) => `${n}.md`));
  });

  for (const f of pages) {
    it(`${f}: its result tables are docs/experiments.md's (npm run experiments or node scripts/patch-pages.mjs refreshes them)`, () => {
      const page = readFileSync(path.join(dir, f), 'utf8');
      expect(refreshPage(page, experimentsDoc)).toBe(page);
      expect(page).toMatch(/\| metric \| before \(median\) \| after \(median\)/);
    });
  }
});
