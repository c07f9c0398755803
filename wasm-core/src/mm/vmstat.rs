//! Event counters under their kernel names (include/linux/vm_event_item.h,
//! include/linux/mmzone.h node_stat_item), kept globally (/proc/vmstat) and
//! per memcg (memory.stat).
//!
//! Gauges (nr_free_pages, nr_active_file, ...) are not stored: views compute
//! them from the lists, so they can never drift from the state.

macro_rules! vm_items {
    ($($variant:ident => $name:literal),* $(,)?) => {
        /// A monotonically increasing counter, in /proc/vmstat order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        #[repr(usize)]
        pub enum Item { $($variant),* }

        impl Item {
            pub const ALL: &'static [Item] = &[$(Item::$variant),*];
            pub const NAMES: &'static [&'static str] = &[$($name),*];
            pub fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }
            pub fn from_name(name: &str) -> Option<Item> {
                Self::NAMES.iter().position(|n| *n == name).map(|i| Self::ALL[i])
            }
        }
    };
}

vm_items! {
    WorkingsetRefaultAnon => "workingset_refault_anon",
    WorkingsetRefaultFile => "workingset_refault_file",
    WorkingsetActivateAnon => "workingset_activate_anon",
    WorkingsetActivateFile => "workingset_activate_file",
    WorkingsetRestoreAnon => "workingset_restore_anon",
    WorkingsetRestoreFile => "workingset_restore_file",
    WorkingsetNodereclaim => "workingset_nodereclaim",
    NrVmscanWrite => "nr_vmscan_write",
    NrVmscanImmediate => "nr_vmscan_immediate_reclaim",
    NrDirtied => "nr_dirtied",
    NrWritten => "nr_written",
    NrThrottledWritten => "nr_throttled_written",
    Pgpgin => "pgpgin",
    Pgpgout => "pgpgout",
    Pswpin => "pswpin",
    Pswpout => "pswpout",
    AllocstallDma => "allocstall_dma",
    AllocstallDma32 => "allocstall_dma32",
    AllocstallNormal => "allocstall_normal",
    AllocstallMovable => "allocstall_movable",
    PgskipDma => "pgskip_dma",
    PgskipDma32 => "pgskip_dma32",
    PgskipNormal => "pgskip_normal",
    PgskipMovable => "pgskip_movable",
    Pgfree => "pgfree",
    Pgactivate => "pgactivate",
    Pgdeactivate => "pgdeactivate",
    Pgfault => "pgfault",
    Pgmajfault => "pgmajfault",
    Pgrefill => "pgrefill",
    PgstealKswapd => "pgsteal_kswapd",
    PgstealDirect => "pgsteal_direct",
    PgscanKswapd => "pgscan_kswapd",
    PgscanDirect => "pgscan_direct",
    PgscanDirectThrottle => "pgscan_direct_throttle",
    PgscanAnon => "pgscan_anon",
    PgscanFile => "pgscan_file",
    PgstealAnon => "pgsteal_anon",
    PgstealFile => "pgsteal_file",
    KswapdLowWmarkHitQuickly => "kswapd_low_wmark_hit_quickly",
    KswapdHighWmarkHitQuickly => "kswapd_high_wmark_hit_quickly",
    Pageoutrun => "pageoutrun",
    Pgrotated => "pgrotated",
    OomKill => "oom_kill",
}

pub const NR_ITEMS: usize = Item::NAMES.len();

/// PGSCAN_ANON + type, PGSTEAL_ANON + type and the workingset counters are
/// laid out anon then file, as in the kernel, so `item.plus(type)` works.
impl Item {
    pub fn plus(self, type_: usize) -> Item {
        Item::ALL[self as usize + type_]
    }
}

/// One counter array (a /proc/vmstat or a memory.stat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counters(pub Vec<u64>);

impl Default for Counters {
    fn default() -> Self {
        Counters(vec![0; NR_ITEMS])
    }
}

impl Counters {
    #[inline]
    pub fn add(&mut self, item: Item, n: u64) {
        self.0[item as usize] += n;
    }
    #[inline]
    pub fn get(&self, item: Item) -> u64 {
        self.0[item as usize]
    }
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        Item::NAMES.iter().copied().zip(self.0.iter().copied())
    }

    /// The counters as /proc/vmstat shows them: pgpgin and pgpgout in KiB
    /// (the kernel counts sectors and vmstat_start halves them; the engine
    /// counts 4 KiB pages), the rest as counted.
    pub fn iter_proc(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.iter().map(|(n, v)| (n, if matches!(n, "pgpgin" | "pgpgout") { v * 4 } else { v }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anon_file_pairs_are_adjacent() {
        assert_eq!(Item::PgscanAnon.plus(1), Item::PgscanFile);
        assert_eq!(Item::PgstealAnon.plus(1), Item::PgstealFile);
        assert_eq!(Item::WorkingsetRefaultAnon.plus(1), Item::WorkingsetRefaultFile);
        assert_eq!(Item::WorkingsetActivateAnon.plus(1), Item::WorkingsetActivateFile);
        assert_eq!(Item::WorkingsetRestoreAnon.plus(1), Item::WorkingsetRestoreFile);
        assert_eq!(Item::PgstealKswapd.plus(1), Item::PgstealDirect);
        assert_eq!(Item::PgscanKswapd.plus(1), Item::PgscanDirect);
        assert_eq!(Item::from_name("pgrefill"), Some(Item::Pgrefill));
        assert_eq!(Item::ALL.len(), Item::NAMES.len());
    }
}
