//! The hardware under the mm: the storage device that file pages and swap
//! live on, and how many CPUs the actors (tasks, kswapd, memory.reclaim
//! writers) share. Both default to what every scenario had before they
//! existed: one SSD-class device with a queue, and a CPU for every actor.
//!
//! Storage: [`Storage::Ssd`] is a device with its own service time and one
//! queue ([`Mm::device_io`]); the actor waits for it (I/O wait, not CPU).
//! [`Storage::Hdd`] is the same with a rotating disk's service time
//! (HDD_SERVICE_NS), which is also each I/O's latency: on a disk the seek
//! and the rotation are the I/O, with no internal parallelism behind them.
//! [`Storage::Ramdisk`] is brd (drivers/block/brd.c): brd_submit_bio copies
//! each bio_vec to or from its own pages (brd_do_bvec, memcpy) and ends the
//! bio before returning, in the submitting task's context. So an I/O is CPU
//! time of the task that issues it (a page-cache miss, a swap-in, reclaim's
//! pageout), with no queue shared between tasks.
//!
//! CPUs: with `cpus` set, runnable actors share the CPUs as under CFS
//! (processor sharing): an action's CPU time is stretched by the number of
//! runnable actors per CPU, measured over the previous window of
//! CPU_WINDOW_NS as the sum of the (stretched) CPU time of every action
//! started in it, divided by the window's length. Waits (for the SSD, dirty
//! throttling, memory.high throttling) are not CPU time. Simplified: no
//! per-CPU run queues, no priorities or wake-up preemption; the share is
//! the window's average, not the instantaneous run-queue length.
use serde::{Deserialize, Serialize};

use super::Mm;
use crate::cost;

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// Where file pages and swap are stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum Storage {
    /// A SATA-SSD-class device with one queue (IO_SERVICE_NS per I/O).
    #[default]
    Ssd,
    /// brd ramdisks (`modprobe brd`): each I/O is a memcpy done by the
    /// task that submits it (RAMDISK_IO_NS of its CPU time), no queue.
    Ramdisk,
    /// A 7,200-rpm disk with NCQ: one queue, HDD_SERVICE_NS per random
    /// 4 KiB I/O, its latency too. Writes to it stay in flight long enough
    /// for reclaim to meet them again, so reclaim throttles on writeback
    /// (reclaim_throttle) as it does on slow storage.
    Hdd,
}

/// The machine: storage and CPUs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct Machine {
    /// null or left out: the SSD, as for the other optional fields.
    #[serde(deserialize_with = "storage_or_default")]
    pub storage: Storage,
    /// CPUs shared by all actors (None = one CPU per actor: no contention).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpus: Option<u32>,
}

/// A storage name, or null for the default (the SSD).
fn storage_or_default<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Storage, D::Error> {
    Ok(Option::<Storage>::deserialize(d)?.unwrap_or_default())
}

/// The window over which the run-queue length is averaged (about CFS's
/// sched_latency of 6-24 ms).
pub const CPU_WINDOW_NS: u64 = 10_000_000;

/// The CPU sharing state (see the module comment).
#[derive(Clone, Debug, Default)]
pub struct CpuShare {
    /// Where the current window began.
    pub window_start: u64,
    /// Runnable time of the actions started in the current window.
    pub runnable_ns: u64,
    /// The stretch of CPU time from the last window, in 1/1024ths (1024 =
    /// no contention).
    pub stretch: u64,
}

impl Mm {
    /// Time the current actor waits without using a CPU (for a device, or
    /// throttled): part of its `cost_ns`, not of its CPU time.
    pub fn wait_ns(&mut self, ns: u64) {
        self.cost_ns += ns;
        self.io_wait_ns += ns;
    }

    /// A synchronous 4 KiB read (page-cache miss, swap-in): on the SSD, the
    /// wait for the device plus `ssd_latency` (on the disk, plus its service
    /// time); on brd, RAMDISK_IO_NS of the reader's CPU (brd_submit_bio
    /// copies the page before it returns).
    pub fn storage_read(&mut self, ssd_latency: u64) {
        self.storage_sync_io(ssd_latency);
    }

