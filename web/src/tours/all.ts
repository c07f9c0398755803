// Every tour with its steps, imported at once: for the tests, which walk
// them all. The page loads one tour's steps when it opens (loadTour).
import { TOURS, type Tour } from './index';
import { STEPS as KSWAPD_CLASSZONE } from './kswapd-classzone';
import { STEPS as MEMCG_LRU_FAIRNESS } from './memcg-lru-fairness';
import { STEPS as MULTI_MEMCG_KSWAPD } from './multi-memcg-kswapd';
import { STEPS as PROACTIVE_RECLAIM_BATCHING } from './proactive-reclaim-batching';
import { STEPS as REFAULT_DISTANCE_MGLRU } from './refault-distance-mglru';
import type { TourStep } from './types';

const STEPS: Record<string, TourStep[]> = {
  'memcg-lru-fairness': MEMCG_LRU_FAIRNESS,
  'multi-memcg-kswapd': MULTI_MEMCG_KSWAPD,
  'proactive-reclaim-batching': PROACTIVE_RECLAIM_BATCHING,
  'kswapd-classzone': KSWAPD_CLASSZONE,
  'refault-distance-mglru': REFAULT_DISTANCE_MGLRU,
};

/** The tours of the catalog, each with its steps (a tour with no steps file has none, which the tests refuse). */
export const ALL_TOURS: readonly Tour[] = TOURS.map((info) => ({ ...info, steps: STEPS[info.experiment] ?? [] }));
