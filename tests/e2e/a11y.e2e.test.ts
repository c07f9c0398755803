// Accessibility and readability in headless Chromium: every control and view
// the user can reach has an accessible name (as Chromium's accessibility tree
// computes it, not as we guess it), the keyboard reaches the main controls in
// order, and the page fits a 1280x800 screen and a projector (the same page
// at 150 % zoom) without sideways scrolling.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS, open, stepForward, useBrowser, waitForStep } from './harness';

useBrowser();

/** Roles a user operates; each needs a name to be announced usefully. */
const INTERACTIVE = new Set([
  'button',
  'checkbox',
  'combobox',
  'link',
  'listbox',
  'menuitem',
  'radio',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'searchbox',
]);
/**
 * Figures, tables, regions and the like: views a screen reader lists by name.
 * (`main` is not here: a page has one, and its role says what it is.)
 */
const VIEWS = new Set(['table', 'figure', 'img', 'region', 'tabpanel', 'log', 'progressbar', 'dialog', 'group']);

interface Unnamed {
  role: string;
  /** Some text around it, to find it in the page. */
  hint: string;
}

/** Interactive elements and views without an accessible name, from Chromium's own accessibility tree. */
async function unnamed(page: Page): Promise<{ missing: Unnamed[]; checked: number }> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: { ignored: boolean; role?: { value: string }; name?: { value: string }; properties?: { name: string; value: { value: unknown } }[]; backendDOMNodeId?: number }[];
  };
  const missing: Unnamed[] = [];
  let checked = 0;
  for (const node of nodes) {
    const role = node.role?.value ?? '';
    if (node.ignored || !(INTERACTIVE.has(role) || VIEWS.has(role))) continue;
    const hidden = node.properties?.some((p) => p.name === 'hidden' && p.value.value === true);
    if (hidden) continue;
    checked++;
    if ((node.name?.value ?? '').trim() !== '') continue;
    let hint = '';
    if (node.backendDOMNodeId) {
      const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId: node.backendDOMNodeId })) as { object: { objectId: string } };
      const { result } = (await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: 'function () { return this.outerHTML.slice(0, 160); }',
        returnByValue: true,
      })) as { result: { value: string } };
      hint = result.value;
    }
    missing.push({ role, hint });
  }
  await cdp.detach();
  return { missing, checked };
}

/** The page's sideways overflow in CSS pixels (0: it fits). */
async function overflowX(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function showTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
}

