//! Running the tasks: one access of a workload, a memory.reclaim write,
//! a task's exit, and the OOM killer (the simulated processes' side of the
//! machine; the kernel's side is in crate::mm).
use std::cmp::Reverse;

use super::{Simulation, RECLAIM_LOG_LEN};
use crate::mm::filemap::Slot;
use crate::mm::folio::pg;
use crate::mm::vmstat::Item;
use crate::mm::{MappingId, MappingKind, MemcgId};

impl Simulation {
    /// One write to memory.reclaim by proactive writer `j` at `when`.
    fn run_proactive(&mut self, when: u64, j: usize) {
        let (memcg, spec, done) = self.proactive[j];
        let p = self.scenario.proactive[spec].clone();
        self.mm.now_ns = when;
        self.mm.writeback_complete_until(when);
        self.mm.cost_ns = 0;
        self.mm.io_wait_ns = 0;
        self.mm.current = crate::mm::Current { task: Some((self.tasks.len() + j) as u32), ..Default::default() };
        let pages = match p.bytes {
            // memory_reclaim(): memparse(buf) / PAGE_SIZE, rounded down (v6.12).
            Some(b) => b / 4096,
            None if p.pages == 0 => self.mm.memcgs[memcg as usize].usage,
            None => p.pages,
        };
        let result = self.mm.memory_reclaim(memcg, pages);
        let duration = self.mm.action_duration(self.mm.cost_ns).max(1);
        if self.reclaim_log.len() == RECLAIM_LOG_LEN {
            self.reclaim_log.pop_front();
        }
        self.reclaim_log.push_back(result);
        self.proactive[j].2 = done + 1;
        if done + 1 < p.count {
            let next = p.start_ns.saturating_add((done + 1).saturating_mul(p.interval_ns)).max(when.saturating_add(duration));
            self.queue.push(Reverse((next, (self.tasks.len() + j) as u32)));
        }
    }

    /// A task ends; with free_on_exit its anonymous memory goes (exit_mmap).
    fn task_exit(&mut self, i: usize) {
        self.tasks[i].alive = false;
        self.tasks[i].ended_ns = self.mm.now_ns;
        let m = self.tasks[i].mapping;
        if self.tasks[i].free_on_exit && self.mm.mappings[m as usize].kind == MappingKind::Anon {
            self.free_anon_mapping(m);
        }
    }

    /// One access of task `i` at `when` (or a memory.reclaim write).
    pub(super) fn run_task(&mut self, when: u64, i: usize) {
        if i >= self.tasks.len() {
            self.run_proactive(when, i - self.tasks.len());
            return;
        }
        if !self.tasks[i].alive {
            return;
        }
        self.mm.now_ns = when;
        self.mm.writeback_complete_until(when);
        if self.tasks[i].stop_ns != 0 && when >= self.tasks[i].stop_ns {
            self.task_exit(i);
            return;
        }
        let Some((page, op)) = self.tasks[i].gen.next_access() else {
            self.task_exit(i);
            return;
        };
        self.mm.cost_ns = 0;
        self.mm.io_wait_ns = 0;
        let t = &self.tasks[i];
        let (memcg, node, mapping) = (t.memcg, t.node, t.mapping);
        self.mm.current = crate::mm::Current { highest_zoneidx: t.highest_zoneidx, task: Some(i as u32) };
        match self.mm.access(memcg, node, mapping, page, op) {
            Ok(out) => {
                let t = &mut self.tasks[i];
                t.accesses += 1;
                t.hits += u64::from(out.hit);
            }
            Err(fail) if fail.oom => self.out_of_memory(fail.memcg),
            // A lowmem allocation failed: the access is not made; the task
            // goes on at its pace.
            Err(_) => self.tasks[i].failed += 1,
        }
        let cost = self.mm.action_duration(self.mm.cost_ns).max(1);
        let t = &mut self.tasks[i];
        if t.first_pass_ns == 0 && t.accesses == u64::from(t.gen.pages()) {
            t.first_pass_ns = when + cost;
        }
        t.next_ns = if t.closed_loop {
            when.saturating_add(cost).saturating_add(t.interval_ns)
        } else {
            when.saturating_add(cost).max(t.start_ns.saturating_add((t.accesses + t.failed).saturating_mul(t.interval_ns)))
        };
        if t.alive {
            self.queue.push(Reverse((t.next_ns, i as u32)));
        }
    }

