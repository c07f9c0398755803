//! Reclaim Lab engine: a deterministic, teaching-scale model of Linux memory
//! reclaim. Everything that decides which folio is reclaimed lives here; the
//! browser (through [`wasm`]) and the `reclaim-sim` command line are two front
//! doors onto the same [`sim::Simulation`].
//!
//! Layout mirrors the kernel: [`mm`] holds one file per mechanism (folio,
//! lruvec, MGLRU, workingset, vmscan, memcontrol, page allocator, swap),
//! [`workload`] the access-pattern generators, [`scenario`] the versioned
//! scenario format and the built-in scenarios, [`sim`] the stepping API and
//! simulated clock, [`timeline`] checkpoints for stepping back and exact
//! seeking, [`view`] the small view models sent to the UI ([`shadow_view`]
//! the shadow LRU's).

pub mod cost;
pub mod event;
pub mod experiment;
pub mod mm;
pub mod replay;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod shadow_view;
pub mod sim;
pub mod sweep;
pub mod timeline;
pub mod view;
pub mod workload;

#[cfg(target_arch = "wasm32")]
mod wasm;
