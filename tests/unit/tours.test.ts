// The guided tours (web/src/tours) against the engine the browser runs (the
// wasm build, here in Node): every step is well formed, and at the moment it
// takes the run to — the same variant, step and run to the next event as the
// page asks the worker for — what its text says holds (its `check`), and so
// does every comparison step's claim about the result table.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, compareExperiment, listScenarios, type Comparison, type Frame, type ScenarioList } from '../../web/src/engine/pkg/reclaim_core';
import { RUN_KINDS } from '../../web/src/engine/protocol';
import { SHARE_TABS } from '../../web/src/scenario/share';
import { ANCHORS, TOURS as CATALOG, findTour, loadTour, loadedTour } from '../../web/src/tours';
import { ALL_TOURS as TOURS } from '../../web/src/tours/all';
import { headFirst, markScroll, panelSide, scrollBlock } from '../../web/src/tours/highlight';
import { hasRunEvent, type TourStep } from '../../web/src/tours/types';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);
let list: ScenarioList;

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
  list = listScenarios();
});

/** Sentence ends: a full stop, question or exclamation mark before a space or the end (closing quotes and brackets allowed). */
const sentences = (text: string) => (text.match(/[.!?]["')\]]*(?=\s|$)/g) ?? []).length;
/** A kernel function (`name()`), or an identifier with an underscore as the kernel spells them. */
const KERNEL_NAME = /\b[a-z_][a-z0-9_]*\(\)|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\bmemory\.reclaim\b/;

describe('the tours', () => {
  it('cover every experiment, one tour each', () => {
    expect(CATALOG.map((t) => t.experiment).sort()).toEqual(list.experiments.map((e) => e.name).sort());
    for (const e of list.experiments) expect(findTour(e.name)?.experiment).toBe(e.name);
  });

  it("load their steps on demand: the catalog's tour with its steps file's steps; an unknown name is refused", async () => {
    for (const info of CATALOG) {
      expect(loadedTour(info.experiment)).toBeUndefined();
      const tour = await loadTour(info.experiment);
      expect(tour).toMatchObject(info);
      expect(tour.steps).toBe(TOURS.find((t) => t.experiment === info.experiment)!.steps);
      expect(loadedTour(info.experiment)).toBe(tour);
      expect(await loadTour(info.experiment), 'loaded once').toBe(tour);
    }
    await expect(loadTour('no-such-tour')).rejects.toThrow('there is no tour named "no-such-tour"');
  });

  for (const tour of TOURS) {
    it(`${tour.experiment}: the catalog's first view is the tab of its first step that is not the comparison`, () => {
      expect(tour.firstTab).toBe(tour.steps.find((s) => s.tab !== 'comparison')?.tab);
    });

    it(`${tour.experiment}: 6 to 12 well-formed steps`, () => {
      const experiment = list.experiments.find((e) => e.name === tour.experiment)!;
      expect(tour.steps.length).toBeGreaterThanOrEqual(6);
      expect(tour.steps.length).toBeLessThanOrEqual(12);
      expect(tour.steps[0]!.at, 'the first step says where the run starts').toBeDefined();
      const variants = new Set<string>();
      tour.steps.forEach((step, i) => {
        const where = `step ${i + 1} (${step.title})`;
        expect(step.title.trim(), where).not.toBe('');
        expect(sentences(step.text), `${where}: two or three sentences`).toBeGreaterThanOrEqual(2);
        expect(sentences(step.text), `${where}: two or three sentences`).toBeLessThanOrEqual(3);
        expect(step.text, `${where} names what the kernel does`).toMatch(KERNEL_NAME);
        expect(experiment.variants.map((v) => v.name), where).toContain(step.variant);
        expect(SHARE_TABS as readonly string[], where).toContain(step.tab);
        expect(ANCHORS as readonly string[], where).toContain(step.anchor);
        if (step.at && 'until' in step.at) expect(RUN_KINDS.map((k) => k.kind), where).toContain(step.at.until);
        if (step.compare) {
          expect(step.tab, where).toBe('comparison');
          expect(step.checkComparison, `${where} checks the table it describes`).toBeDefined();
        } else {
          expect(step.check, `${where} checks what it describes`).toBeDefined();
        }
        variants.add(step.variant);
      });
      // The tours switch between before and after where that tells the story.
      expect(variants.has('before') && variants.has('after'), 'the tour shows both before and after').toBe(true);
    });
  }
});

/** One engine per variant of a tour, moved as the page moves its one engine. */
class Walker {
  private engines = new Map<string, Engine>();
  constructor(private readonly experiment: string) {}

  frameAt(step: TourStep): Frame {
    let engine = this.engines.get(step.variant);
    if (!engine) {
      engine = new Engine({ name: this.experiment, seed: 1, params: new Map(), variant: step.variant });
      this.engines.set(step.variant, engine);
    }
    const at = step.at;
    if (!at) return engine.frame();
    if ('step' in at) return engine.seek(at.step, at.step);
    if (engine.stepCount() !== at.from) engine.seek(at.from, at.from);
    const run = engine.runUntil(at.until, at.maxSteps ?? 10_000);
    expect(run.found, `a ${at.until} event within ${at.maxSteps ?? 10_000} steps of step ${at.from}`).toBe(true);
    const frame = engine.frame();
    // A run stops at the step that has the event; unless the log was full, the event list shows it.
    if (frame.eventsDropped === 0) expect(hasRunEvent(frame, at.until)).toBe(true);
    return frame;
  }

  free(): void {
    for (const e of this.engines.values()) e.free();
    this.engines.clear();
  }
}

for (const tour of TOURS) {
  describe(`tour ${tour.experiment}: every step holds at its moment (seed 1, defaults)`, () => {
    const walker = new Walker(tour.experiment);
    let comparison: Comparison | null = null;
    afterAll(() => walker.free());
    tour.steps.forEach((step, i) => {
      it(`${i + 1}. ${step.title}`, { timeout: 60_000 }, () => {
        if (step.compare) {
          comparison ??= compareExperiment({ name: tour.experiment, seed: 1, params: new Map() });
          expect(step.checkComparison!(comparison)).toBeNull();
          return;
        }
        const frame = walker.frameAt(step);
        expect(frame.scenario).toBe(tour.experiment);
        expect(step.check!(frame)).toBeNull();
      });
    });
  });
}

describe('where the tour panel sits', () => {
  const box = (left: number, right: number, top: number, bottom: number) => ({ left, right, top, bottom });
  it('covers the least of the views, unless the element the step explains is under it', () => {
    // 1280 wide: form | views 300-888 | counters. Right covers 4 px of the views, left 96.
    const main = box(300, 888, 200, 800);
    expect(panelSide(box(310, 880, 300, 500), main, 1280, 800)).toBe('right');
    // The counters are the step's subject and reach into the panel's band: left.
    expect(panelSide(box(904, 1260, 200, 780), main, 1280, 800)).toBe('left');
    // 1024 wide: form | views 300-1004. The left side covers less of the views.
    expect(panelSide(box(310, 1000, 100, 400), box(300, 1004, 100, 2000), 1024, 768)).toBe('left');
    // ... unless the element sits there, low in the window.
    expect(panelSide(box(300, 600, 500, 760), box(300, 1004, 100, 2000), 1024, 768)).toBe('right');
    // Under either side: the side that covers less of the views.
    expect(panelSide(box(300, 1000, 500, 760), box(300, 1004, 100, 2000), 1024, 768)).toBe('left');
  });

  it('keeps clear of the names of the rows the step marks, with its real height', () => {
    // 1280 x 720: the comparison's marked rows span 305-1255; their names (first cells) sit at 305-420,
    // y 330-420, and a 375 px panel reaches up to y 329: on the left it would cover them.
    const main = box(300, 1260, 228, 720);
    const table = box(305, 1255, 228, 700);
    const names = [box(305, 420, 330, 375), box(305, 420, 378, 420)];
    expect(panelSide(table, main, 1280, 720)).toBe('left');
    expect(panelSide(table, main, 1280, 720, names, 375)).toBe('right');
    // A short panel leaves them clear on the left, where it covers less of the views.
    expect(panelSide(table, main, 1280, 720, names, 200)).toBe('left');
    // Names under both sides (a narrow window): back to the rule for the whole element.
    expect(panelSide(table, main, 700, 720, [box(0, 700, 600, 650)], 375)).toBe('left');
    // Views as wide as the window (the comparison's layout): either side covers as much of them, so the side
    // away from the names, even with the names above the panel.
    const wide = box(0, 1280, 228, 720);
    expect(panelSide(table, wide, 1280, 720, [], 200)).toBe('left');
    expect(panelSide(table, wide, 1280, 720, names, 200)).toBe('right');
    // The other rows' names (the text speaks of them too): the side away from their column, even where the
    // marked rows would leave the left side free and the left side covers less of the views.
    const others = [box(305, 420, 430, 470), box(305, 420, 480, 520)];
    expect(panelSide(table, main, 1280, 720, names, 200, others)).toBe('right');
    // Under both sides (a narrow window): no help, the rule for the whole element.
    expect(panelSide(table, main, 700, 720, [], 200, [box(0, 700, 430, 470)])).toBe('left');
  });

  it('centres the marked rows in what the panel leaves free of the views, or puts the first at the top', () => {
    // 1280 x 720: the views scroll in 228-700; a 300 px panel's top is at y 404.
    const main = box(300, 1260, 228, 700);
    const rows = [box(305, 1255, 500, 549), box(305, 1255, 549, 598)];
    const how = markScroll(rows, main, 404);
    // The second row (49 px) and the views' band from 392 (12 px above the panel) down to 700.
    expect(how).toEqual({ block: 'center', marginBottom: 49 + (700 - 392) });
    // Centring the first row grown by that margin in 228-700 centres both rows in 228-392.
    const top = 228 + (700 - 228 - (49 + how.marginBottom)) / 2;
    expect(top - 228).toBeCloseTo(392 - (top + 98), 6);
    // A 375 px panel leaves 89 px (228-317), less than the rows' 98: the first goes to the top.
    expect(markScroll(rows, main, 329)).toEqual({ block: 'start', marginBottom: 0 });
    // A panel below the views leaves them all free; no marks, no margin.
    expect(markScroll(rows, main, 760)).toEqual({ block: 'center', marginBottom: 49 });
    expect(markScroll([], main, 329)).toEqual({ block: 'center', marginBottom: 0 });
  });

  it('brings marked table rows in under their header row when both fit in the views', () => {
    const main = { left: 300, right: 900, top: 228, bottom: 700 };
    const rows = [
      { left: 300, right: 900, top: 900, bottom: 949 },
      { left: 300, right: 900, top: 949, bottom: 998 },
    ];
    // The header 120 px above the first row: header and rows span 218 px of the views' 472 (less the 12 px gap).
    expect(headFirst(rows, { left: 300, right: 900, top: 780, bottom: 810 }, main)).toBe(true);
    // 400 px above: 498 px, more than the views hold: the rows are centred instead.
    expect(headFirst(rows, { left: 300, right: 900, top: 500, bottom: 530 }, main)).toBe(false);
    // No header (not a table), or nothing marked: the rows are centred as before.
    expect(headFirst(rows, null, main)).toBe(false);
    expect(headFirst([], { left: 300, right: 900, top: 840, bottom: 870 }, main)).toBe(false);
  });

  it('brings a marked row to the middle, a tall card to its top, a small one as little as it takes', () => {
    const el = (height: number) => ({ getBoundingClientRect: () => ({ height }) }) as unknown as Element;
    expect(scrollBlock(el(30), true, 768)).toBe('center');
    expect(scrollBlock(el(900), false, 768)).toBe('start');
    expect(scrollBlock(el(385), false, 768)).toBe('start');
    expect(scrollBlock(el(300), false, 768)).toBe('nearest');
  });
});
