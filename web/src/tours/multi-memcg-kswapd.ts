// The tour of patch 000 (Yu Zhao, 2022, "mm: multi-gen LRU: optimize
// multiple memcgs"): kswapd first reclaims memcgs that can drop single-use
// page cache without aging, and backs off. Steps at the experiment's
// defaults, seed 1.
import type { Frame } from '../engine/pkg/reclaim_core';
import { all, counter, events, expect, lruvec, lruvecPages, metric, zone, type TourStep } from './types';

const MEMCACHED = { lruvec: '/memcached@0' };
/** memcached's key-value store at the defaults: half of 32,768 pages. */
const STORE = 16_384;
const memcachedMaxSeq = (f: Frame) => lruvec(f, '/memcached')?.maxSeq ?? 0;
/** The share of a lruvec's anon pages in its oldest anon generation. */
function oldestShare(f: Frame, memcg: string): number {
  const l = lruvec(f, memcg);
  const oldest = l?.gens.find((g) => g.seq === l.minSeq[0]);
  const total = lruvecPages(f, memcg, 'anon');
  return oldest && total > 0 ? oldest.anon / total : 0;
}

/** The tour's steps (its title and summary are in the catalog, index.ts, which loads this file when the tour opens). */
export const STEPS: TourStep[] = [
  {
    title: 'A key-value store and a file reader',
    text:
      'Two memcgs share one node under global pressure, with swap: /memcached holds a 16,384-page key-value store in anonymous memory and serves reads to a closed-loop client like memtier_benchmark (each read waits for the last reply), and /fio runs 16 buffered random readers over files six times the size of memory. This is the MGLRU series just before this patch (the after variant, v6.1, adds it); neither has the memcg LRU yet, so kswapd\'s shrink_node_memcgs() visits both memcgs on every pass. Ten steps in (100 ms), memcached has faulted in most of its store, about 14,700 pages, all in its youngest generation, while fio\'s page cache fills the rest of memory.',
    variant: 'before',
    at: { step: 10 },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: MEMCACHED,
    check: (f) => {
      const l = lruvec(f, '/memcached');
      const youngest = l?.gens.find((g) => g.seq === l.maxSeq);
      return all(
        expect(!!l && !!lruvec(f, '/fio'), 'the two memcgs are not there'),
        expect(!!youngest && Math.abs(youngest.anon - 14_700) < 300 && youngest.anon === lruvecPages(f, '/memcached', 'anon'), 'memcached does not hold about 14,700 pages, all in its youngest generation'),
        expect(lruvecPages(f, '/fio', 'file') > 0 && events(f, 'kswapd', 'balance_pgdat').length === 0, 'fio has no page cache yet, or kswapd already runs'),
      );
    },
  },
  {
    title: 'Global pressure wakes kswapd',
    text:
      'In this step, with fio\'s page cache filling memory, allocations found ZONE_NORMAL below its low watermark, and wakeup_kswapd() started balance_pgdat(): kswapd ran six times within the step ("runs in window 6"), each pass calling lru_gen_age_node() and then shrink_node(), which visits both memcgs. By the step\'s end that reclaim has put ZONE_NORMAL back above its high watermark (the Normal chart below: 529 pages free, high 474), and the badge shows kswapd running once more.',
    variant: 'before',
    at: { from: 0, until: 'kswapd-wake' },
    tab: 'system',
    anchor: 'kswapd',
    check: (f) => {
      const normal = zone(f, 'Normal');
      return all(
        expect(events(f, 'kswapd', 'balance_pgdat').length > 0, 'kswapd did not start balance_pgdat in this step'),
        expect(lruvecPages(f, '/fio', 'file') + lruvecPages(f, '/memcached', 'anon') > 0.9 * 32_768, 'memory is not full'),
        expect(events(f, 'kswapd', 'balance_pgdat').length === 6, 'kswapd did not run six times in this step'),
        expect(!!normal && normal.free > normal.high && Math.abs(normal.free - 529) < 25, 'ZONE_NORMAL does not end the step above its high watermark with about 529 pages free'),
        expect(f.nodes[0]?.kswapd.mode === 'running', 'kswapd is not running at the end of the step'),
      );
    },
  },
  {
    title: 'Before the patch: memcached is aged',
    text:
      'Before the patch lru_gen_age_node() ages every memcg that should_run_aging() says needs it, on every pass: inc_max_seq() gives /memcached a new generation, and the page-table walk moves the pages memcached touched since the last aging out of the oldest one. The pages it did not happen to touch in that short while, most of its store, stay in the oldest generation, next in line for eviction, though memcached will read them again soon.',
    variant: 'before',
    at: { from: 16, until: 'aging' },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: MEMCACHED,
    check: (f) =>
      all(
        expect(events(f, 'aging', 'inc_max_seq').some((e) => e.reason.startsWith('/memcached')), 'no inc_max_seq on /memcached in this step'),
        expect(memcachedMaxSeq(f) > 3, '/memcached has not been aged'),
        expect(oldestShare(f, '/memcached') > 0.5, 'most of /memcached is not in its oldest generation'),
      ),
  },
  {
    title: 'Swapped out, faulted back in',
    text:
      'evict_folios() takes memcached\'s pages from its oldest generation in proportion to its size and writes them to swap (pswpout). memcached reads them again almost at once: each read is a swap-in (pswpin). lru_gen_refault() counts one as workingset_refault_anon only while its generation is still the oldest (v6.1; since v6.5 every refault counts).',
    variant: 'before',
    at: { from: 17, until: 'refault' },
    tab: 'lru',
    anchor: 'counters',
    marks: ['[data-counter="pswpout"]', '[data-counter="pswpin"]', '[data-counter="workingset_refault_anon"]'],
    check: (f) =>
      all(
        expect(counter(f, 'pswpout') > 0, 'nothing swapped out yet'),
        expect(counter(f, 'pswpin') > 0, 'no swap-ins yet'),
        expect(events(f, 'refault').some((e) => e.reason.startsWith('/memcached')), 'no refault of /memcached in this step'),
      ),
  },
  {
    title: 'Three seconds in, before the patch',
    text:
      'kswapd has aged /memcached more than twenty times (inc_max_seq: its max_seq, which starts at 3, is past 23) and evict_folios() has swapped out most of its store; fio\'s page cache, read once and never again, fills the rest. memcached now waits on swap-ins for most of its reads.',
    variant: 'before',
    at: { step: 300 },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: MEMCACHED,
    check: (f) =>
      all(
        expect(memcachedMaxSeq(f) > 23, '/memcached has not been aged more than twenty times'),
        expect(lruvecPages(f, '/memcached', 'anon') < STORE / 4, '/memcached keeps more than a quarter of its store'),
      ),
  },
  {
    title: 'After the patch: memcached is left alone',
    text:
      'With the patch, lru_gen_shrink_lruvec() clears sc->memcgs_need_aging when a memcg reclaims a batch without needing aging, which /fio\'s single-use page cache always can; lru_gen_age_node() then skips the aging pass, and should_abort_scan() ends kswapd\'s scan of a memcg once it has reclaimed nr_to_reclaim since this balance_pgdat() pass began (lru_gen_age_node() sets sc->last_reclaimed), past the first two priorities, with every eligible zone above its high watermark. /memcached is never aged: its whole store stays in one generation and nothing is swapped.',
    variant: 'after',
    at: { step: 300 },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: MEMCACHED,
    check: (f) =>
      all(
        expect(memcachedMaxSeq(f) <= 3, '/memcached has been aged'),
        expect(lruvecPages(f, '/memcached', 'anon') >= 0.99 * STORE, '/memcached does not keep its whole store'),
        expect(counter(f, 'pswpout') === 0, 'pages were swapped out'),
      ),
  },
  {
    title: 'Only page cache is evicted',
    text:
      'Every evict_folios() in this step is /fio\'s: clean, unmapped page cache that kswapd drops without any I/O. A fio reader that comes back to one of those pages pays one read, what it pays anyway on files six times the size of memory.',
    variant: 'after',
    at: { from: 299, until: 'eviction' },
    tab: 'lru',
    anchor: 'events',
    marks: ['[data-function="evict_folios"]'],
    check: (f) => {
      const evictions = events(f, 'eviction', 'evict_folios');
      return all(
        expect(evictions.length > 0, 'no evict_folios in this step'),
        expect(evictions.every((e) => e.reason.startsWith('/fio')), 'a memcg other than /fio was evicted from'),
      );
    },
  },
  {
    title: 'The result',
    text:
      'Every variant runs to the end on the same seed: with the patch memcached\'s anon_ops_per_sec is 95 % of its client\'s rate (the rest is its own time per read) instead of a few percent of it, a gain far larger than the author\'s +119 to 123 %, because here each swap-in waits on the SSD-class device memcached shares with fio, where the author swapped to a ramdisk; pswpout is 0. fio\'s file_iops gains only 0.4 % here against the author\'s +19 to 21 %, and not across the parameter ranges: it gets the device time swap took, but its page cache is smaller by memcached\'s store. With the author\'s ramdisks modelled, where reclaim and swapping cost CPU time, fio does not gain at all: file_iops falls by 1.2 % with four shared CPUs ("Where it does not hold" explains).',
    variant: 'after',
    tab: 'comparison',
    anchor: 'comparison',
    // The rows the text is about: the panel keeps clear of their names.
    marks: ['tr[data-metric="anon_ops_per_sec"]', 'tr[data-metric="file_iops"]', 'tr[data-metric="pswpout"]'],
    compare: true,
    checkComparison: (c) =>
      all(
        expect(metric(c, 'after', 'anon_ops_per_sec') > 5 * metric(c, 'before', 'anon_ops_per_sec'), 'memcached did not gain more than fivefold'),
        expect(metric(c, 'after', 'anon_ops_per_sec') > 0.9 * 500_000, "memcached does not serve about 95 % of its client's rate"),
        expect(metric(c, 'after', 'pswpout') === 0, 'pages were swapped out after the patch'),
        expect(metric(c, 'after', 'file_iops') > metric(c, 'before', 'file_iops'), 'fio did not gain'),
        expect(metric(c, 'after', 'file_iops') < 1.1 * metric(c, 'before', 'file_iops'), 'fio gained more than 10 %: update the text'),
      ),
  },
];
