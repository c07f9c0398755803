//! The tracked sample: its size (a workload's trackedPages, mglru-basic's
//! tracked_pages), and the compact form frames carry (Frame::tracked), which
//! must say exactly what the full records (Frame::folios) say.
use std::collections::BTreeMap;

use reclaim_core::scenario::{self, Scenario};
use reclaim_core::sim::{Simulation, FULL_FOLIO_RECORDS};
use reclaim_core::view::{Frame, ScenarioRequest, TrackedCell, TrackedFolioView};

fn request(name: &str, params: &[(&str, f64)]) -> ScenarioRequest {
    let params: BTreeMap<String, f64> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    ScenarioRequest { name: name.into(), seed: 3, params, variant: None }
}

fn sim(name: &str, params: &[(&str, f64)]) -> Simulation {
    let mut s = Simulation::new(scenario::build(&request(name, params)).expect("valid request")).expect("valid scenario");
    s.set_event_log(true);
    s
}

/// A big sample: 10,000 pages of a 16,384-page file and a 4,096-page heap in a memcg that holds 12,288 pages.
const BIG: &[(&str, f64)] = &[("memory_max", 12_288.0), ("file_pages", 16_384.0), ("anon_pages", 4_096.0), ("tracked_pages", 10_000.0)];

/// The full records that the compact form of `frame` stands for (what the UI's decoder does).
fn decode(frame: &Frame) -> Vec<TrackedFolioView> {
    let mut out = Vec::new();
    let mut cells = frame.tracked.cells.chunks_exact(4);
    for space in &frame.tracked.spaces {
        for k in 0..space.count {
            let c = TrackedCell::decode(cells.next().expect("a cell per tracked page").try_into().unwrap());
            let lruvec = (c.state == TrackedCell::RESIDENT).then(|| &frame.lruvecs[c.lruvec as usize]);
            out.push(TrackedFolioView {
                page: format!("{}#{}", space.name, k * space.stride),
                kind: space.kind,
                memcg: lruvec.map_or(space.memcg.clone(), |l| l.memcg.clone()),
                node: lruvec.map(|l| l.node),
                state: ["absent", "resident", "evicted", "swapped"][c.state as usize].into(),
                seq: lruvec.filter(|_| c.gen > 0).map(|l| l.min_seq[0].min(l.min_seq[1]) + u64::from(c.gen) - 1),
                tier: u32::from(c.tier),
                active: c.active,
            });
        }
    }
    assert!(cells.next().is_none(), "no cells beyond the spaces' counts");
    out
}

#[test]
fn cells_round_trip() {
    for cell in [
        TrackedCell::default(),
        TrackedCell { state: TrackedCell::RESIDENT, tier: 3, active: true, gen: 4, lruvec: 65_535 },
        TrackedCell { state: TrackedCell::SWAPPED, tier: 0, active: false, gen: 0, lruvec: 0 },
        TrackedCell { state: TrackedCell::RESIDENT, tier: 2, active: false, gen: 1, lruvec: 258 },
    ] {
        assert_eq!(TrackedCell::decode(cell.encode()), cell);
    }
}

/// The compact form says what the full records say, at every step, with
/// MGLRU and the classic LRU, with one lruvec and with several.
#[test]
fn compact_form_matches_the_full_records() {
    let cases: [(&str, &[(&str, f64)]); 4] = [
        ("mglru-basic", &[("anon_pages", 3000.0), ("file_pages", 3000.0)]),
        ("classic-basic", &[("anon_pages", 3000.0), ("file_pages", 3000.0)]),
        ("proactive-root", &[("memcgs", 8.0), ("request", 512.0)]),
        ("global-pressure", &[]),
    ];
    for (name, params) in cases {
        let mut s = sim(name, params);
        let mut seen_resident = false;
        for step in 0..120 {
            s.step();
            if step % 10 != 9 {
                continue;
            }
            let frame = s.frame();
            assert!(!frame.folios.is_empty(), "{name}: a small sample comes as full records too");
            assert_eq!(decode(&frame), frame.folios, "{name}, step {}", frame.step);
            seen_resident |= frame.folios.iter().any(|f| f.state == "resident" && f.seq.is_some());
        }
        assert!(seen_resident || name == "classic-basic", "{name}: some tracked page is resident");
    }
}

