// The tour of patch 003 (T.J. Mercier, 2024, "mm: memcg: use larger
// batches for proactive reclaim"): memory.reclaim asks for a quarter of what
// is left each round. Steps at the experiment's defaults, seed 1.
import ENGINE_CONSTANTS from '../engine/pkg/engine-constants.json';
import type { Frame, ReclaimView } from '../engine/pkg/reclaim_core';
import { all, expect, metric, type TourStep } from './types';

/** The first write (12.5 % of the apps' memory to /uid_0) and the second (everything, to the root). */
const uid0 = (f: Frame): ReclaimView | undefined => f.reclaims.find((r) => r.memcg === '/uid_0');
const root = (f: Frame): ReclaimView | undefined => f.reclaims.find((r) => r.memcg === '/');
const SWAP_CLUSTER_MAX: number = ENGINE_CONSTANTS.swapClusterMax;

/** The tour's steps (its title and summary are in the catalog, index.ts, which loads this file when the tour opens). */
export const STEPS: TourStep[] = [
  {
    title: 'Idle apps under /uid_0',
    text:
      '/uid_0 holds 64 app memcgs of 1,024 to 3,072 pages each, half anonymous memory and half page cache; they fill their memory in the first second and then sit idle. At one second a userspace agent writes to memory.reclaim twice, as in the patch\'s tables: 12.5 % of what the apps hold to /uid_0, then everything to the root.',
    variant: 'after',
    at: { step: 0 },
    tab: 'memcgs',
    anchor: 'memcgs',
    check: (f) => expect(f.memcgs.filter((m) => m.path.startsWith('/uid_0/')).length === 64, 'there are not 64 app memcgs'),
  },
  {
    title: 'The whole request at once',
    text:
      'Up to v6.5, memory_reclaim() passed the whole remaining request to try_to_free_mem_cgroup_pages(). Below /uid_0, shrink_node_memcgs() walks the children and each gives its share at the current priority before do_try_to_free_pages() checks the total, so /uid_0\'s write (the table\'s second row) took a single round that overshot its request by about a fifth (+3,587 pages in the overreclaim column). The chart beneath shows the rounds of the root\'s write (the first row, selected); click the /uid_0 row to see its one round.',
    variant: 'whole',
    at: { from: 0, until: 'reclaim' },
    tab: 'memcgs',
    anchor: 'reclaim',
    check: (f) => {
      const w = uid0(f);
      return all(
        expect(!!w && w.rounds.length === 1, "/uid_0's write did not take one round"),
        expect(!!w && w.overreclaim > 0.1 * w.requested, "/uid_0's write did not overshoot by more than 10 %"),
        expect(!!w && w.overreclaim > 0.15 * w.requested && w.overreclaim < 0.3 * w.requested, "/uid_0's write did not overshoot by about a fifth"),
        expect(!!w && Math.abs(w.overreclaim - 3587) < 100, "/uid_0's write did not overshoot by about 3,587 pages"),
        expect(f.reclaims[f.reclaims.length - 1]?.memcg === '/', "the root's write is not the one the Rounds chart shows"),
      );
    },
  },
  {
    title: '32 pages a round: accurate, slow',
    text:
      'Commit 0388536ac291 (v6.6 to v6.8) capped every round at SWAP_CLUSTER_MAX, 32 pages: /uid_0\'s write now lands within a few pages of its request, but the root\'s full reclaim takes about 1,800 rounds. Each round is a new try_to_free_mem_cgroup_pages() call with a fresh scan_control and lru_add_drain(), starting again at DEF_PRIORITY (32 pages are less than MIN_LRU_BATCH, so set_initial_priority() leaves it there), where its first passes over the memcg LRU find nothing to evict; the "took" column adds that cost up (docs/cost-model.md).',
    variant: 'before',
    at: { from: 0, until: 'reclaim' },
    tab: 'memcgs',
    anchor: 'reclaim',
    check: (f) => {
      const w = uid0(f);
      const r = root(f);
      return all(
        expect(!!w && w.overreclaim >= 0 && w.overreclaim < SWAP_CLUSTER_MAX, "/uid_0's write is not within 32 pages of its request"),
        expect(!!r && r.rounds.length > 1000, "the root's write did not take more than 1,000 rounds"),
        expect(!!r && r.rounds.every((x) => x.batch <= SWAP_CLUSTER_MAX), 'a round asked for more than 32 pages'),
      );
    },
  },
  {
    title: 'Small rounds churn the memcg LRU',
    text:
      'The root\'s write is served through the memcg LRU (lru_gen_shrink_node, shrink_many). A 32-page round is below MIN_LRU_BATCH, so set_initial_priority() does not skip the high priorities, where most memcgs are too small to scan and are rotated with lru_gen_rotate_memcg(): the memcg LRU\'s seq has advanced thousands of times during this one write.',
    variant: 'before',
    at: { from: 0, until: 'reclaim' },
    tab: 'memcgs',
    anchor: 'memcg-lru',
    check: (f) => expect((f.nodes[0]?.memcgLru?.seq ?? 0) > 1000, 'the memcg LRU seq has not advanced more than 1,000 times'),
  },
  {
    title: 'A quarter of what is left',
    text:
      'The patch asks for (nr_to_reclaim - nr_reclaimed) / 4 each round, so the batches shrink as the write nears its target (the Rounds chart). /uid_0\'s write lands as close to its request as with 32-page rounds, and the root\'s full reclaim needs a few dozen rounds and, in the "took" column (the write\'s own time from the cost model, not the page\'s clock), about 0.67 s instead of about 1.6. That is about the time the SSD takes to write the anon pages out, one per IO_SERVICE_NS: the patch goes at the device\'s pace.',
    variant: 'after',
    at: { from: 0, until: 'reclaim' },
    tab: 'memcgs',
    anchor: 'reclaim',
    check: (f) => {
      const w = uid0(f);
      const r = root(f);
      return all(
        expect(!!w && w.overreclaim >= 0 && w.overreclaim < SWAP_CLUSTER_MAX, "/uid_0's write is not within 32 pages of its request"),
        expect(!!r && r.rounds.length < 100, "the root's write took 100 rounds or more"),
        expect(!!r && r.durationNs > 0.6e9 && r.durationNs < 0.8e9, "the root's write did not take between 0.6 and 0.8 seconds"),
        expect(!!r && r.rounds.length > 1 && r.rounds[1]!.batch < r.rounds[0]!.batch, 'the batches do not shrink'),
      );
    },
  },
  {
    title: 'The result',
    text:
      'Every variant runs to the end on the same seed: with a quarter of the rest a round, pages_per_sec is about 2.4 times that of 32-page rounds and about that of the whole request (the patch: 13,742 to 67,352 pages/s for the root). overreclaim_pages is a few pages where the whole request overshoots by thousands; with small requests or small apps the two overshoot alike, as "Where it does not hold" explains.',
    variant: 'after',
    tab: 'comparison',
    anchor: 'comparison',
    // The rows the text is about: the panel keeps clear of their names.
    marks: ['tr[data-metric="pages_per_sec"]', 'tr[data-metric="overreclaim_pages"]'],
    compare: true,
    checkComparison: (c) =>
      all(
        expect(metric(c, 'after', 'pages_per_sec') > 2.2 * metric(c, 'before', 'pages_per_sec'), 'after is not about 2.4 times as fast as before'),
        expect(metric(c, 'after', 'pages_per_sec') < 2.5 * metric(c, 'before', 'pages_per_sec'), 'after is not about 2.4 times as fast as before'),
        expect(metric(c, 'after', 'pages_per_sec') > 0.8 * metric(c, 'whole', 'pages_per_sec'), 'after is not about as fast as whole'),
        expect(metric(c, 'after', 'overreclaim_pages') < SWAP_CLUSTER_MAX, 'after overshoots by 32 pages or more'),
        expect(metric(c, 'whole', 'overreclaim_pages') > 1000, 'whole does not overshoot by thousands of pages'),
      ),
  },
];