    /// How long one 4 KiB I/O occupies the queued device (SSD or disk).
    pub fn io_service_ns(&self) -> u64 {
        match self.machine.storage {
            Storage::Hdd => cost::HDD_SERVICE_NS,
            Storage::Ssd | Storage::Ramdisk => cost::IO_SERVICE_NS,
        }
    }

    /// An I/O's latency once the device takes it: on the SSD the constant of
    /// its kind (`ssd_latency`: a read, a swap write, a writeback), on the
    /// disk its service time, whatever the kind.
    pub fn io_latency(&self, ssd_latency: u64) -> u64 {
        match self.machine.storage {
            Storage::Hdd => cost::HDD_SERVICE_NS,
            Storage::Ssd | Storage::Ramdisk => ssd_latency,
        }
    }

    /// __swap_writepage() of one page by the current actor (reclaim's
    /// pageout). On brd the write is synchronous: the device has
    /// BLK_FEAT_SYNCHRONOUS, so swap_writepage_bdev_sync copies the page
    /// (RAMDISK_IO_NS of the actor's CPU) and the write has ended when this
    /// returns: None. On the SSD it is swap_writepage_bdev_async: the bio is
    /// queued and the actor goes on; Some(when the write ends). The actor
    /// waits only for a free tag, when IO_QUEUE_DEPTH I/Os are already
    /// queued or in service (blk_mq_get_tag). Simplified: the bio's
    /// submission costs no CPU beyond the folio's SCAN_FOLIO_NS; no plugging.
    pub fn swap_writepage(&mut self) -> Option<u64> {
        match self.machine.storage {
            Storage::Ramdisk => {
                self.cost_ns += cost::RAMDISK_IO_NS;
                None
            }
            Storage::Ssd | Storage::Hdd => {
                let backlog = self.io_busy_until.saturating_sub(self.now_ns + self.cost_ns);
                let full = cost::IO_QUEUE_DEPTH * self.io_service_ns();
                if backlog > full {
                    self.wait_ns(backlog - full);
                }
                // The device takes the write after the I/Os queued before it.
                let queued = self.device_io();
                Some(self.now_ns + self.cost_ns + queued + self.io_latency(cost::SWAP_OUT_NS))
            }
        }
    }

    /// An I/O the current actor waits for: queued behind the SSD (or the
    /// disk) plus its latency (io_latency), or RAMDISK_IO_NS of its own CPU
    /// on brd.
    fn storage_sync_io(&mut self, ssd_latency: u64) {
        match self.machine.storage {
            Storage::Ssd | Storage::Hdd => {
                let queued = self.device_io();
                self.wait_ns(queued + self.io_latency(ssd_latency));
            }
            Storage::Ramdisk => self.cost_ns += cost::RAMDISK_IO_NS,
        }
    }

    /// A write nobody waits for (the flusher's writeback): when it
    /// completes. On brd the flusher copies the page at once.
    pub fn storage_write_async(&mut self, ssd_latency: u64) -> u64 {
        match self.machine.storage {
            Storage::Ssd | Storage::Hdd => self.device_io_async(self.io_latency(ssd_latency)),
            Storage::Ramdisk => self.now_ns + cost::RAMDISK_IO_NS,
        }
    }

    /// How long an action of the current actor that cost `cost` ns (of
    /// which `self.io_wait_ns` waiting) takes on the shared CPUs: its CPU
    /// time stretched by the runnable actors per CPU of the last window,
    /// plus its waits. Without a CPU count, `cost` itself.
    pub fn action_duration(&mut self, cost: u64) -> u64 {
        let Some(cpus) = self.machine.cpus else {
            return cost;
        };
        let wait = self.io_wait_ns.min(cost);
        let share = &mut self.cpu;
        let elapsed = self.now_ns.saturating_sub(share.window_start);
        if elapsed >= CPU_WINDOW_NS {
            share.stretch = (share.runnable_ns * 1024 / (elapsed * u64::from(cpus.max(1)))).max(1024);
            share.window_start = self.now_ns;
            share.runnable_ns = 0;
        }
        let stretch = share.stretch.max(1024);
        let cpu = (cost - wait) * stretch / 1024;
        share.runnable_ns += cpu;
        cpu + wait
    }
}
