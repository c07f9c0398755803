// The readable link's page keys (web/src/scenario/pageUrl.ts): step, tab,
// tour and tourStep next to the run keys of url.ts, never taken for
// scenario parameters; malformed values named and ignored.
import { describe, expect, it } from 'vitest';
import { makeRequest as req } from '../../web/src/scenario/params';
import { readHash, decodePageView, encodePageUrl, hasPageKeys, withoutPageKeys } from '../../web/src/scenario/pageUrl';
import { MAX_SHARED_STEP } from '../../web/src/scenario/share';
import { decodeScenarioUrl } from '../../web/src/scenario/url';
import { addressFor } from '../../web/src/share/useAddressBar';
import { listedProblems } from '../../web/src/share/LinkProblems';

describe('page keys: round trip', () => {
  it('writes the run, then step and tab, readable', () => {
    const search = encodePageUrl(req('kswapd-classzone', 1, { gap_ms: 300 }, 'before'), { step: 105, tab: 'system' });
    expect(search).toBe('?v=1&scenario=kswapd-classzone&seed=1&variant=before&gap_ms=300&step=105&tab=system');
    expect(decodePageView(search)).toEqual({ view: { step: 105, tab: 'system' }, errors: [] });
    // The run keys decode as before: the page keys are not parameters.
    expect(decodeScenarioUrl(search, 'mglru-basic')).toEqual({ ok: true, request: req('kswapd-classzone', 1, { gap_ms: 300 }, 'before') });
  });

  it('writes a tour and its step', () => {
    const search = encodePageUrl(req('refault-distance-mglru', 1, {}, 'after'), { tour: 'refault-distance-mglru', tourStep: 4 });
    expect(search).toBe('?v=1&scenario=refault-distance-mglru&seed=1&variant=after&tour=refault-distance-mglru&tourStep=4');
    expect(decodePageView(search).view).toEqual({ tour: 'refault-distance-mglru', tourStep: 4 });
  });

  it('knows when a query has page keys, and drops them', () => {
    expect(hasPageKeys('?v=1&scenario=a&seed=1')).toBe(false);
    expect(hasPageKeys('?v=1&scenario=a&seed=1&tab=lru')).toBe(true);
    expect(withoutPageKeys('?v=1&scenario=a&seed=1&step=3&tab=lru&tour=a&tourStep=2&x=1')).toBe('?v=1&scenario=a&seed=1&x=1');
    expect(withoutPageKeys('?step=3')).toBe('');
  });

  it('refuses to write what it could not read', () => {
    const r = req('a', 1, {});
    expect(() => encodePageUrl(r, { step: -1 })).toThrow(/step/);
    expect(() => encodePageUrl(r, { step: 1.5 })).toThrow(/step/);
    expect(() => encodePageUrl(r, { step: MAX_SHARED_STEP + 1 })).toThrow(/step/);
    expect(() => encodePageUrl(r, { tour: 'no spaces' })).toThrow(/tour/);
    expect(() => encodePageUrl(r, { tourStep: 2 })).toThrow(/tour/);
    expect(() => encodePageUrl(r, { tour: 'a', tourStep: 0 })).toThrow(/tourStep/);
  });
});

