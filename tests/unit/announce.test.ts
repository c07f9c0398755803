// The screen-reader line after a step: where it landed and what acted.
import { describe, expect, it } from 'vitest';
import { stepAnnouncement } from '../../web/src/controls/announce';
import type { EventView } from '../../web/src/engine/pkg/reclaim_core';

const event = (fn: string): EventView => ({ step: 5, timeNs: 50e6, kind: 'aging', function: fn, reason: '' });

describe('stepAnnouncement', () => {
  it('says where the step landed, then the kernel functions that acted, counted', () => {
    expect(stepAnnouncement({ step: 5, timeNs: 50e6, events: [] })).toBe('Step 5, 50.000 ms simulated');
    const events = ['inc_max_seq', 'evict_folios', 'evict_folios'].map(event);
    expect(stepAnnouncement({ step: 5, timeNs: 50e6, events })).toBe('Step 5, 50.000 ms simulated: inc_max_seq, evict_folios ×2');
  });

  it('names four functions at most and counts the rest', () => {
    const events = ['a', 'b', 'c', 'd', 'e', 'f'].map(event);
    expect(stepAnnouncement({ step: 1200, timeNs: 1.2e9, events })).toBe('Step 1,200, 1.200 s simulated: a, b, c, d, and 2 more');
  });
});
