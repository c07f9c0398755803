//! Nodes and zones: `pg_data_t` and `struct zone` (include/linux/mmzone.h),
//! watermarks (mm/page_alloc.c `__setup_per_zone_wmarks`) and lowmem_reserve
//! (`setup_per_zone_lowmem_reserve`).
use serde::{Deserialize, Serialize};

use super::folio::FolioId;
use super::list::ListHead;
use super::MAX_NR_ZONES;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[repr(u8)]
pub enum ZoneType {
    #[serde(rename = "DMA")]
    Dma = 0,
    #[serde(rename = "DMA32")]
    Dma32 = 1,
    Normal = 2,
    Movable = 3,
}

impl ZoneType {
    pub const ALL: [ZoneType; MAX_NR_ZONES] = [ZoneType::Dma, ZoneType::Dma32, ZoneType::Normal, ZoneType::Movable];
    pub fn name(self) -> &'static str {
        ["DMA", "DMA32", "Normal", "Movable"][self as usize]
    }
    /// lowmem_reserve_ratio[] defaults: DMA 256, DMA32 256, NORMAL 32, MOVABLE 0.
    pub fn lowmem_reserve_ratio(self) -> u64 {
        [256, 256, 32, 0][self as usize]
    }
}

/// Indices of `Zone::watermark` (enum zone_watermarks).
pub const WMARK_MIN: usize = 0;
pub const WMARK_LOW: usize = 1;
pub const WMARK_HIGH: usize = 2;
pub const WMARK_PROMO: usize = 3;

#[derive(Clone, Debug)]
pub struct Zone {
    pub zone_type: ZoneType,
    /// First folio id (pfn) of the zone.
    pub start_pfn: u32,
    /// managed_pages (0 = zone not populated).
    pub managed: u64,
    /// Free pages, linked through the folio table.
    pub free_list: ListHead,
    /// min, low, high, promo.
    pub watermark: [u64; 4],
    /// lowmem_reserve[highest_zoneidx]: pages kept back from allocations that
    /// could have used a higher zone.
    pub lowmem_reserve: [u64; MAX_NR_ZONES],
}

impl Zone {
    /// zone_page_state(zone, NR_FREE_PAGES): the pages on the zone's free
    /// list (exact: no per-CPU vmstat drift).
    pub fn free_pages(&self) -> u64 {
        u64::from(self.free_list.len)
    }
    pub fn contains(&self, f: FolioId) -> bool {
        u64::from(f) >= u64::from(self.start_pfn) && u64::from(f) < u64::from(self.start_pfn) + self.managed
    }
}

#[derive(Clone, Debug)]
pub struct PgData {
    pub node_id: usize,
    /// All MAX_NR_ZONES zones; unpopulated ones have managed = 0.
    pub zones: Vec<Zone>,
    pub start_pfn: u32,
    pub nr_pages: u32,
    pub kswapd: super::kswapd::Kswapd,
    pub memcg_lru: super::memcg_lru::MemcgLru,
    /// PGDAT_WRITEBACK in pgdat->flags: kswapd took only folios under
    /// writeback; it now stalls on folios that come back to the tail still
    /// under writeback (throttle.rs). Cleared by clear_pgdat_congested().
    pub pgdat_writeback: bool,
}

impl PgData {
    pub fn end_pfn(&self) -> u32 {
        self.start_pfn + self.nr_pages
    }
    pub fn free_pages(&self) -> u64 {
        self.zones.iter().map(Zone::free_pages).sum()
    }
    /// The zone a pfn of this node belongs to.
    pub fn zone_of(&self, f: FolioId) -> usize {
        self.zones.iter().position(|z| z.contains(f)).expect("pfn in a populated zone")
    }
}

/// int_sqrt().
pub fn int_sqrt(x: u64) -> u64 {
    if x < 2 {
        return x;
    }
    let mut r = (x as f64).sqrt() as u64;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// The managed pages of the zones that count as lowmem: all but
/// ZONE_MOVABLE (no highmem on 64-bit). Summed over every node's zones, this
/// is `lowmem_pages` of __setup_per_zone_wmarks() and, before any watermark
/// is set, nr_free_buffer_pages() of calculate_min_free_kbytes().
pub fn lowmem_pages<'a>(zones: impl IntoIterator<Item = &'a Zone>) -> u64 {
    zones.into_iter().filter(|z| z.zone_type != ZoneType::Movable).map(|z| z.managed).sum()
}

/// The default min_free_kbytes (`calculate_min_free_kbytes`):
/// clamp(int_sqrt(lowmem_kbytes * 16), 128, 262144), one value for the
/// machine (`lowmem_pages` of every node).
pub fn default_min_free_kbytes(lowmem_pages: u64) -> u64 {
    int_sqrt(lowmem_pages * 4 * 16).clamp(128, 262_144)
}

