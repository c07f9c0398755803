import { describe, expect, it } from 'vitest';
import {
  MAX_JSON_BYTES,
  MAX_PAYLOAD_CHARS,
  MAX_SHARED_STEP,
  decodeSharedLink,
  encodeSharedView,
  packPayload,
  type SharedView,
} from '../../web/src/scenario/share';
import { makeRequest as req } from '../../web/src/scenario/params';
import type { Comparison, ExperimentInfo, Frame, ScenarioRequest } from '../../web/src/engine/pkg/reclaim_core';
import type { JobState } from '../../web/src/engine/useWorkerJob';
import { sharedViewOf, type PageSnapshot } from '../../web/src/share/ShareBar';
import type { RangeCheckResult } from '../../web/src/views/comparison/ranges';

const base: SharedView = { request: req('mglru-basic', 1, { memory_max: 2048 }), step: 25, tab: 'lru' };

/** The payload of a link as bytes (base64url decoded). */
function payloadBytes(search: string): Uint8Array {
  const s = new URLSearchParams(search).get('s')!;
  return Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
}

function linkOf(bytes: Uint8Array): string {
  const b64 = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `?v=2&s=${b64}`;
}

/** A link whose payload is this JSON text, correctly packed (checksum and all). */
async function linkWithJson(text: string): Promise<string> {
  return `?v=2&s=${await packPayload(text)}`;
}

