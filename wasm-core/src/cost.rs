//! The cost model: simulated nanoseconds for each thing a task or a reclaimer
//! does. Every throughput, latency and "pages per second" the engine reports
//! comes from these constants and the simulated clock, never from the wall
//! clock. docs/cost-model.md explains each value and where it comes from.

/// A read() of one 4 KiB page that hits the page cache: syscall entry, xarray
/// lookup, folio_mark_accessed, copy_to_user of 4 KiB (~10 GB/s).
pub const FD_READ_HIT_NS: u64 = 400;
/// A load or store to a mapped page that is resident: a TLB miss and a cache
/// miss at worst; page-level touches are coarse, so one "access" is charged
/// as a short burst of memory operations on the page.
pub const MAPPED_HIT_NS: u64 = 100;
/// A minor fault: allocate and zero a page (anonymous first touch) or map a
/// page-cache folio that is already resident.
pub const MINOR_FAULT_NS: u64 = 1_500;
/// A major fault or read() miss: a 4 KiB random read from an NVMe SSD.
pub const MAJOR_FAULT_READ_NS: u64 = 80_000;
/// Reading a page back from swap on the same class of SSD.
pub const SWAP_IN_NS: u64 = 80_000;
/// Writing one page out to swap: the write's latency on the SSD after its
/// turn on the device (it completes this long after it starts; the
/// reclaimer that submits it does not wait), or on brd nothing (the copy is
/// RAMDISK_IO_NS of the reclaimer's CPU).
pub const SWAP_OUT_NS: u64 = 20_000;
/// The SSD's queue depth: how many I/Os may be queued or in service before
/// a task that submits one more sleeps for a free tag (blk_mq_get_tag). 32
/// is SATA NCQ's depth.
pub const IO_QUEUE_DEPTH: u64 = 32;
/// Writing one dirty page-cache page back to its file.
pub const WRITEBACK_NS: u64 = 20_000;
/// Scanning one folio in reclaim: isolate, rmap walk for referenced PTEs,
/// unmap, remove from the mapping, free (shrink_folio_list per folio).
pub const SCAN_FOLIO_NS: u64 = 200;
/// Starting one reclaim round (try_to_free_pages / try_to_free_mem_cgroup_pages):
/// scan_control set-up, lru_add_drain, the priority loop's first pass, the
/// memcg iteration set-up, the shrinker pass.
pub const RECLAIM_ROUND_NS: u64 = 20_000;
/// One page allocation on the fast path (buddy allocator, per-cpu lists).
pub const PAGE_ALLOC_NS: u64 = 100;
/// The shortest kswapd action (a wake-up, a balance check, a sleep decision).
pub const KSWAPD_MIN_ACTION_NS: u64 = 5_000;
/// Visiting one lruvec in a reclaim pass: the memcg iteration step,
/// get_nr_to_scan / get_scan_count, the per-memcg shrink_slab call and
/// vmpressure accounting, paid even when nothing is reclaimed there.
pub const SHRINK_LRUVEC_NS: u64 = 3_000;
/// Per memcg in the reclaim target's subtree, paid once per memcg reclaim
/// round with the classic LRU only: flushing the subtree's per-cpu memcg
/// statistics (mem_cgroup_flush_stats in prepare_scan_control, before the
/// scan balance is computed). MGLRU returns from prepare_scan_control before
/// the flush and never flushes in reclaim, so it does not pay this; its
/// rounds cost what their priority passes visit (SHRINK_LRUVEC_NS per lruvec).
pub const ROUND_PER_MEMCG_NS: u64 = 5_000;
/// The storage device's service time per 4 KiB I/O (about 100k IOPS, a
/// SATA-SSD-class device): I/Os occupy the one device back to back, so swap
/// traffic delays page-cache reads and the other way round. The latency an
/// I/O adds is its queueing wait plus its own latency constant above.
pub const IO_SERVICE_NS: u64 = 10_000;
/// A random 4 KiB I/O on a 7,200-rpm disk (`machine.storage = "hdd"`), its
/// service time and its latency: half a rotation (4.2 ms) plus a short seek,
/// less what NCQ's reordering of a full queue saves: about 200 IOPS.
pub const HDD_SERVICE_NS: u64 = 5_000_000;
/// One 4 KiB I/O on a brd ramdisk, as CPU time of the task that submits it:
/// the bio's set-up, submission and completion through the block layer
/// (and, for a file, the filesystem's block mapping) around brd_do_bvec's
/// 4 KiB memcpy (~0.4 us at ~10 GB/s).
pub const RAMDISK_IO_NS: u64 = 2_000;