/// __setup_per_zone_wmarks(): each zone gets a share of min_free_kbytes
/// proportional to its managed pages, then low = min + gap, high = low + gap,
/// promo = high + gap with gap = max(share/4, managed * watermark_scale_factor / 10000),
/// where share is the zone's proportional share of min_free_kbytes even for
/// ZONE_MOVABLE, whose min is capped ("the low/high deltas should not be
/// capped"). `lowmem_pages` is the machine's: the managed pages of every
/// node's zones but ZONE_MOVABLE (`lowmem_pages`), as the kernel sums them
/// over `for_each_zone`, so nodes share one min_free_kbytes. Simplified: no
/// highmem special case (64-bit), no watermark_boost.
pub fn setup_per_zone_wmarks(zones: &mut [Zone], min_free_kbytes: u64, watermark_scale_factor: u64, lowmem_pages: u64) {
    let pages_min = min_free_kbytes / 4;
    for z in zones.iter_mut() {
        if z.managed == 0 {
            z.watermark = [0; 4];
            continue;
        }
        let capped = (z.managed / 1024).clamp(32, 128);
        let share = (pages_min * z.managed).checked_div(lowmem_pages).unwrap_or(capped);
        // ZONE_MOVABLE (like highmem) gets a small fixed minimum: clamp(managed/1024, 32, 128).
        let min = if z.zone_type == ZoneType::Movable || lowmem_pages == 0 { capped } else { share };
        let gap = (share >> 2).max(z.managed * watermark_scale_factor / 10_000);
        z.watermark = [min, min + gap, min + 2 * gap, min + 3 * gap];
    }
}

/// setup_per_zone_lowmem_reserve(): for zone i and each higher zone j,
/// reserve[j] = sum(managed of zones i+1..=j) / lowmem_reserve_ratio[i].
pub fn setup_per_zone_lowmem_reserve(zones: &mut [Zone]) {
    for i in 0..zones.len() {
        let ratio = zones[i].zone_type.lowmem_reserve_ratio();
        let mut managed = 0;
        zones[i].lowmem_reserve = [0; MAX_NR_ZONES];
        for j in i + 1..zones.len() {
            managed += zones[j].managed;
            zones[i].lowmem_reserve[j] = if ratio == 0 || zones[i].managed == 0 { 0 } else { managed / ratio };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(t: ZoneType, managed: u64) -> Zone {
        Zone {
            zone_type: t,
            start_pfn: 0,
            managed,
            free_list: ListHead::default(),
            watermark: [0; 4],
            lowmem_reserve: [0; MAX_NR_ZONES],
        }
    }

    #[test]
    fn int_sqrt_is_floor() {
        for x in [0u64, 1, 2, 3, 4, 15, 16, 17, 99, 100, 1 << 40, u32::MAX as u64] {
            let r = int_sqrt(x);
            assert!(r * r <= x && (r + 1) * (r + 1) > x, "int_sqrt({x}) = {r}");
        }
    }

    #[test]
    fn watermarks_hand_computed() {
        // 1 GiB Normal zone alone: 262144 pages. min_free_kbytes =
        // int_sqrt(1048576 * 16) = 4096 kB -> 1024 pages. gap = max(256,
        // 262144 * 10 / 10000 = 262) = 262.
        let mut zs = vec![zone(ZoneType::Normal, 262_144)];
        let mfk = default_min_free_kbytes(262_144);
        assert_eq!(mfk, 4096);
        let lowmem = lowmem_pages(&zs);
        setup_per_zone_wmarks(&mut zs, mfk, 10, lowmem);
        assert_eq!(zs[0].watermark, [1024, 1286, 1548, 1810]);
    }

    #[test]
    fn nodes_share_one_min_free_kbytes() {
        // Two nodes, each a 1 GiB Normal zone: lowmem_pages counts both
        // (524288 pages, 2 GiB), so min_free_kbytes = int_sqrt(2097152 * 16)
        // = 5792 kB -> pages_min 1448, half of it per zone: 724. gap =
        // max(724 / 4, 262144 * 10 / 10000 = 262) = 262. One node alone
        // would take 1024 (above): a node does not get the machine's whole
        // reserve.
        let mut node0 = vec![zone(ZoneType::Normal, 262_144)];
        let mut node1 = vec![zone(ZoneType::Normal, 262_144)];
        let lowmem = lowmem_pages(node0.iter().chain(node1.iter()));
        assert_eq!(lowmem, 524_288);
        let mfk = default_min_free_kbytes(lowmem);
        assert_eq!(mfk, 5792);
        setup_per_zone_wmarks(&mut node0, mfk, 10, lowmem);
        setup_per_zone_wmarks(&mut node1, mfk, 10, lowmem);
        assert_eq!(node0[0].watermark, [724, 986, 1248, 1510]);
        assert_eq!(node1[0].watermark, node0[0].watermark);
    }

    #[test]
    fn movable_min_is_capped_but_not_its_gaps() {
        // Normal 262144 pages and Movable 1048576: pages_min = 4096 kB / 4 =
        // 1024; Movable's share = 1024 * 1048576 / 262144 = 4096, its min
        // clamp(1048576 / 1024, 32, 128) = 128; gap = max(4096 / 4,
        // 1048576 * 1 / 10000 = 104) = 1024.
        let mut zs = vec![zone(ZoneType::Normal, 262_144), zone(ZoneType::Movable, 1_048_576)];
        let lowmem = lowmem_pages(&zs);
        setup_per_zone_wmarks(&mut zs, 4096, 1, lowmem);
        assert_eq!(zs[0].watermark, [1024, 1280, 1536, 1792]);
        assert_eq!(zs[1].watermark, [128, 1152, 2176, 3200]);
    }

    #[test]
    fn lowmem_reserve_hand_computed() {
        let mut zs = vec![zone(ZoneType::Dma, 4000), zone(ZoneType::Dma32, 65_536), zone(ZoneType::Normal, 131_072)];
        setup_per_zone_lowmem_reserve(&mut zs);
        assert_eq!(zs[0].lowmem_reserve, [0, 65_536 / 256, (65_536 + 131_072) / 256, 0]);
        assert_eq!(zs[1].lowmem_reserve, [0, 0, 131_072 / 256, 0]);
        assert_eq!(zs[2].lowmem_reserve, [0; 4]);
    }
}