async function problemOf(search: string): Promise<string> {
  const link = await decodeSharedLink(search);
  if (link.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(link)}`);
  return link.problem;
}

const validJson = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ scenario: 'mglru-basic', seed: 1, params: {}, step: 3, tab: 'lru', ...fields });

describe('shared link codec: round trip', () => {
  const views: [string, SharedView][] = [
    ['a plain scenario at step 0', { request: req('mglru-basic', 1, {}), step: 0, tab: 'lru' }],
    ['parameters, a previous step and the System tab', { ...base, previous: 24, tab: 'system' }],
    ['the Shadows tab with a selected folio', { ...base, tab: 'shadows', folio: 'anon:kv#64' }],
    [
      'an experiment with its variant and comparison',
      {
        request: req('kswapd-classzone', 7, { bursts: 10, gap_ms: 300 }, 'before'),
        step: 120,
        previous: 110,
        tab: 'comparison',
        comparison: req('kswapd-classzone', 7, { bursts: 10, gap_ms: 250 }),
      },
    ],
    [
      'a comparison checked on seeds 1-5',
      {
        request: req('kswapd-classzone', 2, { bursts: 3 }, 'after'),
        step: 0,
        tab: 'comparison',
        comparison: req('kswapd-classzone', 2, { bursts: 3 }),
        seedCheck: true,
      },
    ],
    [
      'an experiment checked across its parameter ranges',
      {
        request: req('proactive-reclaim-batching', 1, { children: 64 }, 'after'),
        step: 0,
        tab: 'comparison',
        rangeCheck: true,
      },
    ],
    [
      'side by side, with the step its counters changed since',
      {
        request: req('kswapd-classzone', 4, { bursts: 3 }, 'before'),
        step: 0,
        tab: 'system',
        compare: { variants: ['before', 'after'], step: 50, previous: 49 },
      },
    ],
    [
      'a selected folio and a chosen lruvec',
      { ...base, tab: 'memcgs', folio: 'file:reader#120', lruvec: '/a/b@0' },
    ],
    [
      'extreme numbers',
      {
        request: req('x.y_z-2', Number.MAX_SAFE_INTEGER, { a: -3.5, b: 1e-7, c: 1e21, d: 0, e: 0.1 + 0.2 }),
        step: MAX_SHARED_STEP,
        previous: MAX_SHARED_STEP - 1,
        tab: 'lru',
      },
    ],
  ];
  for (const [what, view] of views) {
    it(what, async () => {
      const search = await encodeSharedView(view);
      expect(search).toMatch(/^\?v=2&s=[A-Za-z0-9_-]+$/);
      const link = await decodeSharedLink(search);
      expect(link).toEqual({ kind: 'ok', view });
      // Canonical: the decoded view encodes to the same link.
      if (link.kind === 'ok') expect(await encodeSharedView(link.view)).toBe(search);
    });
  }

  it('writes parameters in a stable order whatever order the request holds them in', async () => {
    const a = await encodeSharedView({ ...base, request: req('mglru-basic', 1, { b: 2, a: 1 }) });
    const b = await encodeSharedView({ ...base, request: { name: 'mglru-basic', seed: 1, params: new Map([['b', 2], ['a', 1]]) } });
    expect(a).toBe(b);
  });

  it('leaves a plain v=1 query string (or none) to url.ts', async () => {
    for (const search of ['', '?', '?v=1&scenario=mglru-basic&seed=3', 'scenario=x&memory_max=2']) {
      expect(await decodeSharedLink(search)).toEqual({ kind: 'none' });
    }
  });

  it('ignores keys a messenger appends', async () => {
    const search = await encodeSharedView(base);
    expect(await decodeSharedLink(`${search}&fbclid=abc`)).toEqual({ kind: 'ok', view: base });
  });

  it('leaves a well-formed but unknown scenario to the engine (which names the scenarios it knows)', async () => {
    const link = await decodeSharedLink(await linkWithJson(validJson({ scenario: 'no-such-scenario' })));
    expect(link.kind).toBe('ok');
    if (link.kind === 'ok') expect(link.view.request.name).toBe('no-such-scenario');
  });

  it('refuses to encode what it could not decode', async () => {
    await expect(encodeSharedView({ ...base, step: MAX_SHARED_STEP + 1 })).rejects.toThrow(/step/);
    await expect(encodeSharedView({ ...base, step: 1.5 })).rejects.toThrow(/step/);
    await expect(encodeSharedView({ ...base, previous: 25 })).rejects.toThrow(/previous/);
    await expect(encodeSharedView({ ...base, tab: 'nope' as 'lru' })).rejects.toThrow(/tab/);
    await expect(encodeSharedView({ ...base, request: req('mglru-basic', -1, {}) })).rejects.toThrow(/seed/);
    await expect(encodeSharedView({ ...base, request: req('mglru-basic', 1, { x: Number.NaN }) })).rejects.toThrow(/params\.x/);
    await expect(encodeSharedView({ ...base, request: req('bad name', 1, {}) })).rejects.toThrow(/scenario/);
  });
});

describe('shared link codec: tampering', () => {
  it('bad base64: a character outside the base64url alphabet', async () => {
    const search = await encodeSharedView(base);
    for (const bad of ['!', '+', '/', '=', '%20']) {
      expect(await problemOf(search.replace(/(s=.{5})./, `$1${bad}`))).toMatch(/^bad base64: /);
    }
  });

  it('bad base64: a length no base64 text has (the link was cut)', async () => {
    const search = await encodeSharedView(base);
    const s = new URLSearchParams(search).get('s')!;
    const cut = s.slice(0, s.length - ((s.length - 1) % 4));
    expect(cut.length % 4).toBe(1);
    expect(await problemOf(`?v=2&s=${cut}`)).toMatch(/^bad base64: no base64 text is \d+ characters long/);
  });

  it('damaged payload: bytes that do not decompress', async () => {
    // BTYPE 11 (reserved) in the first block header.
    expect(await problemOf(linkOf(new Uint8Array([1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff])))).toMatch(/^damaged payload: it does not decompress, so the link was cut or changed \(/);
  });

  it('damaged payload: a deflate stream cut short', async () => {
    const bytes = payloadBytes(await encodeSharedView({ ...base, folio: 'file:reader#120', lruvec: '/a/b@0' }));
    expect(await problemOf(linkOf(bytes.subarray(0, bytes.length - 6)))).toMatch(/^damaged payload: it does not decompress, so the link was cut or changed \(/);
  });

  it('checksum mismatch: the data inflates but is not what was written', async () => {
    const bytes = payloadBytes(await encodeSharedView(base));
    bytes[0] = bytes[0]! ^ 0x01;
    expect(await problemOf(linkOf(bytes))).toBe('checksum mismatch: the payload was changed or cut');
  });

  it('any change to a character of the payload is caught', async () => {
    const search = await encodeSharedView({ ...base, previous: 20, folio: 'file:reader#120' });
    const s = new URLSearchParams(search).get('s')!;
    for (let i = 0; i < s.length; i++) {
      const changed = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      const link = await decodeSharedLink(`?v=2&s=${changed}`);
      expect(link.kind, `character ${i} changed`).toBe('error');
    }
  });

  it('bad JSON', async () => {
    expect(await problemOf(await linkWithJson('{"scenario":'))).toMatch(/^bad JSON: /);
    expect(await problemOf(await linkWithJson('[1,2]'))).toBe('bad JSON: the payload is not an object');
    expect(await problemOf(await linkWithJson('null'))).toBe('bad JSON: the payload is not an object');
  });

  it('wrong version', async () => {
    const search = await encodeSharedView(base);
    expect(await problemOf(search.replace('v=2', 'v=3'))).toMatch(/^wrong version: v="3"/);
    // v=1 is the readable link, which has no payload: the message says which version a payload needs.
    expect(await problemOf(search.replace('v=2', 'v=1'))).toBe('wrong version: v=1 with a payload (s=); a shared link with a payload is v=2');
    expect(await problemOf(search.replace('v=2&', ''))).toMatch(/^v: missing/);
    expect(await problemOf(`${search}&v=2`)).toBe('v: given 2 times');
    expect(await problemOf('?v=3&scenario=mglru-basic')).toMatch(/^wrong version: v="3"/);
  });

  it('reads a payload as mail and chat programs leave it: wrapped, quoted, followed by punctuation', async () => {
    const search = await encodeSharedView(base);
    const payload = new URLSearchParams(search).get('s')!;
    for (const damaged of [`${payload}.`, `${payload})`, `%20${payload}`, `${payload.slice(0, 20)}%0A${payload.slice(20)}`, `${payload}%22%3E`]) {
      const link = await decodeSharedLink(`?v=2&s=${damaged}`);
      expect(link, damaged).toEqual(await decodeSharedLink(search));
    }
    // Anything else is named, with where it is.
    expect(await problemOf(`?v=2&s=${payload.slice(0, 10)}*${payload.slice(10)}`)).toBe(
      'bad base64: the payload (s=) may hold only A-Z, a-z, 0-9, "-" and "_"; character 11 is "*"',
    );
  });

  it("side by side's previous step comes before its step", async () => {
    const compare = (c: Record<string, unknown>) => linkWithJson(validJson({ scenario: 'kswapd-classzone', compare: c }));
    expect(await problemOf(await compare({ variants: ['before', 'after'], step: 5, previous: 5 }))).toBe('compare.previous: 5 is not before compare.step 5');
  });

  it('a missing or repeated payload', async () => {
    expect(await problemOf('?v=2&scenario=mglru-basic&seed=1')).toBe('s: missing (the link has no payload)');
    const search = await encodeSharedView(base);
    expect(await problemOf(`${search}&s=AAAA`)).toBe('s: given 2 times');
    expect(await problemOf('?v=2&s=')).toBe('payload too short: the link was cut');
  });

  it('a scenario that is not a name', async () => {
    for (const scenario of ['', '../x', 'a b', 7, null]) {
      expect(await problemOf(await linkWithJson(validJson({ scenario })))).toMatch(/^scenario: unknown scenario .* \(a scenario's name is letters, digits, "\.", "_" and "-", from a letter or digit\)$/);
    }
  });

  it.each([
    ['seed', { seed: -1 }, /^seed: -1 is not a whole number/],
    ['seed', { seed: 1.5 }, /^seed: 1.5 is not a whole number/],
    ['seed', { seed: 2 ** 53 }, /^seed: 9007199254740992 is not a whole number/],
    ['seed', { seed: '1' }, /^seed: "1" is not a whole number/],
    ['step', { step: -3 }, /^step: -3 is not a whole number/],
    ['step', { step: 2.5 }, /^step: 2.5 is not a whole number/],
    ['previous', { step: 3, previous: 3 }, /^previous: 3 is not before step 3$/],
    ['params', { params: { memory_max: 'big' } }, /^params\.memory_max: "big" is not a number$/],
    ['params', { params: { memory_max: null } }, /^params\.memory_max: null is not a number$/],
    ['params', { params: { 'bad-name': 1 } }, /^params: "bad-name" is not a parameter name$/],
    ['params', { params: { seed: 1 } }, /^params: "seed" is not a parameter name$/],
    ['params', { params: [1] }, /^params: not an object/],
    ['variant', { variant: 'no spaces' }, /^variant: "no spaces" is not a variant name$/],
    ['tab', { tab: 'zones' }, /^tab: "zones" is not a view \(comparison, lru, system, memcgs, shadows\)$/],
    ['comparison', { comparison: { seed: -2, params: {} } }, /^comparison\.seed: -2 is not a whole number/],
    ['comparison', { comparison: { seed: 1, variant: 'x' } }, /^comparison: unknown field "variant"$/],
    ['comparison', { comparison: { seed: 1, seeds: false } }, /^comparison\.seeds: false is not true \(left out when the seeds were not checked\)$/],
    ['comparison', { comparison: { seed: 1, seeds: 'yes' } }, /^comparison\.seeds: "yes" is not true/],
    ['ranges', { ranges: false }, /^ranges: false is not true \(left out when the ranges were not checked\)$/],
    ['ranges', { ranges: 1 }, /^ranges: 1 is not true/],
    ['folio', { folio: '' }, /^folio: not a key/],
    ['lruvec', { lruvec: 'x'.repeat(201) }, /^lruvec: not a key/],
    ['an unknown field', { colour: 'red' }, /^unknown field "colour"$/],
  ])('out-of-range or malformed value: %s', async (_, fields, message) => {
    expect(await problemOf(await linkWithJson(validJson(fields)))).toMatch(message);
  });

  it('names what the link held, not JSON stand-ins', async () => {
    // 1e999 reads as Infinity, which JSON.stringify would write as null.
    expect(await problemOf(await linkWithJson(validJson().replace('"seed":1', '"seed":1e999')))).toBe(
      `seed: a number too large to read is not a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
    );
    expect(await problemOf(await linkWithJson(validJson({ params: { memory_max: 1 } }).replace(':1}', ':1e999}')))).toBe(
      'params.memory_max: a number too large to read is not a number',
    );
    expect(await problemOf(await linkWithJson(validJson({ tab: undefined })))).toBe('tab: missing (one of comparison, lru, system, memcgs, shadows)');
    expect(await problemOf(await linkWithJson(validJson({ step: undefined })))).toMatch(/^step: missing \(a whole number from 0 to \d+\)$/);
  });

  it('step too large', async () => {
    expect(await problemOf(await linkWithJson(validJson({ step: MAX_SHARED_STEP + 1 })))).toBe(
      `step: ${MAX_SHARED_STEP + 1} is too large (a step is at most ${MAX_SHARED_STEP})`,
    );
  });

  it('a payload too long to be a link, or that inflates too far', async () => {
    expect(await problemOf(`?v=2&s=${'A'.repeat(MAX_PAYLOAD_CHARS + 4)}`)).toMatch(/^payload too long: /);
    const padded = validJson().replace('{', `{${' '.repeat(MAX_JSON_BYTES)}`);
    const search = await linkWithJson(padded);
    expect(search.length).toBeLessThan(MAX_PAYLOAD_CHARS);
    expect(await problemOf(search)).toBe(`payload too large: it inflates to more than ${MAX_JSON_BYTES} bytes`);
  });
});

