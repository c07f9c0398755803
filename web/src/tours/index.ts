// The guided tours' catalog: one per experiment, in the order the experiments
// are listed, with what the first page shows of them (titles, summaries, the
// view each experiment opens on). A tour's steps (their texts and checks,
// most of the tours' weight) are in a file of their own, loaded in a chunk of
// its own when the tour first opens (docs/performance.md).
import type { Tour, TourInfo, TourStep } from './types';

export type { Tour, TourInfo, TourStep, Position } from './types';

export const TOURS: readonly TourInfo[] = [
  {
    experiment: 'memcg-lru-fairness',
    title: 'The memcg LRU: reclaim that stops in time and is fair over time',
    summary: 'See root memory.reclaim take from every memcg at once without the memcg LRU, and take just enough, in turns, with it.',
    firstTab: 'memcgs',
  },
  {
    experiment: 'multi-memcg-kswapd',
    title: 'kswapd over several memcgs: drop the page cache first',
    summary:
      'See kswapd age and swap out an idle-looking key-value store before the patch, and leave it alone while single-use page cache is there to drop after it.',
    firstTab: 'lru',
  },
  {
    experiment: 'proactive-reclaim-batching',
    title: 'memory.reclaim batches: speed against overreclaim',
    summary: 'See the three batch policies of memory.reclaim serve the same two writes: the whole request, 32 pages, and a quarter of what is left.',
    firstTab: 'memcgs',
  },
  {
    experiment: 'kswapd-classzone',
    title: "kswapd's zone index: sleeping too early",
    summary: 'Watch kswapd go to sleep with ZONE_NORMAL below its high watermark before the patch, and stay up until it is balanced after it.',
    firstTab: 'system',
  },
  {
    experiment: 'refault-distance-mglru',
    title: 'Refault distance for MGLRU: a working set larger than memory',
    summary:
      "See upstream MGLRU keep a file larger than memory stuck in its oldest generation, and the patch's refault distance get generations, tiers and swap moving again.",
    firstTab: 'lru',
  },
];

/** Each tour's steps, by experiment: a chunk of its own, fetched when the tour first opens. */
const STEP_FILES: Record<string, () => Promise<{ STEPS: TourStep[] }>> = {
  'memcg-lru-fairness': () => import('./memcg-lru-fairness'),
  'multi-memcg-kswapd': () => import('./multi-memcg-kswapd'),
  'proactive-reclaim-batching': () => import('./proactive-reclaim-batching'),
  'kswapd-classzone': () => import('./kswapd-classzone'),
  'refault-distance-mglru': () => import('./refault-distance-mglru'),
};

/** The tour of an experiment (tours are named after their experiment). */
export function findTour(name: string): TourInfo | undefined {
  return TOURS.find((t) => t.experiment === name);
}

const loaded = new Map<string, Promise<Tour>>();
const ready = new Map<string, Tour>();

/** A tour whose steps have loaded already (undefined before that): opening it again needs no wait. */
export function loadedTour(name: string): Tour | undefined {
  return ready.get(name);
}

/**
 * A tour with its steps, loading them the first time. Rejects for a name
 * with no tour, or when the steps' chunk cannot be fetched (then the next
 * call tries again).
 */
export function loadTour(name: string): Promise<Tour> {
  const info = findTour(name);
  const file = STEP_FILES[name];
  if (!info || !file) return Promise.reject(new Error(`there is no tour named ${JSON.stringify(name)}`));
  let tour = loaded.get(name);
  if (!tour) {
    tour = file().then(({ STEPS }) => {
      const whole = { ...info, steps: STEPS };
      ready.set(name, whole);
      return whole;
    });
    tour.catch(() => loaded.delete(name));
    loaded.set(name, tour);
  }
  return tour;
}

/** The `data-tour` anchors the views carry (tests check every step names one of them). */
export const ANCHORS = [
  'comparison',
  'counters',
  'events',
  'generations',
  'kswapd',
  'memcg-lru',
  'memcgs',
  'reclaim',
  'shadows',
  'tiers',
  'zones',
] as const;
