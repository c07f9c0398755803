import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, URL_CODEC_VERSION, decodeScenarioUrl, encodeScenarioUrl } from '../../web/src/scenario/url';
import type { ScenarioRequest } from '../../web/src/engine/pkg/reclaim_core';
import { makeRequest as req, paramRecord } from '../../web/src/scenario/params';

const DEFAULT = 'mglru-basic';

describe('scenario URL codec: round trip', () => {
  const cases: ScenarioRequest[] = [
    req('mglru-basic', 1, {}),
    req('mglru-basic', 42, { memory_max: 2048 }),
    req('mglru-basic', 0, { memory_max: 4096, file_pages: 10_000, anon_ratio: 0.25 }),
    req('classic-lru', Number.MAX_SAFE_INTEGER, { a: -3.5, b: 1e-7, c: 1e21, d: 0 }),
    req('x.y_z-2', 7, { zeta: 1, alpha: 2 }),
    req('kswapd-classzone', 1, { bursts: 10, gap_ms: 300 }, 'before'),
    req('memcg-lru-fairness', 3, {}, 'mglru-no-memcg-lru'),
  ];
  for (const request of cases) {
    it(`${request.name} seed ${request.seed} with ${(request.params?.size ?? 0)} params${request.variant ? `, variant ${request.variant}` : ''}`, () => {
      const search = encodeScenarioUrl(request);
      expect(search.startsWith(`?v=${URL_CODEC_VERSION}&`)).toBe(true);
      const decoded = decodeScenarioUrl(search, DEFAULT);
      expect(decoded).toEqual({ ok: true, request });
      // And again: encoding is canonical.
      expect(encodeScenarioUrl(decoded.request)).toBe(search);
    });
  }

  it('writes the documented shape, parameters sorted by name', () => {
    expect(encodeScenarioUrl(req('mglru-basic', 1, { memory_max: 2048, file_pages: 64 }))).toBe(
      '?v=1&scenario=mglru-basic&seed=1&file_pages=64&memory_max=2048',
    );
  });

  it('writes an experiment\'s variant after the seed, as a reserved key rather than a parameter', () => {
    const search = encodeScenarioUrl(req('kswapd-classzone', 1, { gap_ms: 300, bursts: 10 }, 'before'));
    expect(search).toBe('?v=1&scenario=kswapd-classzone&seed=1&variant=before&bursts=10&gap_ms=300');
    const decoded = decodeScenarioUrl(search, DEFAULT);
    expect(decoded.ok).toBe(true);
    expect(decoded.request.variant).toBe('before');
    expect(decoded.request.params).toEqual(new Map([['bursts', 10], ['gap_ms', 300]]));
    expect([...decoded.request.params!.keys()]).not.toContain('variant');
  });

  it('reads a v=1 URL written before variants existed: no variant, the engine picks its default', () => {
    const decoded = decodeScenarioUrl('?v=1&scenario=kswapd-classzone&seed=1', DEFAULT);
    expect(decoded).toEqual({ ok: true, request: req('kswapd-classzone', 1, {}) });
    expect('variant' in decoded.request).toBe(false);
    // And a request without a variant is written without one.
    expect(encodeScenarioUrl(decoded.request)).toBe('?v=1&scenario=kswapd-classzone&seed=1');
  });

  it('accepts a query string without the leading "?" and without a version', () => {
    expect(decodeScenarioUrl('scenario=mglru-basic&seed=9&memory_max=512', DEFAULT)).toEqual({
      ok: true,
      request: req('mglru-basic', 9, { memory_max: 512 }),
    });
  });

  it('an empty query string is the default scenario with the default seed', () => {
    expect(decodeScenarioUrl('', DEFAULT)).toEqual({ ok: true, request: req(DEFAULT, DEFAULT_SEED, {}) });
    expect(decodeScenarioUrl('?', 'other')).toEqual({ ok: true, request: req('other', DEFAULT_SEED, {}) });
  });

  it('refuses to encode what it could not decode', () => {
    expect(() => encodeScenarioUrl(req('a', 1.5, {}))).toThrow(/seed/);
    expect(() => encodeScenarioUrl(req('a', -1, {}))).toThrow(/seed/);
    expect(() => encodeScenarioUrl(req('a', 1, { x: Number.NaN }))).toThrow(/x/);
    expect(() => encodeScenarioUrl(req('a', 1, { seed: 3 }))).toThrow(/seed/);
    expect(() => encodeScenarioUrl(req('a', 1, { variant: 3 }))).toThrow(/variant/);
    expect(() => encodeScenarioUrl(req('a', 1, {}, 'no spaces'))).toThrow(/variant/);
  });
});

