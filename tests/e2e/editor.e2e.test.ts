// Browser tests of the scenario editor and compare mode: the built site
// (dist/) in headless Chromium. Run alone with
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/editor.e2e.test.ts
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { templateDoc } from '../../web/src/editor/model';
import { decodeSharedLink } from '../../web/src/scenario/share';
import { ROOT, SHOTS, counters, open as openPage, stepCount, stepForward, useBrowser, waitForStep, type OpenOptions, type Opened } from './harness';

/** The site in a 1400x900 window (the editor widens the sidebar). */
function open(search = '', options: OpenOptions = {}): Promise<Opened> {
  return openPage(search, { viewport: { width: 1400, height: 900 }, ...options });
}

async function waitForText(locator: Locator, text: string): Promise<void> {
  await expect.poll(async () => (await locator.textContent())?.replace(/,/g, ''), { timeout: 30_000 }).toBe(text);
}

/** An editor input by its field's path in the scenario document. */
const input = (page: Page, field: string) => page.locator(`.scenario-editor [data-field="${field}"]`);

/** The message an input names with aria-describedby ("" when there is none). */
async function messageOf(field: Locator): Promise<string> {
  const id = await field.getAttribute('aria-describedby');
  expect(id, 'the input names its message').toBeTruthy();
  return (await field.page().locator(`[id="${id}"] .problem`).allTextContents()).join(' ');
}

async function expectMessage(field: Locator, text: string | RegExp): Promise<void> {
  await expect.poll(() => messageOf(field), { timeout: 10_000 }).toMatch(text);
  expect(await field.getAttribute('aria-invalid')).toBe('true');
}

async function expectNoMessage(field: Locator): Promise<void> {
  await expect.poll(() => messageOf(field), { timeout: 10_000 }).toBe('');
  expect(await field.getAttribute('aria-invalid')).toBeNull();
}

async function openEditor(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Edit scenario', exact: true }).click();
  await page.getByRole('button', { name: 'Run scenario', exact: true }).waitFor();
}

useBrowser({ nothingMissing: true });

