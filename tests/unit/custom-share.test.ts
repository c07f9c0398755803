// Custom scenarios in requests, URLs and shared links, and compare mode in
// shared links (old links keep decoding).
import { describe, expect, it } from 'vitest';
import { templateDoc } from '../../web/src/editor/model';
import { exportFileName } from '../../web/src/export/tables';
import { CUSTOM_LABEL, MAX_CUSTOM_CHARS, customDocument, customRequest, customTitle, isCustomRequest, runLabel } from '../../web/src/scenario/custom';
import { makeRequest, paramEntries } from '../../web/src/scenario/params';
import { MAX_PAYLOAD_CHARS, decodeSharedLink, encodeSharedView, packPayload, type SharedView } from '../../web/src/scenario/share';
import { decodeScenarioUrl, encodeScenarioUrl } from '../../web/src/scenario/url';

const doc = templateDoc(5);
const custom = customRequest(doc, 5);

async function viewOf(search: string): Promise<SharedView> {
  const link = await decodeSharedLink(search);
  if (link.kind !== 'ok') throw new Error(`expected a view, got ${JSON.stringify(link)}`);
  return link.view;
}

async function problemOf(search: string): Promise<string> {
  const link = await decodeSharedLink(search);
  if (link.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(link)}`);
  return link.problem;
}

const linkWith = async (json: Record<string, unknown>) => `?v=2&s=${await packPayload(JSON.stringify(json))}`;

describe('custom requests', () => {
  it('carry the document as the name, with no parameters', () => {
    expect(isCustomRequest(custom)).toBe(true);
    expect(isCustomRequest(makeRequest('mglru-basic', 1))).toBe(false);
    expect(custom.seed).toBe(5);
    expect(paramEntries(custom)).toEqual([]);
    expect(customDocument(custom)).toEqual(doc);
    expect(customDocument(makeRequest('mglru-basic', 1))).toBeNull();
    expect(customDocument(makeRequest('{ not json', 1))).toBeNull();
    expect(runLabel(custom)).toBe('my-scenario');
    // The template has no title: the name stands for it.
    expect(customTitle(custom)).toBe('my-scenario');
    expect(runLabel(makeRequest('{"name": " "}', 1))).toBe(CUSTOM_LABEL);
    expect(runLabel(makeRequest('mglru-basic', 1))).toBe('mglru-basic');
    expect(exportFileName(custom, 12, 'csv')).toBe('my-scenario-5-12.csv');
  });

  it('go through the v=1 URL and back', () => {
    const decoded = decodeScenarioUrl(encodeScenarioUrl(custom), 'mglru-basic');
    expect(decoded).toEqual({ ok: true, request: custom });
    const long = makeRequest(`{"name":"${'x'.repeat(MAX_CUSTOM_CHARS)}"}`, 1);
    const refused = decodeScenarioUrl(encodeScenarioUrl(long), 'mglru-basic');
    expect(refused.ok).toBe(false);
    expect(refused.request.name).toBe('mglru-basic');
    // A name that is neither is still refused.
    expect(decodeScenarioUrl('?scenario=%5Bx', 'mglru-basic').ok).toBe(false);
  });
});

describe('shared links: custom scenarios', () => {
  it('round trip: the document travels as an object', async () => {
    const view: SharedView = { request: custom, step: 9, previous: 8, tab: 'lru' };
    const search = await encodeSharedView(view);
    expect(await viewOf(search)).toEqual(view);
  });

  it('refuse what a custom scenario cannot have, and a document that is not an object', async () => {
    const base = { scenario: 'custom', custom: doc, seed: 1, step: 0, tab: 'lru' };
    expect(await problemOf(await linkWith({ ...base, custom: [1] }))).toBe('custom: not a scenario document (a JSON object)');
    expect(await problemOf(await linkWith({ ...base, scenario: 'mglru-basic' }))).toBe(
      'scenario: a link with a custom scenario names it "custom"',
    );
    expect(await problemOf(await linkWith({ ...base, variant: 'before' }))).toBe('custom: a custom scenario has no variant or comparison');
    expect(await problemOf(await linkWith({ ...base, params: { memory_max: 1 } }))).toBe('custom: a custom scenario takes no parameters');
    expect((await viewOf(await linkWith({ ...base, params: {} }))).request.name).toBe(JSON.stringify(doc));
  });

  it('say so when a scenario is too large for a link', async () => {
    // Random names do not compress: the link would be far longer than a link may be.
    let seed = 1;
    const noise = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31).toString(36);
    const big = { ...doc, memcgs: Array.from({ length: 300 }, () => ({ path: `/${noise()}${noise()}` })) };
    const view: SharedView = { request: customRequest(big, 1), step: 0, tab: 'lru' };
    await expect(encodeSharedView(view)).rejects.toThrow(
      new RegExp(`^cannot share this view: the link would be \\d+ characters \\(at most ${MAX_PAYLOAD_CHARS}\\)`),
    );
  });
});

describe('shared links: compare mode', () => {
  const experiment = makeRequest('kswapd-classzone', 2, { bursts: 4 }, 'after');

  it('round trip: variants and step', async () => {
    const view: SharedView = { request: experiment, step: 0, tab: 'comparison', compare: { variants: ['before', 'after'], step: 40 } };
    expect(await viewOf(await encodeSharedView(view))).toEqual(view);
  });

  it('a link without it (written before compare mode) opens without it', async () => {
    const view = await viewOf(await linkWith({ scenario: 'kswapd-classzone', seed: 2, params: {}, step: 3, tab: 'lru' }));
    expect(view.compare).toBeUndefined();
    expect(view.step).toBe(3);
  });

  it('refuse a compare that is not a pair of variants and a step', async () => {
    const base = { scenario: 'kswapd-classzone', seed: 2, params: {}, step: 0, tab: 'lru' };
    expect(await problemOf(await linkWith({ ...base, compare: { variants: ['before'], step: 1 } }))).toBe(
      'compare.variants: not a pair of variant names',
    );
    expect(await problemOf(await linkWith({ ...base, compare: { variants: ['before', 'a b'], step: 1 } }))).toBe(
      'compare.variants[1]: "a b" is not a variant name',
    );
    expect(await problemOf(await linkWith({ ...base, compare: { variants: ['before', 'after'], step: -1 } }))).toMatch(
      /^compare\.step: -1 is not a whole number/,
    );
    expect(await problemOf(await linkWith({ ...base, compare: { variants: ['before', 'after'], step: 1, left: 'x' } }))).toBe(
      'compare: unknown field "left"',
    );
    expect(await problemOf(await linkWith({ ...base, compare: true }))).toBe('compare: not an object');
  });
});