describe('scenario URL codec: malformed values', () => {
  it('rejects an unsupported version and ignores the whole URL', () => {
    const decoded = decodeScenarioUrl('?v=2&scenario=other&seed=5&memory_max=9', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors).toHaveLength(1);
    expect(decoded.errors[0]).toMatch(/^v: /);
    expect(decoded.errors[0]).toContain('"2"');
    expect(decoded.request).toEqual(req(DEFAULT, DEFAULT_SEED, {}));
  });

  it('rejects a version that is not a number', () => {
    const decoded = decodeScenarioUrl('?v=one&seed=5', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.errors[0]).toMatch(/^v: unsupported URL version "one"/);
  });

  it.each([['abc'], ['-1'], ['1.5'], ['1e3'], [''], [' 7'], ['9007199254740993'], ['0x10']])(
    'rejects seed=%j, naming the key, and keeps the rest',
    (seed) => {
      const decoded = decodeScenarioUrl(`?v=1&scenario=mglru-basic&seed=${encodeURIComponent(seed)}&memory_max=2048`, DEFAULT);
      expect(decoded.ok).toBe(false);
      if (decoded.ok) return;
      expect(decoded.errors).toHaveLength(1);
      expect(decoded.errors[0]).toMatch(/^seed: /);
      expect(decoded.errors[0]).toContain(JSON.stringify(seed));
      expect(decoded.request).toEqual(req('mglru-basic', DEFAULT_SEED, { memory_max: 2048 }));
    },
  );

  it.each([
    ['1e', "is not a number; ignored"],
    ['abc', "is not a number; ignored"],
    ['12px', "is not a number; ignored"],
    ['1,5', "is not a number; ignored"],
    ['--1', "is not a number; ignored"],
    ['Infinity', "is not a number; ignored"],
    ['NaN', "is not a number; ignored"],
    ['0x1f', "is not a number; ignored"],
    ['1e999', "is too large; using the scenario's default"],
  ])('rejects param x=%j, naming the key', (value, why) => {
    const decoded = decodeScenarioUrl(`?v=1&seed=3&x=${encodeURIComponent(value)}&y=2`, DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors).toEqual([`x: ${JSON.stringify(value)} ${why}`]);
    expect(decoded.request).toEqual(req(DEFAULT, 3, { y: 2 }));
  });

  it('rejects an empty parameter value, naming the key', () => {
    const decoded = decodeScenarioUrl('?v=1&memory_max=&seed=2', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors).toEqual([expect.stringMatching(/^memory_max: no value/)]);
    expect(decoded.request.params).toEqual(new Map());
  });

  it('rejects an empty scenario name and an empty seed', () => {
    const decoded = decodeScenarioUrl('?v=1&scenario=&seed=', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors).toHaveLength(2);
    expect(decoded.errors[0]).toMatch(/^scenario: /);
    expect(decoded.errors[1]).toMatch(/^seed: /);
    expect(decoded.request).toEqual(req(DEFAULT, DEFAULT_SEED, {}));
  });

  it('rejects a repeated key instead of picking one', () => {
    const decoded = decodeScenarioUrl('?seed=1&seed=2&k=1&k=1', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors).toEqual([expect.stringMatching(/^seed: given 2 times/), expect.stringMatching(/^k: given 2 times/)]);
    expect(decoded.request).toEqual(req(DEFAULT, DEFAULT_SEED, {}));
  });

  it('rejects a key that cannot be a parameter name', () => {
    const decoded = decodeScenarioUrl('?v=1&bad-key=1&ok_key=2', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors).toEqual([expect.stringMatching(/^bad-key: not a parameter name/)]);
    expect(decoded.request.params).toEqual(new Map([['ok_key', 2]]));
  });

  it('names a key that is not UTF-8 or holds control characters as the address writes it', () => {
    const decoded = decodeScenarioUrl('?v=1&%FF%A=1&a%0Ab=2&%FF%A=3&ok_key=2', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors).toEqual(['%FF%A: given 2 times; ignored', expect.stringMatching(/^a%0Ab: not a parameter name/)]);
    expect(decoded.errors.join('')).not.toMatch(/[\uFFFD\n]/);
    expect(decoded.request.params).toEqual(new Map([['ok_key', 2]]));
  });

  it.each([[''], ['bad variant'], ['-x'], ['a&b']])('rejects variant=%j, naming the key, and keeps the rest', (variant) => {
    const decoded = decodeScenarioUrl(`?v=1&scenario=kswapd-classzone&seed=4&variant=${encodeURIComponent(variant)}&bursts=3`, DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors).toEqual([`variant: ${JSON.stringify(variant)} is not a variant name; using the experiment's default`]);
    expect(decoded.request).toEqual(req('kswapd-classzone', 4, { bursts: 3 }));
    expect('variant' in decoded.request).toBe(false);
  });

  it('leaves an unknown but well-formed variant to the engine', () => {
    // The codec checks syntax only; the engine names the variants it knows.
    expect(decodeScenarioUrl('?scenario=kswapd-classzone&variant=bogus', DEFAULT)).toEqual({
      ok: true,
      request: req('kswapd-classzone', DEFAULT_SEED, {}, 'bogus'),
    });
  });

  it('rejects a repeated variant', () => {
    const decoded = decodeScenarioUrl('?scenario=kswapd-classzone&variant=before&variant=after', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.errors).toEqual([expect.stringMatching(/^variant: given 2 times/)]);
    expect(decoded.request.variant).toBeUndefined();
  });

  it('says what a seed may be: a whole number up to 2^53 - 1, which the app can hold exactly', () => {
    const decoded = decodeScenarioUrl('?v=1&scenario=mglru-basic&seed=9007199254740993', DEFAULT);
    expect(decoded.ok ? [] : decoded.errors).toEqual(['seed: "9007199254740993" is not a seed (a whole number from 0 to 9007199254740991); using 1']);
  });

  it('keeps a parameter named __proto__ for the engine to name, and names a key with no name', () => {
    const decoded = decodeScenarioUrl('?v=1&scenario=mglru-basic&__proto__=5&=3', DEFAULT);
    const params = paramRecord(decoded.request);
    expect(Object.keys(params)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(params, '__proto__')?.value).toBe(5);
    expect(decoded.ok ? [] : decoded.errors).toEqual(['(a key with no name): not a parameter name (a letter or _, then letters, digits or _); ignored']);
  });

  it('quotes a long value in part, saying how long it was', () => {
    const decoded = decodeScenarioUrl(`?v=1&scenario=${'a'.repeat(300)}!`, DEFAULT);
    expect(decoded.ok ? [] : decoded.errors).toEqual([`scenario: unknown scenario "${'a'.repeat(60)}"… (301 characters) (a scenario's name is letters, digits, ".", "_" and "-", from a letter or digit); using ${DEFAULT}`]);
  });

  it("runs a custom scenario on its document's seed unless the link names one", () => {
    const doc = JSON.stringify({ version: 1, name: 'mine', seed: 5 });
    expect(decodeScenarioUrl(`?v=1&scenario=${encodeURIComponent(doc)}`, DEFAULT).request.seed).toBe(5);
    expect(decodeScenarioUrl(`?v=1&scenario=${encodeURIComponent(doc)}&seed=2`, DEFAULT).request.seed).toBe(2);
  });

  it('quotes a value that does not decode as written (%FF) as the address writes it', () => {
    const decoded = decodeScenarioUrl('?v=1&scenario=mglru-basic&memory_max=%FF2', DEFAULT);
    expect(decoded.ok ? [] : decoded.errors).toEqual(['memory_max: "%FF2" is not a number; ignored']);
  });

  it("names a key the scenario does not have as such, whatever its value, when it knows the scenario's parameters", () => {
    const unknown = (name: string, key: string) =>
      name === 'mglru-basic' && !['memory_max', 'file_pages'].includes(key) ? 'mglru-basic has no such parameter (memory_max, file_pages); ignored' : null;
    const decoded = decodeScenarioUrl('?v=1&scenario=mglru-basic&bad0=x&memory_max=y', DEFAULT, unknown);
    expect(decoded.ok ? [] : decoded.errors).toEqual([
      'bad0: mglru-basic has no such parameter (memory_max, file_pages); ignored',
      'memory_max: "y" is not a number; ignored',
    ]);
    // Without the list, the codec can only say what is wrong with the value.
    const alone = decodeScenarioUrl('?v=1&scenario=mglru-basic&bad0=x', DEFAULT);
    expect(alone.ok ? [] : alone.errors).toEqual(['bad0: "x" is not a number; ignored']);
  });

  it('names a reserved key written in another case', () => {
    const decoded = decodeScenarioUrl('?v=1&Scenario=classic-basic&SEED=3', DEFAULT);
    expect(decoded.ok ? [] : decoded.errors).toEqual([
      'Scenario: keys are case-sensitive; did you mean scenario? ignored',
      'SEED: keys are case-sensitive; did you mean seed? ignored',
    ]);
  });

  it('reports every bad value at once', () => {
    const decoded = decodeScenarioUrl('?v=1&seed=abc&a=1e&b=&c=5', DEFAULT);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.errors.map((e) => e.split(':')[0])).toEqual(['seed', 'a', 'b']);
    expect(decoded.request).toEqual(req(DEFAULT, DEFAULT_SEED, { c: 5 }));
  });
});