describe('scenario editor', () => {
  it('has the sidebar to itself while open, from its top; Close editor brings the scenario form back', async () => {
    const { page, problems } = await open('', { viewport: { width: 1280, height: 720 } });
    const form = page.locator('form.scenario-form');
    expect(await form.isVisible()).toBe(true);
    await openEditor(page);
    expect(await form.isVisible(), 'the built-in scenario form, with the editor open').toBe(false);
    const top = await page.evaluate(() => {
      const sidebar = document.querySelector('.sidebar')!;
      const editor = document.querySelector('.custom-scenario')!;
      return { scrollTop: sidebar.scrollTop, offset: editor.getBoundingClientRect().top - sidebar.getBoundingClientRect().top };
    });
    expect(top.scrollTop).toBe(0);
    expect(top.offset).toBeLessThan(30);
    // From the keyboard, a Remove workload button goes with its workload and hands the focus to Add workload.
    const removes = page.getByRole('button', { name: /^Remove workload / });
    const count = await removes.count();
    expect(count).toBeGreaterThan(0);
    await removes.last().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => removes.count()).toBe(count - 1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Add workload');
    await page.getByRole('button', { name: 'Close editor', exact: true }).click();
    expect(await form.isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('is loaded when first opened; if it cannot be, says so and the page keeps working', async () => {
    const { page, problems } = await open();
    const editorChunks: string[] = [];
    page.on('request', (r) => /\/assets\/ScenarioEditor-[^/]*\.js$/.test(r.url()) && editorChunks.push(r.url()));
    await page.route(/\/assets\/ScenarioEditor-[^/]*\.js$/, (route) => route.abort('internetdisconnected'));
    expect(editorChunks, 'the initial page does not load the editor').toEqual([]);
    await page.getByRole('button', { name: 'Edit scenario', exact: true }).click();
    const failed = page.getByTestId('part-failed');
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(/^The scenario editor could not be loaded \(.+\); reload the page to try again\.$/);
    expect(editorChunks).toHaveLength(1);
    await stepForward(page, 3);
    expect(await stepCount(page)).toBe(3);
    // The only console errors are the chunk's failed request.
    expect(problems.every((p) => /ERR_INTERNET_DISCONNECTED|Failed to fetch dynamically imported module/.test(p)), problems.join('\n')).toBe(true);
    await page.unroute(/\/assets\/ScenarioEditor-[^/]*\.js$/);
    await page.reload();
    await openEditor(page);
    expect(editorChunks.length).toBeGreaterThan(1);
  });

  it('marks a bad value next to its field, and runs the scenario once it is fixed', async () => {
    const { page, problems } = await open('', { clipboard: true });
    await openEditor(page);
    const pages = input(page, 'nodes[0].zones[0].pages');
    const path0 = input(page, 'memcgs[0].path');

    // The page's own check: not a whole number.
    await pages.fill('12.5');
    await expectMessage(pages, 'a whole number ≥ 0');
    // The engine's check (validateScenario): a zone of 10 pages, and a memcg path that is not one.
    await pages.fill('10');
    await expectMessage(pages, '10 is out of range: accepted from 64 to 16777216');
    await path0.fill('job');
    await expectMessage(path0, /"job" is not a cgroup path/);
    // Its workloads followed the rename to a memcg that cannot exist: the engine says so next to each one's memcg.
    expect(await input(page, 'workloads[0].memcg').inputValue()).toBe('job');
    await expectMessage(input(page, 'workloads[0].memcg'), /memcg "job" is not defined/);
    await page.screenshot({ path: path.join(SHOTS, 'editor-invalid.png'), fullPage: true });

    // Running it is refused, the page keeps running what it ran.
    await page.getByRole('button', { name: 'Run scenario', exact: true }).click();
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toMatch(/cannot run this scenario/);
    expect(await page.getByTestId('scenario-title').textContent()).toContain('mglru-basic');

    // The path put back, then another field made wrong before the engine could check the fix: the marks of
    // the check of "job" do not stay on the path and the workload (an older check must not outlive an edit).
    await path0.fill('/job');
    await pages.fill('12.5');
    await expectMessage(pages, 'a whole number ≥ 0');
    await expectNoMessage(path0);
    await expectNoMessage(input(page, 'workloads[0].memcg'));

    await pages.fill('8192');
    await path0.fill('/job');
    await input(page, 'memcgs[0].memoryMax').fill('1000');
    await input(page, 'name').fill('editor-test');
    await expectNoMessage(pages);
    await expectNoMessage(path0);
    await expectNoMessage(input(page, 'workloads[0].memcg'));
    // A likely slip the engine runs as written (memory.low above memory.max): a note beside the field, no mark, no refusal.
    const low = input(page, 'memcgs[0].memoryLow');
    await low.fill('2000');
    const noteOf = async () => (await page.locator(`[id="${await low.getAttribute('aria-describedby')}"] .note`).allTextContents()).join(' ');
    await expect.poll(noteOf, { timeout: 10_000 }).toBe('Note: 2000 is above memory.max (1000): it protects everything "/job" can hold');
    expect(await messageOf(low)).toBe('');
    expect(await low.getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('.editor-check').textContent()).toBe('Checked by the engine: 1 note');
    await page.getByRole('button', { name: 'Run scenario', exact: true }).click();

    // The main engine runs it: its title, its memory.max, and it steps.
    // The header names it as the editor did (no title given: the name).
    await waitForText(page.getByTestId('scenario-title'), 'editor-test custom scenario');
    expect(await page.getByTestId('memory-max').first().textContent()).toBe('1,000');
    const button = page.getByRole('group', { name: 'Simulation controls' }).getByRole('button', { name: 'Step forward', exact: true });
    for (let i = 0; i < 3; i++) await button.click();
    await waitForText(page.getByTestId('step'), '3');
    const after = await counters(page);
    expect(after.pgfault).toBeGreaterThan(0);
    // The address bar carries the scenario, so a reload runs it again.
    expect(decodeURIComponent(new URL(page.url()).search)).toContain('"name":"editor-test"');
    await page.reload();
    await page.getByRole('table', { name: 'Counters' }).waitFor();
    await waitForText(page.getByTestId('scenario-title'), 'editor-test custom scenario');
    await page.screenshot({ path: path.join(SHOTS, 'editor-running.png'), fullPage: true });

    // Copy link carries it too: the same scenario, at the same step, with the same counters.
    await page.getByRole('group', { name: 'Simulation controls' }).getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForText(page.getByTestId('step'), '1');
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/\?v=2&s=[A-Za-z0-9_-]+$/);
    const second = await open(new URL(link).search);
    await waitForText(second.page.getByTestId('step'), '1');
    expect(await second.page.getByTestId('scenario-title').textContent()).toBe('editor-test custom scenario');
    expect(await counters(second.page)).toEqual(await counters(page));
    expect([...problems, ...second.problems]).toEqual([]);
  });

  it("opens a link's scenario that the engine refuses in the editor, its problem marked, to fix and run", async () => {
    // A link to a custom scenario whose zone is too small for the engine (it takes 64 pages and more).
    const doc = templateDoc(3);
    const broken = { ...doc, name: 'from-a-link', nodes: [{ zones: [{ zone: 'Normal', pages: 10 }] }] };
    const { page, problems } = await open(`?v=1&scenario=${encodeURIComponent(JSON.stringify(broken))}`);
    const alert = page.getByTestId('alerts');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/The engine rejected this scenario: .*10 is out of range.*Running the default scenario, mglru-basic, instead; the scenario is in the editor/);
    // The editor is open on it, the problem next to its field.
    await page.getByRole('button', { name: 'Run scenario', exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toBe("The link's scenario did not run: 1 problem, marked below. Fix them and press Run scenario.");
    expect(await input(page, 'name').inputValue()).toBe('from-a-link');
    const pages = input(page, 'nodes[0].zones[0].pages');
    await expectMessage(pages, '10 is out of range: accepted from 64 to 16777216');
    await page.screenshot({ path: path.join(SHOTS, 'editor-refused-link.png') });
    // Fixed, it runs.
    await pages.fill('8192');
    await expectNoMessage(pages);
    await page.getByRole('button', { name: 'Run scenario', exact: true }).click();
    await waitForText(page.getByTestId('scenario-title'), 'from-a-link custom scenario');
    // Closed and opened again, the editor shows what runs (the link's refused scenario is not brought back).
    await page.getByRole('button', { name: 'Close editor', exact: true }).click();
    await openEditor(page);
    expect(await input(page, 'nodes[0].zones[0].pages').inputValue()).toBe('8192');
    expect(problems).toEqual([]);
  });

  it('reports a broken scenario file and keeps the editor as it was', async () => {
    const { page, problems } = await open('', { colorScheme: 'dark' });
    await openEditor(page);
    const file = page.getByTestId('scenario-file');
    const status = page.getByTestId('editor-status');

    await file.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "name": ') });
    await expect.poll(() => status.textContent()).toMatch(/^broken\.json cannot be opened: scenario file: EOF while parsing/);
    await file.setInputFiles({
      name: 'shape.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify({ version: 1, name: 'x', seed: 1, stepNs: 1e6, durationNs: 1e7, nodes: [{ zones: [{ zone: 'Normal' }] }], workloads: [] }),
      ),
    });
    await expect.poll(() => status.textContent()).toMatch(/^shape\.json cannot be opened: nodes\[0\]\.zones\[0\]\.pages: missing field `pages`/);
    await page.screenshot({ path: path.join(SHOTS, 'editor-broken-file-dark.png'), fullPage: true });
    // Nothing was loaded.
    expect(await input(page, 'name').inputValue()).toBe('my-scenario');

    // A file the engine can read but not run opens, with its problems next to their fields.
    const doc = {
      version: 1,
      name: 'from-file',
      seed: 4,
      stepNs: 10_000_000,
      durationNs: 1_000_000_000,
      nodes: [{ zones: [{ zone: 'Normal', pages: 8192 }] }],
      memcgs: [{ path: '/a', memoryMax: 1024 }],
      workloads: [{ name: 'w', memcg: '/a', pattern: { kind: 'zipf', s: 9 }, target: { kind: 'anon', pages: 2048 } }],
    };
    await file.setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    await expect.poll(() => status.textContent()).toMatch(/^Loaded good\.json: 1 problem/);
    expect(await input(page, 'name').inputValue()).toBe('from-file');
    await expectMessage(input(page, 'workloads[0].pattern.s'), '9 is out of range: accepted from 0 to 5 (0 excluded)');

    // The next file's marks are its own: the last file's engine check does not stay on its fields.
    const orphan = { ...doc, memcgs: [{ path: '/nope/a', memoryMax: 1024 }], workloads: [{ ...doc.workloads[0], memcg: '/nope/a', pattern: { kind: 'zipf', s: 1 } }] };
    await file.setInputFiles({ name: 'orphan.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(orphan)) });
    await expect.poll(() => status.textContent()).toMatch(/^Loaded orphan\.json: 1 problem/);
    await expectMessage(input(page, 'memcgs[0].path'), /"\/nope"/);
    const unnamed = { ...orphan, memcgs: [{ path: '/a', memoryMax: 1024 }], workloads: [{ ...orphan.workloads[0], memcg: '/a', name: '' }] };
    await file.setInputFiles({ name: 'unnamed.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(unnamed)) });
    await expect.poll(() => status.textContent()).toMatch(/^Loaded unnamed\.json: 1 problem/);
    await expectMessage(input(page, 'workloads[0].name'), 'required');
    await expectNoMessage(input(page, 'memcgs[0].path'));
    expect(await page.locator('.scenario-editor [aria-invalid="true"]').count(), 'only the unnamed workload is marked').toBe(1);
    await file.setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    await expect.poll(() => status.textContent()).toMatch(/^Loaded good\.json: 1 problem/);

    // Saved, it is the engine's scenario file format, with what was edited.
    await input(page, 'workloads[0].pattern.s').fill('1.2');
    await expectNoMessage(input(page, 'workloads[0].pattern.s'));
    // Pacing is offered once the workload has a rate: a closed loop, like memtier_benchmark's clients.
    expect(await input(page, 'workloads[0].closedLoop').count()).toBe(0);
    await input(page, 'workloads[0].rate').fill('1000');
    await input(page, 'workloads[0].closedLoop').selectOption('closed');
    await input(page, 'workloads[0].closedLoop').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'editor-workload.png') });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save scenario file', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('from-file.json');
    const saved = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(saved).toEqual({
      ...doc,
      swapPages: 0,
      workloads: [{ ...doc.workloads[0], pattern: { kind: 'zipf', s: 1.2 }, target: { kind: 'anon', pages: 2048, writePercent: 0 }, rate: 1000, closedLoop: true }],
      // Every switch is written out, at the engine's defaults here (Knobs::default(), as the build wrote them).
      knobs: JSON.parse(readFileSync(path.join(ROOT, 'web', 'src', 'engine', 'pkg', 'default-knobs.json'), 'utf8')),
    });
    expect(problems).toEqual([]);
  });
});

describe('a custom scenario too long for a readable address', () => {
  /** Loads a scenario of `memcgs` memcgs (/m0, /m1, ...; a heap of `heap` pages in /m7) in the editor and runs it. */
  async function runMemcgs(page: Page, name: string, seed: number, memcgs: number, heap: number): Promise<void> {
    const doc = {
      version: 1,
      name,
      seed,
      stepNs: 10_000_000,
      durationNs: 1_000_000_000,
      nodes: [{ zones: [{ zone: 'Normal', pages: 65536 }] }],
      memcgs: Array.from({ length: memcgs }, (_, i) => ({ path: `/m${i}`, memoryMax: 1024 })),
      workloads: [{ name: 'w', memcg: '/m7', pattern: { kind: 'uniform' }, target: { kind: 'anon', pages: heap } }],
    };
    await openEditor(page);
    await page.getByTestId('scenario-file').setInputFiles({ name: `${name}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toBe(`Loaded ${name}.json. Run it with Run scenario.`);
    await page.getByRole('button', { name: 'Run scenario', exact: true }).click();
    await expect.poll(() => page.getByTestId('scenario-title').textContent()).toContain(name);
  }

  it('goes in the address bar in the compact form, so a reload opens it at its step', async () => {
    const { page, problems } = await open();
    // 300 memcgs: about 10,000 characters of JSON, more than 16,000 in the readable form, which the server would refuse (431).
    await runMemcgs(page, 'many-memcgs', 3, 300, 2048);
    // From the run's start the address no longer names the last run (a reload while it plays would open that).
    await expect.poll(() => new URL(page.url()).searchParams.get('scenario'), { timeout: 5_000 }).toBeNull();
    // The new run's first frame is up (its 300 memcgs and the root), so the steps go to it.
    await expect.poll(() => page.getByRole('tab', { name: /^Memcgs/ }).textContent(), { timeout: 30_000 }).toMatch(/301$/);
    await stepForward(page, 4);
    // The address follows once the page is still: the compact form of step 4 (an earlier write may hold step 1 to 3).
    const shownStep = async () => {
      const link = await decodeSharedLink(new URL(page.url()).search);
      return link.kind === 'ok' ? link.view.step : null;
    };
    await expect.poll(shownStep, { timeout: 10_000 }).toBe(4);
    const address = page.url();
    expect(address.length, 'the compact form is short').toBeLessThan(8000);
    const before = await counters(page);
    await page.reload();
    await page.getByRole('table', { name: 'Counters' }).waitFor();
    await waitForStep(page, 4, 60_000);
    expect(await counters(page)).toEqual(before);
    expect(await page.getByTestId('scenario-title').textContent()).toContain('many-memcgs');
    expect(page.url(), 'the address keeps the compact form').toBe(address);
    expect(await page.getByTestId('no-link').count(), 'it fits a link').toBe(0);
    expect(problems).toEqual([]);
  });

  it('says so when a scenario is too large even for the compact form', async () => {
    const { page, problems } = await open();
    // 1,000 memcgs: about 34,000 characters of JSON, which the editor runs but a link (16 KB of JSON) cannot carry.
    await runMemcgs(page, 'too-many-memcgs', 1, 1000, 512);
    await expect.poll(() => page.getByTestId('no-link').textContent(), { timeout: 10_000 }).toMatch(/too large for a link.*Save it as a file to keep it\.$/);
    // The address names no run: not the last one, and no link a server would refuse.
    expect(new URL(page.url()).search).toBe('');
    expect(problems).toEqual([]);
  });
});

describe('scenario editor in a laptop window', () => {
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
  ]) {
    it(`at ${viewport.width}x${viewport.height}, only the panels scroll: never the page, its header or its controls`, async () => {
      const { page, problems } = await openPage('', { viewport });
      await openEditor(page);
      const sidebar = page.locator('.sidebar');
      const toolbar = page.locator('.toolbar');
      const still = async () => {
        const doc = await page.evaluate(() => ({ height: document.scrollingElement!.scrollHeight, window: window.innerHeight, y: window.scrollY }));
        expect(doc.height, 'the document is no taller than the window').toBeLessThanOrEqual(doc.window + 1);
        expect(doc.y).toBe(0);
        const box = (await toolbar.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(doc.window);
        expect(await page.getByRole('group', { name: 'Simulation controls' }).getByRole('button', { name: 'Step forward', exact: true }).isVisible()).toBe(true);
      };
      await still();
      // End, from the page and from a button of the editor (which scrolls the sidebar).
      await page.keyboard.press('End');
      await page.getByRole('button', { name: 'Save scenario file', exact: true }).focus();
      await page.keyboard.press('End');
      await still();
      // The wheel past the editor's end, and over the header.
      const side = (await sidebar.boundingBox())!;
      await page.mouse.move(side.x + side.width / 2, side.y + side.height / 2);
      for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 600);
      await expect.poll(() => sidebar.evaluate((e) => e.scrollTop + e.clientHeight >= e.scrollHeight - 1)).toBe(true);
      await page.mouse.move(viewport.width / 2, 30);
      for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 600);
      await page.waitForTimeout(200);
      await still();
      expect(problems).toEqual([]);
    });
  }

  it('a refused run names the first bad field and brings it into view, clear of the Run bar', async () => {
    const { page, problems } = await openPage('', { viewport: { width: 1366, height: 768 } });
    await openEditor(page);
    const sidebar = page.locator('.sidebar');
    const status = page.getByTestId('editor-status');
    const size = input(page, 'workloads[0].target.pages');
    const swappiness = input(page, 'knobs.swappiness');
    /** The focused input's field (label, input, message) is within the sidebar's view and above the sticky Run bar. */
    const inView = (field: Locator) =>
      field.evaluate((e) => {
        const box = e.closest('.field')!.getBoundingClientRect();
        const view = e.closest('.sidebar')!.getBoundingClientRect();
        const bar = e.closest('form')!.querySelector('.form-actions')!.getBoundingClientRect();
        return document.activeElement === e && box.top >= view.top && box.bottom <= bar.top;
      });
    const run = async () => {
      await sidebar.evaluate((e) => (e.scrollTop = 0));
      await page.getByRole('button', { name: 'Run scenario', exact: true }).click();
    };

    // The page's own check.
    await size.fill('-5');
    await expectMessage(size, 'a whole number ≥ 0');
    await run();
    await expect.poll(() => status.textContent()).toBe('Fix the marked fields first. Workloads › reader › Size (pages): a whole number ≥ 0');
    await expect.poll(() => inView(size)).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'editor-refused-run.png') });

    // The engine's.
    await size.fill('4096');
    await swappiness.fill('300');
    await expectMessage(swappiness, '300 is out of range: accepted from 0 to 200');
    await run();
    await expect.poll(() => status.textContent()).toBe('The engine cannot run this scenario. Switches › swappiness: 300 is out of range: accepted from 0 to 200');
    await expect.poll(() => inView(swappiness)).toBe(true);
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight + 1)).toBe(true);
    expect(problems).toEqual([]);
  });
});

describe('side by side', () => {
  it('steps both variants in lock step, with their counters and the metric table', async () => {
    const { page, problems } = await open('?v=1&scenario=multi-memcg-kswapd&seed=1', { ready: 'experiment', clipboard: true });
    const toggle = page.getByRole('button', { name: 'Side by side', exact: true });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');

    const mode = page.getByRole('region', { name: 'Side by side' });
    const left = mode.getByTestId('compare-side-0');
    const right = mode.getByTestId('compare-side-1');
    expect(await left.getAttribute('data-variant')).toBe('before');
    expect(await right.getAttribute('data-variant')).toBe('after');
    await waitForText(left.getByTestId('side-step'), '0');
    await waitForText(right.getByTestId('side-step'), '0');
    // The page's own controls give way to compare mode's: one control drives both sides.
    expect(await page.getByRole('group', { name: 'Simulation controls' }).count()).toBe(0);
    expect(await page.locator('.compare-mode-note').textContent()).toContain("The page's own run waits at step 0");

    // Twenty clicks in a row (the counters of these variants part after step 17).
    const controls = mode.getByRole('group', { name: 'Compare controls' });
    const step = controls.getByRole('button', { name: 'Step forward', exact: true });
    for (let i = 0; i < 20; i++) await step.click();
    await waitForText(mode.getByTestId('compare-step'), '20');
    expect(await left.getByTestId('side-step').textContent()).toBe('20');
    expect(await right.getByTestId('side-step').textContent()).toBe('20');
    expect(await page.getByTestId('step').textContent()).toBe('0');

    // Same seed, different kernels: the counters differ (and not all of them).
    const a = await counters(left);
    const b = await counters(right);
    expect(Object.keys(a)).toEqual(Object.keys(b));
    const differ = Object.keys(a).filter((k) => a[k] !== b[k]);
    expect(differ.length).toBeGreaterThan(0);
    expect(differ.length).toBeLessThan(Object.keys(a).length);
    expect(await mode.getByTestId('compare-diff').textContent()).toContain(`${differ.length} counter`);
    // Each side draws its generations.
    expect(await left.getByTestId('generations-chart').count()).toBeGreaterThan(0);
    expect(await right.getByTestId('generations-chart').count()).toBeGreaterThan(0);

    // The keyboard steps both too.
    await page.locator('body').press('ArrowRight');
    await waitForText(mode.getByTestId('compare-step'), '21');
    expect(await left.getByTestId('side-step').textContent()).toBe('21');

    // Play and pause: both sides move on together.
    await controls.getByRole('combobox').selectOption('10');
    await controls.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(async () => Number((await left.getByTestId('side-step').textContent())?.replace(/,/g, '')), { timeout: 30_000 }).toBeGreaterThan(40);
    await controls.getByRole('button', { name: 'Pause', exact: true }).click();
    // Once the commands in flight are answered, both sides stand at the same step.
    await expect.poll(() => mode.getAttribute('aria-busy')).toBe('false');
    const paused = await mode.getByTestId('compare-step').textContent();
    expect(await left.getByTestId('side-step').textContent()).toBe(paused);
    expect(await right.getByTestId('side-step').textContent()).toBe(paused);
    expect(Number(paused!.replace(/,/g, '')) % 10).toBe(1);

    // Below, the experiment's metric table.
    const table = mode.getByRole('table', { name: 'Comparison' });
    await table.waitFor({ timeout: 60_000 });
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(3);
    await page.screenshot({ path: path.join(SHOTS, 'compare-mode.png'), fullPage: true });

    // The zones of both sides.
    await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'System', exact: true }).click();
    expect(await left.getByTestId('zone-chart').count()).toBeGreaterThan(0);
    expect(await right.getByTestId('zone-chart').count()).toBeGreaterThan(0);

    // Copy link keeps compare mode and its step.
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/\?v=2&s=[A-Za-z0-9_-]+$/);
    const second = await open(new URL(link).search, { ready: 'experiment', colorScheme: 'dark' });
    const mode2 = second.page.getByRole('region', { name: 'Side by side' });
    await waitForText(mode2.getByTestId('compare-step'), paused!.replace(/,/g, ''));
    expect(await counters(mode2.getByTestId('compare-side-0'))).toEqual(await counters(left));
    expect(await counters(mode2.getByTestId('compare-side-1'))).toEqual(await counters(right));
    expect(await second.page.getByRole('button', { name: 'Side by side', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await second.page.screenshot({ path: path.join(SHOTS, 'compare-mode-dark.png'), fullPage: true });

    // Off again: the page's own views and controls are back.
    await toggle.click();
    expect(await mode.count()).toBe(0);
    const pageStep = page.getByRole('group', { name: 'Simulation controls' }).getByRole('button', { name: 'Step forward', exact: true });
    expect(await pageStep.isDisabled()).toBe(false);
    expect([...problems, ...second.problems]).toEqual([]);
  });
});
