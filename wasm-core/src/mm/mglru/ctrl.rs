//! The MGLRU PID controller over tiers (mm/vmscan.c: struct ctrl_pos,
//! read_ctrl_pos(), reset_ctrl_pos(), get_type_to_scan(), get_tier_idx()).
use crate::mm::lruvec::{lru_hist_from_seq, MAX_NR_TIERS, MIN_LRU_BATCH};
use crate::mm::{LruvecId, Mm, LRU_GEN_ANON, LRU_GEN_FILE, MAX_SWAPPINESS};

/// `struct ctrl_pos`: one position of the PID controller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtrlPos {
    pub refaulted: u64,
    pub total: u64,
    pub gain: u64,
}

/// positive_ctrl_err(): true if the process variable `pv` has few refaults
/// or a refault rate (scaled by its gain) no higher than the set point `sp`'s.
pub fn positive_ctrl_err(sp: &CtrlPos, pv: &CtrlPos) -> bool {
    pv.refaulted < MIN_LRU_BATCH
        || u128::from(pv.refaulted) * u128::from(sp.total + MIN_LRU_BATCH) * u128::from(sp.gain)
            <= u128::from(sp.refaulted + 1) * u128::from(pv.total) * u128::from(pv.gain)
}

impl Mm {
    // ------------------------------------------------------- PID controller

    /// read_ctrl_pos(): refaults and total evictions (plus protections for
    /// tiers >= 1) of (type, tier), smoothed over generations.
    pub fn read_ctrl_pos(&self, lv: LruvecId, type_: usize, tier: usize, gain: u64) -> CtrlPos {
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        let hist = lru_hist_from_seq(lrugen.min_seq[type_]);
        let mut total = lrugen.avg_total[type_][tier] + lrugen.evicted[hist][type_][tier];
        if tier > 0 {
            total += lrugen.protected[hist][type_][tier - 1];
        }
        CtrlPos { refaulted: lrugen.avg_refaulted[type_][tier] + lrugen.refaulted[hist][type_][tier], total, gain }
    }

    /// reset_ctrl_pos(): when min_seq[type] advances (carryover), the
    /// generation's counters are folded into the moving averages (factor 1/2)
    /// and cleared (NR_HIST_GENS == 1).
    pub fn reset_ctrl_pos(&mut self, lv: LruvecId, type_: usize, carryover: bool) {
        if !carryover {
            return;
        }
        let hist = lru_hist_from_seq(self.lruvecs[lv as usize].lrugen.min_seq[type_]);
        let patch004 = self.knobs.refault_distance_mglru;
        let lrugen = &mut self.lruvecs[lv as usize].lrugen;
        for tier in 0..MAX_NR_TIERS {
            let refaulted = lrugen.avg_refaulted[type_][tier] + lrugen.refaulted[hist][type_][tier];
            let mut total = lrugen.avg_total[type_][tier] + lrugen.evicted[hist][type_][tier];
            if tier > 0 {
                total += lrugen.protected[hist][type_][tier - 1];
            }
            if patch004 {
                // Raised tiers can refault more than they evicted (patch 004).
                total = total.max(refaulted);
            }
            lrugen.avg_refaulted[type_][tier] = refaulted / 2;
            lrugen.avg_total[type_][tier] = total / 2;
            lrugen.refaulted[hist][type_][tier] = 0;
            lrugen.evicted[hist][type_][tier] = 0;
            if tier > 0 {
                lrugen.protected[hist][type_][tier - 1] = 0;
            }
        }
    }

    /// get_type_to_scan() (<= 6.13): compare tier 0 of anon (gain swappiness)
    /// with tier 0 of file (gain 200 - swappiness) to pick the type; then find
    /// the last tier of that type whose refault rate stays below the other
    /// type's tier 0. Returns (type, tier_idx).
    pub fn get_type_to_scan(&self, lv: LruvecId, swappiness: u32) -> (usize, usize) {
        let gain = [u64::from(swappiness), u64::from(MAX_SWAPPINESS - swappiness)];
        let sp = self.read_ctrl_pos(lv, LRU_GEN_ANON, 0, gain[LRU_GEN_ANON]);
        let pv = self.read_ctrl_pos(lv, LRU_GEN_FILE, 0, gain[LRU_GEN_FILE]);
        let type_ = usize::from(positive_ctrl_err(&sp, &pv));
        let sp = self.read_ctrl_pos(lv, 1 - type_, 0, gain[1 - type_]);
        let mut tier = 1;
        while tier < MAX_NR_TIERS {
            let pv = self.read_ctrl_pos(lv, type_, tier, gain[type_]);
            if !positive_ctrl_err(&sp, &pv) {
                break;
            }
            tier += 1;
        }
        (type_, tier - 1)
    }

    /// get_tier_idx() (<= 6.13): the last tier whose refault rate is at most
    /// about twice tier 0's (gains 1:2, to leave a margin for fluctuations).
    pub fn get_tier_idx(&self, lv: LruvecId, type_: usize) -> usize {
        let sp = self.read_ctrl_pos(lv, type_, 0, 1);
        let mut tier = 1;
        while tier < MAX_NR_TIERS {
            let pv = self.read_ctrl_pos(lv, type_, tier, 2);
            if !positive_ctrl_err(&sp, &pv) {
                break;
            }
            tier += 1;
        }
        tier - 1
    }
}
