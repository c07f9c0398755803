// Links mangled on their way are repaired before they are read, and the
// notice says what was undone (scenario/repair.ts).
import { describe, expect, it } from 'vitest';
import { repairAddress } from '../../web/src/scenario/repair';

const LINK = '?v=1&scenario=kswapd-classzone&seed=2&step=105&tab=system';

describe('repairAddress', () => {
  it('leaves a link as written alone, with no note', () => {
    expect(repairAddress('/', LINK)).toEqual({ pathname: '/', search: LINK, notes: [] });
    expect(repairAddress('/', '')).toEqual({ pathname: '/', search: '', notes: [] });
    // A custom scenario's document ends in an encoded "}": not punctuation to drop.
    const custom = `?v=1&scenario=${encodeURIComponent('{"version":1}')}`;
    expect(repairAddress('/', custom).search).toBe(custom);
  });

  it('drops what a sentence or a mail client put after the link, raw or encoded', () => {
    for (const tail of [')', '>', '.', ',', '"', ').', '%3E', '%29']) {
      const r = repairAddress('/', LINK + tail);
      expect(r.search, tail).toBe(LINK);
      expect(r.notes, tail).toHaveLength(1);
    }
    expect(repairAddress('/', `${LINK})`).notes[0]).toBe('")" after its end (where a sentence or a mail client put it) was left out');
    // A "." after a number is the same number either way ("1." reads as 1): dropped without a word.
    expect(repairAddress('/', `${LINK.replace('tab=system', 'zipf_s=1')}.`)).toEqual({ pathname: '/', search: LINK.replace('tab=system', 'zipf_s=1'), notes: [] });
  });

  it('reads "&amp;" as "&"', () => {
    const r = repairAddress('/', LINK.replace(/&/g, '&amp;'));
    expect(r.search).toBe(LINK);
    expect(r.notes).toEqual(['its "&" were written "&amp;" (HTML-escaped, as a web page or an HTML mail shows them): read as "&"']);
  });

  it('decodes a query percent-encoded once or twice too often', () => {
    const once = `?${encodeURIComponent(LINK.slice(1))}`;
    expect(repairAddress('/', once)).toEqual({ pathname: '/', search: LINK, notes: ['its query was percent-encoded once too often: read decoded'] });
    const twice = `?${encodeURIComponent(encodeURIComponent(LINK.slice(1)))}`;
    expect(repairAddress('/', twice).search).toBe(LINK);
    expect(repairAddress('/', twice).notes).toEqual(['its query was percent-encoded 2 times too often: read decoded']);
  });

  it('takes a query folded into the path back out of it', () => {
    const path = `/${encodeURIComponent(encodeURIComponent(LINK))}`;
    const r = repairAddress(path, '');
    expect(r.pathname).toBe('/');
    expect(r.search).toBe(LINK);
    expect(r.notes[0]).toMatch(/^it was percent-encoded whole/);
  });
});
