// The tour of patch 004 (Kairui Song, 2023, RFC v3, "Refault distance
// update with MGLRU support"): a refault counts when its refault distance
// fits the workingset, not only while its generation is still the oldest.
// Steps at the experiment's defaults, seed 1.
import type { Frame, TierView } from '../engine/pkg/reclaim_core';
import { all, counter, events, expect, lruvec, lruvecPages, metric, type TourStep } from './types';

const DB = { lruvec: '/db@0' };
/** The idle heap at the defaults: 25 % of 8,192 pages. */
const HEAP = 2048;

/** A tier's refault rate as the Tiers table shows it: refaulted / (evicted + protected), averages included. */
function tierRate(f: Frame, kind: 'anon' | 'file', tier: number): number {
  const t: TierView | undefined = lruvec(f, '/db')?.tiers.find((x) => x.kind === kind && x.tier === tier);
  if (!t) return Number.NaN;
  const total = t.avgTotal + t.evicted + t.protected;
  return total > 0 ? (t.avgRefaulted + t.refaulted) / total : Number.NaN;
}

/** The share of /db's pages in its oldest generation. */
function oldestShare(f: Frame): number {
  const l = lruvec(f, '/db');
  if (!l) return Number.NaN;
  const total = l.gens.reduce((n, g) => n + g.anon + g.file, 0);
  const oldest = l.gens.find((g) => g.seq === Math.min(l.minSeq[0]!, l.minSeq[1]!));
  return oldest && total > 0 ? (oldest.anon + oldest.file) / total : Number.NaN;
}