describe('the shared view of a page', () => {
  const request = req('kswapd-classzone', 2, { bursts: 3 }, 'after');
  const compared = req('kswapd-classzone', 2, { bursts: 3 });
  const experiment = { name: 'kswapd-classzone' } as ExperimentInfo;
  const job = <T>(status: JobState<T>['status'], asked: ScenarioRequest | null): JobState<T> => ({ status, request: asked, result: null, error: null, progress: 0, partial: null });
  const page = (seedCheck?: JobState<Comparison[]>): PageSnapshot => ({
    request,
    frame: { step: 0 } as Frame,
    previous: null,
    tab: 'comparison',
    tabLabel: 'Comparison',
    panelId: 'panel',
    experiment,
    comparison: job<Comparison>('done', compared),
    seedCheck,
    selected: null,
    lruvec: null,
  });

  it('keeps the comparison, and its check over seeds 1-5 when that was of the same parameters', () => {
    expect(sharedViewOf(page())).toMatchObject({ comparison: compared });
    expect(sharedViewOf(page()).seedCheck).toBeUndefined();
    // The check ran its seeds from another seed's request: same parameters, so it counts.
    expect(sharedViewOf(page(job('done', { ...compared, seed: 1 }))).seedCheck).toBe(true);
    expect(sharedViewOf(page(job('running', compared))).seedCheck).toBe(true);
    // Of other parameters, failed, or never asked: left out.
    expect(sharedViewOf(page(job('done', req('kswapd-classzone', 2, { bursts: 4 })))).seedCheck).toBeUndefined();
    expect(sharedViewOf(page(job('failed', compared))).seedCheck).toBeUndefined();
    expect(sharedViewOf(page(job('idle', null))).seedCheck).toBeUndefined();
  });

  it('keeps the check across the parameter ranges when it was of this experiment', () => {
    const ranged = (check: JobState<RangeCheckResult>): PageSnapshot => ({ ...page(), rangeCheck: check });
    expect(sharedViewOf(page()).rangeCheck).toBeUndefined();
    expect(sharedViewOf(ranged(job('done', req('kswapd-classzone', 1)))).rangeCheck).toBe(true);
    expect(sharedViewOf(ranged(job('running', req('kswapd-classzone', 1)))).rangeCheck).toBe(true);
    // Of another experiment, failed, or never asked: left out.
    expect(sharedViewOf(ranged(job('done', req('memcg-lru-fairness', 1)))).rangeCheck).toBeUndefined();
    expect(sharedViewOf(ranged(job('failed', req('kswapd-classzone', 1)))).rangeCheck).toBeUndefined();
    expect(sharedViewOf(ranged(job('idle', null))).rangeCheck).toBeUndefined();
  });
});
