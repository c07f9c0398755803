// What a screen reader hears when a step, a step back or a jump lands: where
// it landed, and which kernel functions acted in the step shown (the events
// the Events list shows), so that a listener learns as much as a glance at
// the views gives: "Step 5, 50.000 ms simulated: inc_max_seq, evict_folios ×2".
import type { Frame } from '../engine/pkg/reclaim_core';
import { formatCount, formatMs } from '../util/format';

/** The most functions named; the rest are counted. */
const NAMED = 4;

export function stepAnnouncement(frame: Pick<Frame, 'step' | 'timeNs' | 'events'>): string {
  const landed = `Step ${formatCount(frame.step)}, ${formatMs(frame.timeNs)} simulated`;
  const counts = new Map<string, number>();
  for (const e of frame.events) counts.set(e.function, (counts.get(e.function) ?? 0) + 1);
  if (counts.size === 0) return landed;
  const named = [...counts].slice(0, NAMED).map(([fn, n]) => (n > 1 ? `${fn} ×${n}` : fn));
  const more = counts.size > NAMED ? `, and ${counts.size - NAMED} more` : '';
  return `${landed}: ${named.join(', ')}${more}`;
}