    /// mem_cgroup_out_of_memory() / out_of_memory(): kill the task in the
    /// memcg's subtree with the highest badness (resident anon pages plus its
    /// swap entries; oom_badness), freeing its anonymous memory.
    fn out_of_memory(&mut self, memcg: MemcgId) {
        let mut victim: Option<(u64, usize)> = None;
        for (i, t) in self.tasks.iter().enumerate() {
            if !t.alive || !self.mm.mem_cgroup_is_descendant(t.memcg, memcg) {
                continue;
            }
            let a = &self.mm.mappings[t.mapping as usize];
            let badness = if a.kind == MappingKind::Anon { a.slots.iter().filter(|&&s| s != 0).count() as u64 } else { 0 };
            if victim.is_none_or(|(b, _)| badness > b) {
                victim = Some((badness, i));
            }
        }
        let Some((_, i)) = victim else {
            return;
        };
        self.tasks[i].alive = false;
        self.tasks[i].ended_ns = self.mm.now_ns;
        let freed = if self.mm.mappings[self.tasks[i].mapping as usize].kind == MappingKind::Anon {
            self.free_anon_mapping(self.tasks[i].mapping)
        } else {
            0
        };
        let tm = self.tasks[i].memcg;
        // memcg_memory_event_mm(): the victim's memcg, whatever the OOM's scope.
        self.mm.memcg_memory_event(tm, crate::mm::memcontrol::MemcgEvent::OomKill);
        self.mm.count(tm, Item::OomKill, 1, true);
        let (path, name, now) = (self.mm.memcgs[memcg as usize].path.clone(), self.tasks[i].name.clone(), self.mm.now_ns);
        self.mm.events.push_rare(now, || crate::event::EventKind::Oom { memcg: path, victim: name, freed });
    }

    /// exit_mmap() of a killed task: every resident folio and swap entry of
    /// the anon mapping is released, but for a folio under swap writeback,
    /// which stays in the swap cache (pg::ORPHAN) for reclaim to free.
    fn free_anon_mapping(&mut self, m: MappingId) -> u64 {
        let mut freed = 0;
        for idx in 0..self.mm.mappings[m as usize].slots.len() as u32 {
            // A swap entry whose folio is still in the swap cache (kept
            // dirty): free_swap_and_cache() takes the folio. One under
            // writeback it cannot take (folio_free_swap fails): it is left
            // to reclaim, which frees it once the write has ended.
            match self.mm.resident_slot(m, idx) {
                Slot::Folio(f) if self.mm.folios.test(f, pg::WRITEBACK) => {
                    self.mm.folios.clear(f, pg::MAPPED | pg::YOUNG | pg::REFERENCED | pg::DIRTY);
                    self.mm.folios.set(f, pg::ORPHAN);
                }
                Slot::Folio(f) => {
                    let lv = self.mm.folios.lruvec[f as usize];
                    let memcg = self.mm.lruvec_memcg(lv);
                    if self.mm.folios.test(f, pg::LRU) {
                        self.mm.lruvec_del_folio(f);
                    }
                    if self.mm.folios.test(f, pg::SWAPCACHE) {
                        self.mm.delete_from_swap_cache(f);
                    }
                    self.mm.uncharge(memcg, 1);
                    let node = self.mm.lruvec_node(lv);
                    self.mm.free_folio(f, node);
                    freed += 1;
                }
                Slot::Swap(slot) => {
                    let memcg = self.mm.mappings[m as usize].memcg;
                    self.mm.swap.free_slot(slot);
                    self.mm.swap_uncharge(memcg);
                }
                Slot::Empty | Slot::Shadow(_) => {}
            }
            self.mm.set_slot(m, idx, Slot::Empty);
        }
        freed
    }
}