/** The tour's steps (its title and summary are in the catalog, index.ts, which loads this file when the tour opens). */
export const STEPS: TourStep[] = [
  {
    title: 'A file larger than memory',
    text:
      'Four readers read a file three times the size of memory through read(), with zipf popularity (filemap_read), like the database in the cover letter; next to them sits an idle anonymous heap, a quarter of memory, touched once at the start, with swap available. kswapd does the reclaim (there is no memcg limit). Four steps in (40 ms), the heap\'s 2,048 pages are in the youngest generation and the file\'s pages read so far in the oldest.',
    variant: 'before',
    at: { step: 4 },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: DB,
    check: (f) => {
      const l = lruvec(f, '/db');
      const youngest = l?.gens.find((g) => g.seq === l.maxSeq);
      const oldest = l?.gens.find((g) => g.seq === l.minSeq[1]);
      return all(
        expect(!!l && l.lruGen, 'there is no MGLRU lruvec for /db'),
        expect(!!youngest && youngest.anon === HEAP, 'the idle heap is not in the youngest generation'),
        expect(!!oldest && oldest.file > 0 && oldest.file === lruvecPages(f, '/db', 'file'), 'the file pages are not all in the oldest generation'),
      );
    },
  },
  {
    title: 'Before: stuck in the oldest generation',
    text:
      'A second in, there are still the four generations of the start: about 5,400 pages of the file in the oldest, 480 in the next, and the idle heap alone in the youngest. Both variants run the MGLRU the patch was posted against (v6.6), where a page read through read() joins the oldest generation (lru_gen_add_folio: clean page cache that is not active goes to min_seq). So that generation never empties, min_seq never advances, and with four generations should_run_aging() never asks for inc_max_seq().',
    variant: 'before',
    at: { step: 100 },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: DB,
    check: (f) => {
      const l = lruvec(f, '/db');
      const youngest = l?.gens.find((g) => g.seq === l.maxSeq);
      return all(
        expect(!!l && l.maxSeq === 3 && l.minSeq[0] === 0 && l.minSeq[1] === 0, 'the generations have moved'),
        expect(!!youngest && youngest.anon === HEAP && youngest.file < 0.1 * HEAP, 'the idle heap is not alone in the youngest generation'),
        expect(Math.abs(lruvecPages(f, '/db', 'file') - 5800) < 300, 'not about 5,800 file pages are resident'),
      );
    },
  },
  {
    title: 'Every refault is "recent", none is kept',
    text:
      'lru_gen_refault() calls lru_gen_test_recent(), which compares the min_seq stored in the shadow with the current one: since min_seq never moves, every refault is "recent", counted in refaulted[tier] and as workingset_activate_file, a counter MGLRU bumps for every recent refault whatever then happens to the folio. Yet nothing is activated: the folio goes back into the oldest generation to be evicted again, which is the thrashing the cover letter describes.',
    variant: 'before',
    at: { from: 100, until: 'refault' },
    tab: 'lru',
    anchor: 'events',
    marks: ['[data-function="lru_gen_refault"]'],
    check: (f) => {
      const refaults = events(f, 'refault', 'lru_gen_refault');
      return all(
        expect(refaults.length > 0, 'no lru_gen_refault in this step'),
        expect(refaults.every((e) => e.reason.includes('still the oldest')), 'a refault was not recent'),
        expect(counter(f, 'workingset_activate_file') === counter(f, 'workingset_refault_file'), 'not every file refault counted as an activation'),
      );
    },
  },
  {
    title: 'No feedback for the PID controller',
    text:
      'Twenty seconds in, the file tiers all refault at nearly the same rate, close to 100 %, so get_tier_idx() finds no tier worth protecting and sort_folio() lets every folio go. The idle heap still sits in the youngest generation and has never been swapped out.',
    variant: 'before',
    at: { step: 1999 },
    tab: 'lru',
    anchor: 'tiers',
    check: (f) =>
      all(
        expect([0, 1, 2].every((t) => tierRate(f, 'file', t) > 0.9), 'a file tier refaults at 90 % or less'),
        expect(lruvec(f, '/db')?.tiers.some((t) => t.kind === 'file' && t.aboveTierIdx) === false, 'a file tier is protected'),
        expect(counter(f, 'pswpout') === 0, 'the idle heap was swapped out'),
        expect(lruvec(f, '/db')?.maxSeq === 3, 'the generations have moved'),
      ),
  },
  {
    title: 'With the patch: the refault distance',
    text:
      'With the patch, lru_gen_eviction() also stores a nonresident_age timestamp in the shadow, and workingset_age_nonresident() advances that clock on every eviction. On a refault, lru_test_refault() compares the distance SP (evictions since this one) with the workingset, the two youngest generations counting as active: for a file page SP < NR_ACTIVE + NR_INACTIVE_ANON while active is the smaller (inactive anon is 0 here), or SP < NR_INACTIVE once active is the larger. Only qualified refaults count as workingset_activate_file now, each also as a restore (a few more restores come from pages read five times or more, whose PG_workingset comes back even when they do not qualify).',
    variant: 'after',
    at: { step: 30 },
    tab: 'lru',
    anchor: 'counters',
    marks: ['[data-counter="workingset_refault_file"]', '[data-counter="workingset_activate_file"]', '[data-counter="workingset_restore_file"]'],
    check: (f) => {
      const refaults = counter(f, 'workingset_refault_file');
      const activations = counter(f, 'workingset_activate_file');
      return all(
        expect(activations > 0 && activations < refaults, 'activations are not a part of the refaults'),
        expect(counter(f, 'workingset_restore_file') >= activations && counter(f, 'workingset_restore_file') < 1.05 * activations, 'restores are not about the activations'),
        expect(lruvec(f, '/db')?.lists[0] === 0, 'inactive anon is not 0'),
      );
    },
  },
  {
    title: 'The shadow LRU: distance against the workingset',
    text:
      'The first chart of the Shadow LRU card draws each tracked page that is out of memory at its refault distance: how far nonresident_age has moved since lru_gen_eviction() stamped its shadow. The line marked "file < 2,308 activates" is the workingset lru_test_refault() compares it with right now; a filled dot would be activated if it refaulted now. The "Refaults at step 30" table at the bottom of the card lists this step\'s refaults, each with the numbers it compared, its decision and the rule.',
    variant: 'after',
    at: { step: 30 },
    tab: 'shadows',
    anchor: 'shadows',
    check: (f) => {
      const db = f.shadow?.lruvecs.find((l) => l.memcg === '/db');
      const file = db?.thresholds.find((t) => t.kind === 'file');
      const refaults = f.shadow?.refaults ?? [];
      return all(
        expect(f.shadow?.model === 'lru_test_refault', 'the shadow LRU is not judged by lru_test_refault'),
        expect(!!file && file.pages > 0, 'no file workingset threshold for /db'),
        expect(!!file && Math.abs(file.pages - 2308) < 50, 'the file workingset threshold is not about 2,308 pages'),
        expect((db?.shadows.length ?? 0) > 0, 'no tracked shadows of /db'),
        expect(refaults.length > 0 && refaults.every((r) => r.function === 'lru_gen_refault' && r.distance != null && r.rule.includes('lru_test_refault')), 'no refaults decided by lru_test_refault in this step'),
      );
    },
  },
  {
    title: 'Activated folios restart aging',
    text:
      'A qualified refault of a folio with references is activated into the youngest generation and counted one reference higher (lru_tier_from_refs(refs + 1)), so the PID controller sees a refault in that tier. With fewer refaults landing back in it, the oldest generation finally empties and min_seq advances, leaving three generations; the oldest of those holds less than a quarter of the lruvec, so should_run_aging() asks for aging and inc_max_seq() creates a new generation, the first since the start.',
    variant: 'after',
    at: { from: 0, until: 'aging' },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: DB,
    check: (f) =>
      all(
        expect(events(f, 'aging', 'inc_max_seq').length > 0, 'no inc_max_seq in this step'),
        expect(lruvec(f, '/db')?.maxSeq === 4, 'this is not the first new generation'),
        expect(oldestShare(f) < 0.25, 'the oldest generation holds a quarter of the lruvec or more'),
      ),
  },
  {
    title: 'The idle heap is swapped out',
    text:
      'Two seconds in, the generations have advanced three times, the idle heap\'s generation became the oldest, and evict_folios() swapped it out: pswpout counts the whole heap. The memory it held now keeps more of the file: about 7,900 pages of page cache, where upstream kept about 5,900.',
    variant: 'after',
    at: { step: 200 },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: DB,
    check: (f) =>
      all(
        expect(counter(f, 'pswpout') >= HEAP, 'the idle heap has not been swapped out'),
        expect(lruvecPages(f, '/db', 'anon') === 0, 'anonymous pages are still resident'),
        expect(Math.abs(lruvecPages(f, '/db', 'file') - 7900) < 300, 'not about 7,900 file pages are resident'),
      ),
  },
  {
    title: 'A working set that stays',
    text:
      'Twenty seconds in, the generations have stopped at max_seq 6. With the heap gone the two youngest generations are empty, so lru_test_refault() asks SP < NR_ACTIVE + NR_INACTIVE_ANON, which is 0: no refault qualifies any more, and workingset_activate_file has not moved since the second second. The 6,600 pages activated early, the hottest of the zipf set, stay in the second oldest generation while new reads churn through the oldest: a steady state that keeps a higher hit ratio than upstream\'s thrashing.',
    variant: 'after',
    at: { step: 1999 },
    tab: 'lru',
    anchor: 'generations',
    anchorWith: DB,
    check: (f) => {
      const l = lruvec(f, '/db');
      const second = l?.gens.find((g) => g.seq === Math.min(l.minSeq[0]!, l.minSeq[1]!) + 1);
      return all(
        expect(!!l && l.maxSeq === 6, 'the generations did not stop at max_seq 6'),
        expect(!!second && second.file > 6000, 'the second oldest generation does not hold the early activations'),
        expect(counter(f, 'workingset_activate_file') < 10000, 'refaults still qualify'),
        expect(lruvecPages(f, '/db', 'anon') === 0, 'anonymous pages are resident'),
      );
    },
  },
  {
    title: 'The result',
    text:
      'Every variant runs to the end on the same seed: hit_ratio and ops_per_sec rise by about a third and the idle heap is swapped out (pswpout), as in the cover letter, though not fivefold. On today\'s MGLRU (v6.7\'s underprotection fix) upstream protects often-read pages itself and catches up over long runs, as "Where it does not hold" says: the gain belongs to the kernel the patch was written for.',
    variant: 'after',
    tab: 'comparison',
    anchor: 'comparison',
    // The rows the text is about: the panel keeps clear of their names.
    marks: ['tr[data-metric="hit_ratio"]', 'tr[data-metric="ops_per_sec"]', 'tr[data-metric="pswpout"]'],
    compare: true,
    checkComparison: (c) =>
      all(
        expect(metric(c, 'after', 'ops_per_sec') > metric(c, 'before', 'ops_per_sec'), 'throughput did not rise'),
        expect(metric(c, 'after', 'ops_per_sec') < 1.5 * metric(c, 'before', 'ops_per_sec'), 'throughput rose by half or more: update the text'),
        expect(metric(c, 'after', 'hit_ratio') > metric(c, 'before', 'hit_ratio'), 'the hit ratio did not rise'),
        expect(metric(c, 'before', 'pswpout') === 0 && metric(c, 'after', 'pswpout') > 0, 'the idle heap is not swapped out only after the patch'),
      ),
  },
];
