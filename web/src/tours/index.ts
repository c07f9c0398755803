// Every guided tour, one per experiment, in the order the experiments are listed.
import { KSWAPD_CLASSZONE_TOUR } from './kswapd-classzone';
import { MEMCG_LRU_FAIRNESS_TOUR } from './memcg-lru-fairness';
import { MULTI_MEMCG_KSWAPD_TOUR } from './multi-memcg-kswapd';
import { PROACTIVE_RECLAIM_BATCHING_TOUR } from './proactive-reclaim-batching';
import { REFAULT_DISTANCE_MGLRU_TOUR } from './refault-distance-mglru';
import type { Tour } from './types';

export type { Tour, TourStep, Position } from './types';

export const TOURS: readonly Tour[] = [
  MEMCG_LRU_FAIRNESS_TOUR,
  MULTI_MEMCG_KSWAPD_TOUR,
  PROACTIVE_RECLAIM_BATCHING_TOUR,
  KSWAPD_CLASSZONE_TOUR,
  REFAULT_DISTANCE_MGLRU_TOUR,
];

/** The tour of an experiment (tours are named after their experiment). */
export function findTour(name: string): Tour | undefined {
  return TOURS.find((t) => t.experiment === name);
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