#[test]
fn tracked_pages_sets_the_sample_size() {
    let mut s = sim("mglru-basic", BIG);
    let tracked = s.tracked_folios();
    assert_eq!(tracked.len(), 10_000);
    // Shared in proportion to the sizes: 16,384 / 20,480 of them file pages.
    assert_eq!(tracked.iter().filter(|t| t.kind == reclaim_core::view::FolioType::File).count(), 8_000);
    assert!(tracked.iter().any(|t| t.page == "file:reader#2"), "every other file page (stride 16384 / 8000 = 2)");
    for _ in 0..200 {
        s.step();
    }
    let frame = s.frame();
    assert!(frame.tracked.cells.len() == 4 * 10_000 && 10_000 > FULL_FOLIO_RECORDS);
    assert!(frame.folios.is_empty(), "a big sample comes in compact form only");
    let decoded = decode(&frame);
    assert_eq!(decoded, s.tracked_folios());
    let resident = decoded.iter().filter(|f| f.state == "resident").count();
    let evicted = decoded.iter().filter(|f| f.state != "resident" && f.state != "absent").count();
    assert!(resident > 4_000 && evicted > 100, "{resident} resident, {evicted} evicted or swapped");
    assert!(frame.folio_events.len() <= reclaim_core::sim::FOLIO_EVENTS_PER_FRAME);
    // A tracked page's history is kept.
    let page = &decoded.iter().find(|f| f.state == "evicted").unwrap().page;
    assert!(s.history(page).iter().any(|e| e.function == "__remove_mapping"));
}

/// Tracking is instrumentation: the same run makes the same decisions with any sample.
#[test]
fn the_sample_size_changes_no_decision() {
    let counters = |tracked: f64| {
        let params: Vec<(&str, f64)> = BIG.iter().map(|&(k, v)| (k, if k == "tracked_pages" { tracked } else { v })).collect();
        let mut s = sim("mglru-basic", &params);
        for _ in 0..150 {
            s.step();
        }
        s.vmstat()
    };
    let automatic = counters(0.0);
    assert_eq!(counters(10_000.0), automatic);
    assert_eq!(counters(1.0), automatic);
}

#[test]
fn tracked_pages_out_of_range_names_the_field() {
    let s = scenario::build(&request("mglru-basic", &[])).unwrap();
    let with = |i: usize, t: u32| {
        let mut s: Scenario = s.clone();
        s.workloads[i].tracked_pages = Some(t);
        s.validate().err().map(|e| e.to_string())
    };
    assert_eq!(with(0, 4096), None);
    let e = with(0, 4097).expect("more than the file's pages");
    assert!(e.starts_with("workloads[0].trackedPages: 4097 is out of range: accepted from 1 to 4096"), "{e}");
    assert!(with(1, 0).expect("zero").starts_with("workloads[1].trackedPages"));
    let e = scenario::build(&request("mglru-basic", &[("tracked_pages", 70_000.0)])).unwrap_err().to_string();
    assert!(e.contains("param tracked_pages") && e.contains("from 0 to 65536"), "{e}");
    // More than the file and heap have: all of them.
    let all = scenario::build(&request("mglru-basic", &[("tracked_pages", 65_536.0)])).unwrap();
    assert_eq!(all.workloads.iter().map(|w| w.tracked_pages).collect::<Vec<_>>(), vec![Some(4096), Some(1024)]);
    // A scenario file says it per workload.
    let json = serde_json::to_string(&all).unwrap();
    assert!(json.contains("\"trackedPages\":4096"), "{json}");
    assert_eq!(Scenario::from_json(&json).unwrap(), all);
}