describe('accessibility', () => {
  it('gives every control and view an accessible name, in every tab', async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    await stepForward(page, 20);
    const tabs = await page.getByRole('tab').evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
    expect(tabs.length).toBeGreaterThanOrEqual(3);
    let total = 0;
    for (const label of tabs) {
      await page.getByRole('tab').filter({ hasText: label }).first().click();
      const { missing, checked } = await unnamed(page);
      expect(missing, `unnamed in tab "${label}"`).toEqual([]);
      total += checked;
    }
    console.log(`[a11y] default scenario: ${tabs.length} tabs, ${total} named controls and views checked`);
    expect(total).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });

  it('names everything on an experiment page and in compare mode', async () => {
    const { page, problems } = await open('?scenario=memcg-lru-fairness', { ready: 'experiment', reducedMotion: 'reduce' });
    const experiment = await unnamed(page);
    expect(experiment.missing, 'unnamed on the experiment page').toEqual([]);
    await page.getByRole('button', { name: 'Side by side' }).click();
    await page.getByRole('button', { name: 'Step forward' }).first().waitFor();
    const compare = await unnamed(page);
    expect(compare.missing, 'unnamed side by side').toEqual([]);
    console.log(`[a11y] experiment page: ${experiment.checked} checked; side by side: ${compare.checked} checked`);
    expect(problems).toEqual([]);
  });

  it('announces where a step or a step back landed to a screen reader (a polite live region), and not each frame of play', async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    const announced = page.getByTestId('step-announcement');
    expect(await announced.getAttribute('aria-live')).toBe('polite');
    await stepForward(page, 3);
    await expect.poll(() => announced.textContent()).toMatch(/^Step 3, [\d.]+ ms simulated(: [a-z_]+( ×\d+)?(, [a-z_]+( ×\d+)?)*(, and \d+ more)?)?$/);
    await page.getByRole('button', { name: 'Step back', exact: true }).click();
    await expect.poll(() => announced.textContent()).toMatch(/^Step 2, /);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => announced.textContent()).toBe('');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => announced.textContent()).toMatch(/^Step \d+, /);
    expect(problems).toEqual([]);
  });

  it('keeps the keyboard focus on the transport when the focused button is disabled (Play to Pause and back, Step back at step 0)', async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? '');
    await page.getByRole('button', { name: 'Play', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('Pause');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('Play');
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    // The reset goes through the engine's queue: step from step 0, not from the step play had shown.
    await waitForStep(page, 0);
    await stepForward(page, 1);
    await page.getByRole('button', { name: 'Step back', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('step').textContent()).toBe('0');
    await expect.poll(focused).toBe('Step forward');
    // Focus moved away on purpose (a click on the page) stays away: Space plays and pauses, nothing is focused.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press(' ');
    await expect.poll(() => page.getByRole('button', { name: 'Pause', exact: true }).isEnabled()).toBe(true);
    await page.keyboard.press(' ');
    await expect.poll(() => page.getByRole('button', { name: 'Play', exact: true }).isEnabled()).toBe(true);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    // A form rebuilt for another scenario gives the focus back to the field that had it.
    const address = page.url();
    const picker = page.locator('aside[aria-label="Scenario"] select').first();
    const pickerId = await picker.getAttribute('id');
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.url()).not.toBe(address);
    // The form was rebuilt (its fields have new ids) and the new picker has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement === document.querySelector('aside[aria-label="Scenario"] select'))).toBe(true);
    expect(await picker.getAttribute('id')).not.toBe(pickerId);
    expect(problems).toEqual([]);
  });

  it('offers a skip link first, which takes the focus to the selected view tab without touching the address', async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    const address = page.url();
    // First in the document's focus order, and on screen once focused.
    const first = await page.evaluate(() => document.querySelector('a[href], button, input, select, textarea, [tabindex="0"]')?.textContent?.trim());
    expect(first).toBe('Skip to the views');
    const skip = page.getByRole('link', { name: 'Skip to the views' });
    await skip.focus();
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-selected'))).toBe('true');
    expect(page.url()).toBe(address);
    expect(problems).toEqual([]);
  });

  it("writes what each counter means under its name on request, where a tooltip would not show (keyboard, touch, a projector)", async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    const row = page.locator('tr[data-counter="pgscan_kswapd"] th');
    expect(await row.locator('.counter-meaning').count()).toBe(0);
    await page.getByLabel('Meanings', { exact: true }).check();
    expect(await row.locator('.counter-meaning').textContent()).toBe('Pages scanned by kswapd.');
    expect(await row.getAttribute('title')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('reaches the step controls, the timeline and the views from the keyboard, in reading order', async () => {
    const { page } = await open('', { reducedMotion: 'reduce' });
    await stepForward(page, 3);
    const wanted = ['Step back', 'Step forward', 'Play', 'Reset', 'Timeline', 'Go to step', 'Copy link', 'folio '];
    const seen: string[] = [];
    // Start from the top of the document, as a keyboard user arriving on the page does.
    // (a click on the page's top-left corner, outside any control, moves the focus starting point there).
    await page.mouse.click(2, 2);
    for (let i = 0; i < 80 && wanted.some((w) => !seen.includes(w)); i++) {
      await page.keyboard.press('Tab');
      const name = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return '';
        const labelled = el.getAttribute('aria-labelledby');
        const byLabel = labelled ? document.getElementById(labelled)?.textContent : null;
        const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
        const owner = el.closest('[role="listbox"]')?.getAttribute('aria-label');
        return (el.getAttribute('aria-label') ?? byLabel ?? label ?? owner ?? el.textContent ?? '').trim().slice(0, 60);
      });
      if (name) seen.push(name);
    }
    for (const w of wanted) expect(seen.some((s) => s.startsWith(w)), `Tab reaches "${w}" (reached: ${seen.join(' | ')})`).toBe(true);
    // Step controls come before the views they drive.
    const stepAt = seen.findIndex((s) => s.includes('Step forward'));
    const tabAt = seen.findIndex((s) => /^(LRU|System|Memcgs)/.test(s));
    expect(stepAt).toBeGreaterThanOrEqual(0);
    if (tabAt >= 0) expect(stepAt).toBeLessThan(tabAt);
  });

  it('fits 1280x800 and a projector (150 % zoom) without sideways scrolling', async () => {
    const desk = await open('', { reducedMotion: 'reduce' });
    await stepForward(desk.page, 10);
    expect(await overflowX(desk.page)).toBeLessThanOrEqual(0);
    // A projector: 1280x800 shown at 150 % (what Ctrl + does), i.e. an 853x533 CSS-pixel viewport at device scale 1.5.
    const projector = await open('', { viewport: { width: 853, height: 533 }, deviceScaleFactor: 1.5, reducedMotion: 'reduce' });
    await stepForward(projector.page, 10);
    for (const tab of ['LRU', 'System', 'Memcgs']) {
      await showTab(projector.page, tab);
      const over = await overflowX(projector.page);
      expect(over, `sideways overflow in tab ${tab} at 150 %`).toBeLessThanOrEqual(0);
    }
    await showTab(projector.page, 'LRU');
    await projector.page.screenshot({ path: path.join(SHOTS, 'projector-150.png') });
    expect(projector.problems).toEqual([]);
  });

  it("follows the browser's default font size (text in rem), not only its zoom", async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    const sizes = () =>
      page.evaluate(() => ({
        body: getComputedStyle(document.body).fontSize,
        title: getComputedStyle(document.querySelector('.card-title')!).fontSize,
      }));
    const base = await sizes();
    expect(base.body).toBe('14px');
    // A reader who set a larger default font (20 px instead of 16) in the browser's settings.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 20 } });
    await expect.poll(async () => (await sizes()).body).toBe('17.5px');
    const scaled = await sizes();
    expect(parseFloat(scaled.title) / parseFloat(base.title)).toBeCloseTo(1.25, 2);
    expect(problems).toEqual([]);
  });

  it('fits a phone (390 px wide) without sideways scrolling, the charts\' legends inside their charts', async () => {
    const phone = await open('', { viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
    await stepForward(phone.page, 10);
    for (const tab of ['LRU', 'System', 'Memcgs', 'Shadows']) {
      await showTab(phone.page, tab);
      expect(await overflowX(phone.page), `sideways overflow in tab ${tab} at 390 px`).toBeLessThanOrEqual(0);
      // No text of a chart runs past its chart's right edge (where the page would clip it).
      const clipped = await phone.page.evaluate(() =>
        [...document.querySelectorAll('svg text')]
          .filter((t) => {
            const box = t.getBoundingClientRect();
            return box.width > 0 && box.right > t.closest('svg')!.getBoundingClientRect().right + 1;
          })
          .map((t) => t.textContent),
      );
      expect(clipped, `chart text past its chart in tab ${tab}`).toEqual([]);
    }
    await showTab(phone.page, 'LRU');
    await phone.page.screenshot({ path: path.join(SHOTS, 'phone-390.png') });
    expect(phone.problems).toEqual([]);
  });
});