describe('page keys: malformed values are named and ignored', () => {
  const cases: [string, RegExp][] = [
    ['step=ten', /^step: "ten" is not a whole number from 0 to/],
    ['step=-1', /^step: "-1" is not a whole number/],
    ['step=2.5', /^step: "2.5" is not a whole number/],
    [`step=${MAX_SHARED_STEP + 1}`, /^step: .* from 0 to 10,000,000; ignored$/],
    ['tab=graphs', /^tab: "graphs" is not a view \(comparison, lru, system, memcgs, shadows/],
    ['tour=a%20b', /^tour: "a b" is not a tour name/],
    ['tour=a&tourStep=0', /^tourStep: "0" is not a whole number from 1/],
    ['tourStep=2', /^tourStep: given without a tour/],
    ['step=1&step=2', /^step: given 2 times/],
  ];
  for (const [query, message] of cases) {
    it(query, () => {
      const { view, errors } = decodePageView(`?v=1&scenario=a&seed=1&${query}`);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(message);
      // What was bad is not applied; the rest is.
      expect(view.step).toBeUndefined();
      expect(view.tab).toBeUndefined();
      expect(view.tourStep).toBeUndefined();
    });
  }

  it('quotes a value that does not decode as written (%FF) as the address writes it', () => {
    expect(decodePageView('?v=1&tab=%FF').errors[0]).toMatch(/^tab: "%FF" is not a view/);
    expect(decodePageView('?v=1&step=1%0A').errors[0]).toMatch(/^step: "1%0A" is not a whole number/);
  });

  it('a bad page key leaves the run keys alone', () => {
    expect(decodeScenarioUrl('?v=1&scenario=a&seed=2&step=ten&tab=x&memory_max=5', 'b')).toEqual({
      ok: true,
      request: req('a', 2, { memory_max: 5 }),
    });
  });
});

describe('the address bar (addressFor)', () => {
  const run = req('kswapd-classzone', 3, { bursts: 4 }, 'before');
  const base = '?v=1&scenario=kswapd-classzone&seed=3&variant=before&bursts=4';

  it('adds the step past 0 and a view other than the page\'s first', () => {
    expect(addressFor({ request: run, step: 0, tab: 'comparison', firstTab: 'comparison' })).toBe(base);
    expect(addressFor({ request: run, step: 42, tab: 'comparison', firstTab: 'comparison' })).toBe(`${base}&step=42`);
    expect(addressFor({ request: run, step: 42, tab: 'system', firstTab: 'comparison' })).toBe(`${base}&step=42&tab=system`);
    expect(addressFor({ request: run, step: 0, tab: 'lru', firstTab: 'comparison' })).toBe(`${base}&tab=lru`);
  });

  it('reads back as the same run, step and view', () => {
    const query = addressFor({ request: run, step: 42, tab: 'memcgs', firstTab: 'comparison' })!;
    expect(decodeScenarioUrl(query, 'mglru-basic')).toEqual({ ok: true, request: run });
    expect(decodePageView(query)).toEqual({ view: { step: 42, tab: 'memcgs' }, errors: [] });
  });

  it('side by side: the two variants as written, and the step of the sides, not of the page', () => {
    const query = addressFor({ request: run, step: 0, tab: 'system', firstTab: 'comparison', compare: { variants: ['merged-v4.12', 'after'], step: 40 } })!;
    expect(query).toBe(`${base}&compare=merged-v4.12,after&step=40&tab=system`);
    expect(decodePageView(query)).toEqual({ view: { compare: ['merged-v4.12', 'after'], step: 40, tab: 'system' }, errors: [] });
    expect(decodePageView(`${base}&compare=before`).errors).toEqual([
      'compare: "before" is not two variant names with a comma between them (compare=before,after); ignored',
    ]);
    expect(decodePageView(`${base}&compare=a,b,c`).view.compare).toBeUndefined();
  });

  it('says nothing without a run or a frame, or for a view no link names', () => {
    expect(addressFor({ request: null, step: 3, tab: 'lru', firstTab: 'lru' })).toBeNull();
    expect(addressFor({ request: run, step: null, tab: 'lru', firstTab: 'lru' })).toBeNull();
    expect(addressFor({ request: run, step: 3, tab: 'trace', firstTab: 'lru' })).toBe(`${base}&step=3`);
  });
});

describe('the hash (readHash)', () => {
  it('leaves no hash and #trace (the trace replay page) to the page', () => {
    expect(readHash('', '?v=1&scenario=mglru-basic')).toEqual({ message: null, drop: false });
    expect(readHash('#trace', '')).toEqual({ message: null, drop: false });
  });

  it("reads a link's keys put after # as the query they were meant to be", () => {
    const r = readHash('#v=1&scenario=kswapd-classzone&step=20', '');
    expect(r.query).toBe('?v=1&scenario=kswapd-classzone&step=20');
    expect(r.drop).toBe(true);
    expect(r.message).toContain('they were read as ?v=1&scenario=kswapd-classzone&step=20');
    // Not when the link has a query of its own: that one is the run.
    expect(readHash('#scenario=kswapd-classzone', '?v=1&scenario=mglru-basic').query).toBeUndefined();
  });

  it('names any other hash and drops it', () => {
    const r = readHash('#garbage', '');
    expect(r).toEqual({ message: 'the page has no part called "#garbage" (only #trace, the trace replay page); ignored', drop: true });
  });
});

describe('the notices about unused parts of a link', () => {
  it('list the first eight problems, then how many more there were', () => {
    expect(listedProblems(['seed: "x" is not a seed; using 1'])).toEqual(['seed: "x" is not a seed; using 1']);
    const many = Array.from({ length: 11 }, (_, i) => `p${i}: no such parameter`);
    expect(listedProblems(many)).toEqual([...many.slice(0, 8), 'and 3 more like these, not listed']);
    expect(listedProblems(many.slice(0, 8))).toEqual(many.slice(0, 8));
  });

  it("say why the whole URL was left out when it is of a version this build does not read", () => {
    const decoded = decodeScenarioUrl('?v=9&scenario=classic-basic', 'mglru-basic');
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.whole).toBe(true);
    const partly = decodeScenarioUrl('?v=1&seed=x', 'mglru-basic');
    expect(!partly.ok && partly.whole).toBeFalsy();
  });
});
