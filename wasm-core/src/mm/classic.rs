//! The classic active/inactive LRU (mm/vmscan.c, mm/swap.c) used when MGLRU
//! is off.
use super::folio::{pg, FolioId};
use super::lruvec::{LRU_INACTIVE_ANON, LRU_INACTIVE_FILE};
use super::vmstat::Item;
use super::Mm;

impl Mm {
    /// folio_lru_list(): which classic list a folio belongs on.
    pub fn folio_lru_list(&self, f: FolioId) -> usize {
        let base = if self.folios.test(f, pg::ANON) { LRU_INACTIVE_ANON } else { LRU_INACTIVE_FILE };
        base + usize::from(self.folios.test(f, pg::ACTIVE))
    }

    /// lruvec_add_folio() for the classic LRU: the head of its list.
    pub fn classic_add_folio(&mut self, f: FolioId) {
        let lv = self.folios.lruvec[f as usize];
        let lru = self.folio_lru_list(f);
        let zone = self.folios.zone(f);
        self.lruvecs[lv as usize].lists[lru][zone].add_head(&mut self.folios, f);
    }

    /// lruvec_del_folio() for the classic LRU.
    pub fn classic_del_folio(&mut self, f: FolioId) {
        let lv = self.folios.lruvec[f as usize];
        let lru = self.folio_lru_list(f);
        let zone = self.folios.zone(f);
        self.lruvecs[lv as usize].lists[lru][zone].del(&mut self.folios, f);
    }

    /// folio_mark_accessed() (classic): inactive unreferenced -> referenced;
    /// inactive referenced -> active (PGACTIVATE, workingset_activation),
    /// referenced cleared; active -> referenced.
    pub fn classic_mark_accessed(&mut self, f: FolioId) {
        if !self.folios.test(f, pg::REFERENCED) {
            self.folios.set(f, pg::REFERENCED);
        } else if self.folios.test(f, pg::UNEVICTABLE) {
        } else if !self.folios.test(f, pg::ACTIVE) {
            if self.folios.test(f, pg::LRU) {
                // folio_activate()
                self.classic_del_folio(f);
                self.folios.set(f, pg::ACTIVE);
                self.classic_add_folio(f);
                let memcg = self.lruvec_memcg(self.folios.lruvec[f as usize]);
                self.count(memcg, Item::Pgactivate, 1, true);
            } else {
                self.folios.set(f, pg::ACTIVE);
            }
            self.folios.clear(f, pg::REFERENCED);
            self.workingset_activation(f);
        }
    }

    /// shrink_lruvec() for the classic LRU. Not modelled yet: scenario
    /// validation refuses `lruGenEnabled: false` until it is.
    pub fn classic_shrink_lruvec(&mut self, _lv: super::LruvecId, _sc: &mut super::vmscan::ScanControl) {}
}
