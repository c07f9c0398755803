// What each /proc/vmstat counter the engine keeps means, as a tooltip on
// its name: the kernel's meaning and unit, in a line. Every counter is in
// pages except pgpgin and pgpgout (KiB, as the kernel counts them), which
// is what a reader comparing pgpgout with pswpout needs to know.
// tests/unit/counter-help.test.ts checks that every counter the engine
// emits has a line here.

const ZONES = new Set(['dma', 'dma32', 'normal', 'movable']);
const LISTS: Record<string, string> = {
  inactive_anon: 'inactive anon',
  active_anon: 'active anon',
  inactive_file: 'inactive file',
  active_file: 'active file',
};

const HELP: Record<string, string> = {
  nr_free_pages: 'Pages free in the buddy allocator (a gauge).',
  nr_anon_pages: 'Anonymous pages mapped by tasks (a gauge).',
  nr_mapped: 'Page-cache pages mapped into page tables (a gauge).',
  nr_file_pages: 'Page-cache pages, the swap cache included (a gauge).',
  nr_dirty: 'Page-cache pages dirty, waiting for writeback (a gauge).',
  nr_writeback: 'Pages under writeback now (a gauge).',
  nr_swapcached: 'Pages in the swap cache: in memory and in a swap slot (a gauge).',
  workingset_refault_anon: 'Anon pages faulted back in while their shadow entry was still there (workingset_refault).',
  workingset_refault_file: 'File pages read back in while their shadow entry was still there (workingset_refault).',
  workingset_activate_anon: 'Anon refaults judged part of the workingset and activated (or, with MGLRU, counted recent).',
  workingset_activate_file: 'File refaults judged part of the workingset and activated (or, with MGLRU, counted recent).',
  workingset_restore_anon: 'Anon refaults that got PG_workingset back: with the classic LRU, activated ones that had it when evicted; with MGLRU, in a fault or with enough refs.',
  workingset_restore_file: 'File refaults that got PG_workingset back: with the classic LRU, activated ones that had it when evicted; with MGLRU, in a fault or with enough refs.',
  nr_vmscan_write: 'Pages reclaim wrote out itself (pageout(), counted when the write is submitted). Here only swap-outs: reclaim leaves dirty page cache to the flusher, as on filesystems without ->writepage.',
  nr_vmscan_immediate_reclaim: 'Dirty page-cache pages reclaim met and left to the flusher, marked PG_reclaim to be reclaimed as soon as their write ends (shrink_folio_list).',
  nr_dirtied: 'Page-cache pages dirtied (folio_account_dirtied), counted each time a clean page becomes dirty.',
  nr_written: 'Pages whose write ended (__folio_end_writeback): page cache and swap, a ramdisk\'s synchronous writes included.',
  nr_throttled_written: 'Pages whose write ended while a reclaimer slept in reclaim_throttle on writeback (__acct_reclaim_writeback): more than SWAP_CLUSTER_MAX of them wake it early.',
  workingset_nodereclaim: 'Shadow-entry nodes freed by the shadow shrinker (count_shadow_nodes, scan_shadow_nodes). Not modelled: here a shadow stays until its page is cached again, so this stays 0 and refaults of pages evicted long ago are still detected.',
  pgpgin: 'KiB read from storage (not pages: a page is 4 KiB).',
  pgpgout: 'KiB submitted for writing to storage, swap included (not pages: 4 per page swapped out), counted as each write starts; nr_written counts the pages whose write has ended.',
  pswpin: 'Pages read back from swap.',
  pswpout: 'Pages written to swap.',
  pgfree: 'Pages freed.',
  pgactivate: 'Pages activated (moved to the active list).',
  pgdeactivate: 'Pages moved from the active list to the inactive one.',
  pgfault: 'Page faults.',
  pgmajfault: 'Page faults that had to read from storage or swap.',
  pgrefill: 'Pages scanned on the active list (shrink_active_list); with MGLRU, folios scan_folios sorted into a younger generation instead of isolating them.',
  pgsteal_kswapd: 'Pages reclaimed by kswapd.',
  pgsteal_direct: 'Pages reclaimed by direct reclaim of the node (global only: reclaim for a memcg limit or memory.reclaim counts in memory.stat and pgsteal_anon/file, not here).',
  pgscan_kswapd: 'Pages scanned by kswapd.',
  pgscan_direct: 'Pages scanned by direct reclaim of the node (global only: reclaim for a memcg limit or memory.reclaim counts in memory.stat and pgscan_anon/file, not here).',
  pgscan_direct_throttle: 'Direct reclaimers throttled until kswapd restored the pfmemalloc reserves (throttle_direct_reclaim). Not modelled, so this stays 0; the writeback and congestion throttling of reclaim_throttle is (the event list\'s reclaim_throttle, the slow-disk scenario).',
  pgscan_anon: 'Anon pages scanned by any reclaim.',
  pgscan_file: 'File pages scanned by any reclaim.',
  pgsteal_anon: 'Anon pages reclaimed by any reclaim.',
  pgsteal_file: 'File pages reclaimed by any reclaim.',
  pageoutrun: 'kswapd reclaim passes (balance_pgdat).',
  kswapd_low_wmark_hit_quickly: "Times kswapd's short nap was cut short by a wakeup (an allocation below a low watermark).",
  kswapd_high_wmark_hit_quickly: 'Times kswapd went to sleep and found the node unbalanced (a zone below its high watermark), before its short nap or after it, so it did not sleep.',
  pgrotated: 'Pages reclaim marked PG_reclaim (found dirty or under writeback, or swapped out itself) moved to the tail of the inactive list, or with MGLRU of the oldest generation, when their writeback ended (folio_rotate_reclaimable), to be reclaimed next. The kernel also counts the moves of lru_deactivate_file (fadvise DONTNEED); the engine has only the writeback path.',
  oom_kill: 'Tasks killed by the OOM killer.',
};

/** The counter's meaning and unit in a line, or null for a name this table does not know. */
export function counterHelp(name: string): string | null {
  if (HELP[name]) return HELP[name];
  const list = /^nr_(inactive|active)_(anon|file)$/.exec(name);
  if (list) return `Pages on the ${LISTS[`${list[1]}_${list[2]}`]} list (with MGLRU: ${list[1] === 'active' ? 'the two youngest' : 'the older'} generations) (a gauge).`;
  const zone = /^(allocstall|pgskip)_(\w+)$/.exec(name);
  if (zone && ZONES.has(zone[2]!)) {
    const z = `ZONE_${zone[2]!.toUpperCase()}`;
    return zone[1] === 'allocstall'
      ? `Allocations, with ${z} their highest zone, that entered direct reclaim.`
      : `Pages skipped by reclaim because their zone, ${z}, was above the reclaim's highest zone.`;
  }
  return null;
}
