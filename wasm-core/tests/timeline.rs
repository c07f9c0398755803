//! The timeline: stepping back and seeking give exactly what stepping
//! forward gives (frames, counters, folio histories), checkpoints stay
//! within their limits, and runs to the next event stop on the first step
//! that has one.
use std::collections::BTreeMap;

use reclaim_core::event::EventMatch;
use reclaim_core::mm::vmstat::Item;
use reclaim_core::scenario;
use reclaim_core::sim::Simulation;
use reclaim_core::timeline::{step_from_f64, Limits, Timeline, TimelineError, MAX_STEP};
use reclaim_core::view::ScenarioRequest;

fn sim(name: &str, params: &[(&str, f64)], seed: u64) -> Simulation {
    let params: BTreeMap<String, f64> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let req = ScenarioRequest { name: name.into(), seed, params, variant: None };
    let mut s = Simulation::new(scenario::build(&req).expect("valid request")).expect("valid scenario");
    s.set_event_log(true);
    s
}

/// mglru-basic, light: a uniform reader over a file 4x the limit and a small heap.
const LIGHT: &[(&str, f64)] = &[("reader_pattern", 1.0), ("file_pages", 8192.0), ("anon_pages", 256.0), ("anon_rate", 1000.0)];

/// Small limits: a checkpoint every few steps, and thinning long before the end.
const SMALL: Limits = Limits { max_bytes: usize::MAX, max_checkpoints: 6, work_per_checkpoint: u64::MAX, max_steps_per_checkpoint: 7 };

/// A frame as JSON (pgsteal_cv may be NaN, which is not equal to itself).
fn json(frame: &reclaim_core::view::Frame) -> String {
    serde_json::to_string(frame).expect("a frame serializes")
}

/// Reference: the frame after each step 0..=n, stepping one step at a time
/// on a plain Simulation (no timeline), and some tracked pages' histories.
struct Reference {
    frames: Vec<String>,
    histories: Vec<Vec<String>>,
    pages: Vec<String>,
}

fn reference(mut s: Simulation, n: u64) -> Reference {
    let pages: Vec<String> = s.tracked_folios().iter().step_by(7).map(|f| f.page.clone()).collect();
    let history = |s: &Simulation| pages.iter().map(|p| serde_json::to_string(&s.history(p)).unwrap()).collect::<Vec<_>>();
    let mut frames = vec![json(&s.frame())];
    let mut histories = vec![history(&s)];
    for _ in 0..n {
        s.begin_frame();
        s.step();
        frames.push(json(&s.frame()));
        histories.push(history(&s));
    }
    Reference { frames, histories, pages }
}

/// Checks the timeline's current state against the reference at its step.
fn check(t: &mut Timeline, r: &Reference, what: &str) {
    let step = t.step_count();
    let frame = t.frame_since(step.saturating_sub(1));
    assert_eq!(frame.step, step, "{what}");
    assert!(json(&frame) == r.frames[step as usize], "{what}: the frame at step {step} differs from stepping forward");
    for (p, h) in r.pages.iter().zip(&r.histories[step as usize]) {
        assert_eq!(&serde_json::to_string(&t.sim().history(p)).unwrap(), h, "{what}: history of {p} at step {step}");
    }
}

#[test]
fn seeking_and_stepping_back_give_the_frames_of_stepping_forward() {
    for (name, params, n) in [("mglru-basic", LIGHT, 160u64), ("global-pressure", &[][..], 120), ("classic-basic", &[("memory_max", 512.0)][..], 100), ("kswapd-classzone", &[][..], 130)] {
        let r = reference(sim(name, params, 3), n);
        let mut t = Timeline::with_limits(sim(name, params, 3), SMALL);
        t.step(n).unwrap();
        check(&mut t, &r, name);
        assert!(t.checkpoint_steps().len() > 2, "{name}: checkpoints {:?}", t.checkpoint_steps());
        // Backwards past checkpoints, to a checkpoint, to 0, forwards within the run, to the end.
        let cps = t.checkpoint_steps();
        for target in [n - 1, n / 2, cps[1], cps[1] - 1, cps[1] + 1, 0, 3, n - 2, n / 3, n] {
            t.seek(target).unwrap();
            check(&mut t, &r, &format!("{name}, seek to {target}"));
        }
        // Step back one step at a time over several checkpoints.
        t.seek(40).unwrap();
        while t.step_count() > 0 {
            t.step_back().unwrap();
            check(&mut t, &r, &format!("{name}, step back"));
        }
        assert_eq!(t.step_back(), Err(TimelineError::AtStart));
        // And forwards again one step at a time.
        for _ in 0..12 {
            t.step(1).unwrap();
            check(&mut t, &r, &format!("{name}, step forward after stepping back"));
        }
        assert_eq!(t.furthest(), n);
    }
}

#[test]
fn long_replays_leave_local_checkpoints_that_give_the_same_frames() {
    // Two checkpoints over 200 steps: every seek back is a long replay.
    let few = Limits { max_bytes: usize::MAX, max_checkpoints: 2, work_per_checkpoint: u64::MAX, max_steps_per_checkpoint: 10 };
    for (name, params) in [("mglru-basic", LIGHT), ("global-pressure", &[][..])] {
        let n = 200;
        let r = reference(sim(name, params, 4), n);
        let mut t = Timeline::with_limits(sim(name, params, 4), few);
        t.step(n).unwrap();
        assert!(t.local_steps().is_empty());
        let cps = t.checkpoint_steps();
        assert_eq!(cps.len(), 2, "{cps:?}");
        t.step_back().unwrap();
        check(&mut t, &r, name);
        let local = t.local_steps();
        assert!(local.len() >= 4 && local.iter().all(|&s| s > cps[1] && s < n - 1), "{name}: local {local:?} after checkpoints {cps:?}");
        for _ in 0..60 {
            t.step_back().unwrap();
            check(&mut t, &r, &format!("{name}, stepping back from local checkpoints"));
        }
        for target in [local[0], local[0] + 1, local[1] - 1, cps[1] + 30, 5] {
            t.seek(target).unwrap();
            check(&mut t, &r, &format!("{name}, seek to {target} near local checkpoints"));
        }
    }
}

#[test]
fn counters_are_identical_with_the_default_limits_after_a_long_run() {
    let n = 2_500;
    let mut plain = sim("mglru-basic", LIGHT, 11);
    let mut counters = Vec::new();
    for _ in 0..n {
        plain.step();
        counters.push(plain.vmstat());
    }
    let mut t = Timeline::new(sim("mglru-basic", LIGHT, 11));
    t.step(n).unwrap();
    // Light steps: one every max_steps_per_checkpoint (the browser test steps back across one).
    assert_eq!(t.checkpoint_steps(), (0..=n).step_by(500).collect::<Vec<_>>());
    for target in [1, 999, 1_000, 1_001, 2_499, 1_777, 2_000, 17, 2_500] {
        t.seek(target).unwrap();
        assert_eq!(t.sim().vmstat(), counters[target as usize - 1], "counters at step {target}");
        t.sim().check_invariants().unwrap();
    }
}

#[test]
fn a_forward_seek_gives_the_frame_of_one_multi_step_move() {
    // kswapd's transitions over the whole move come from its kept timeline,
    // also when the seek restored a checkpoint on the way.
    let mut plain = sim("global-pressure", &[], 5);
    for _ in 0..30 {
        plain.step();
    }
    plain.begin_frame();
    for _ in 30..110 {
        plain.step();
    }
    let expected = json(&plain.frame());
    let transitions: usize = plain.frame().nodes.iter().map(|n| n.kswapd.transitions.len()).sum();
    assert!(transitions > 1, "kswapd should change modes in steps 30..110 ({transitions})");

    let mut t = Timeline::with_limits(sim("global-pressure", &[], 5), SMALL);
    t.step(120).unwrap();
    t.seek(30).unwrap();
    t.seek(110).unwrap();
    assert_eq!(json(&t.frame_since(30)), expected);
}

#[test]
fn checkpoints_thin_out_and_stay_within_their_limits() {
    let mut t = Timeline::with_limits(sim("mglru-basic", LIGHT, 1), SMALL);
    let mut most = 0;
    for _ in 0..50 {
        t.step(10).unwrap();
        let steps = t.checkpoint_steps();
        most = most.max(steps.len());
        assert!(steps.len() <= SMALL.max_checkpoints, "{steps:?}");
        assert_eq!(steps[0], 0);
        assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
    }
    let steps = t.checkpoint_steps();
    assert!(most == SMALL.max_checkpoints, "the cap was reached ({most})");
    // Spread over the run: no gap (nor the tail) is longer than twice the spacing.
    let spacing = 500 / SMALL.max_checkpoints as u64;
    let mut edges = steps.clone();
    edges.push(t.step_count());
    assert!(edges.windows(2).all(|w| w[1] - w[0] <= 4 * spacing), "{steps:?}");

    // A byte budget of three checkpoints keeps at most three.
    let one = sim("mglru-basic", LIGHT, 1).approx_bytes();
    let budget = Limits { max_bytes: one * 3 + one / 2, max_checkpoints: 1000, work_per_checkpoint: u64::MAX, max_steps_per_checkpoint: 5 };
    let mut t = Timeline::with_limits(sim("mglru-basic", LIGHT, 1), budget);
    for _ in 0..20 {
        t.step(10).unwrap();
        assert!(t.checkpoint_steps().len() <= 3, "{:?}", t.checkpoint_steps());
        assert!(t.checkpoint_bytes() <= budget.max_bytes);
    }
    t.seek(7).unwrap();
    assert_eq!(t.step_count(), 7);
}

#[test]
fn work_spaces_checkpoints_when_steps_are_heavy() {
    let limits = Limits { max_bytes: usize::MAX, max_checkpoints: 1000, work_per_checkpoint: 50_000, max_steps_per_checkpoint: 1_000_000 };
    let mut t = Timeline::with_limits(sim("mglru-basic", &[], 1), limits);
    t.step(100).unwrap();
    let steps = t.checkpoint_steps();
    assert!(steps.len() > 3, "{steps:?}");
    for w in steps.windows(2) {
        let mut a = sim("mglru-basic", &[], 1);
        let mut b = sim("mglru-basic", &[], 1);
        for _ in 0..w[0] {
            a.step();
        }
        for _ in 0..w[1] - 1 {
            b.step();
        }
        // The checkpoint came at the first step past the work interval.
        assert!(b.work() - a.work() < 50_000, "{w:?}");
        b.step();
        assert!(b.work() - a.work() >= 50_000, "{w:?}");
    }
}

/// Steps a plain simulation one step at a time until `hit` says a step had the event; returns that step.
fn first_step(mut s: Simulation, limit: u64, hit: impl Fn(&Simulation, &Simulation) -> bool) -> Option<u64> {
    for _ in 0..limit {
        let before = s.clone();
        s.step();
        if hit(&before, &s) {
            return Some(s.step_count());
        }
    }
    None
}

fn max_seqs(s: &Simulation) -> u64 {
    s.mm.lruvecs.iter().map(|l| l.lrugen.max_seq).sum()
}

fn refaults(s: &Simulation) -> u64 {
    s.mm.vmstat.get(Item::WorkingsetRefaultAnon) + s.mm.vmstat.get(Item::WorkingsetRefaultFile)
}

/// kswapd_sleep() counts every sleep and is the only way to Asleep.
fn sleeps(s: &Simulation) -> u64 {
    s.mm.nodes.iter().map(|n| n.kswapd.sleeps).sum()
}

#[test]
fn runs_stop_at_the_first_step_with_an_event_of_the_kind() {
    type Hit = fn(&Simulation, &Simulation) -> bool;
    type Case<'a> = (&'a str, &'a [(&'a str, f64)], EventMatch, Hit);
    let cases: [Case; 3] = [
        ("mglru-basic", &[], EventMatch::Aging, |a, b| max_seqs(b) > max_seqs(a)),
        ("mglru-basic", LIGHT, EventMatch::Refault, |a, b| refaults(b) > refaults(a)),
        ("kswapd-classzone", &[], EventMatch::KswapdSleep, |a, b| sleeps(b) > sleeps(a)),
    ];
    for (name, params, kind, hit) in cases {
        let mut t = Timeline::new(sim(name, params, 2));
        let mut at = 0;
        // The first three events of the kind, one run each.
        for _ in 0..3 {
            let mut from = sim(name, params, 2);
            for _ in 0..at {
                from.step();
            }
            let expected = first_step(from, 2_000, hit).unwrap_or_else(|| panic!("{name}: no {} within 2000 steps", kind.name()));
            let outcome = t.run_until_named(kind.name(), 2_000).unwrap();
            assert!(outcome.found, "{name}: {}", kind.name());
            assert_eq!(t.step_count(), expected, "{name}: {}", kind.name());
            assert_eq!(outcome.steps, expected - at);
            // The frame shows it (these steps have room in the event log).
            let frame = t.frame_since(at);
            let kinds: Vec<&str> = frame.events.iter().map(|e| e.function.as_str()).collect();
            let shown = match kind {
                EventMatch::Aging => kinds.contains(&"inc_max_seq"),
                EventMatch::Refault => frame.events.iter().any(|e| e.kind == "refault"),
                _ => frame.events.iter().any(|e| e.reason.contains("asleep until wakeup_kswapd")),
            };
            assert!(shown || frame.events_dropped > 0, "{name}: the frame at {} shows no {}: {:?}", t.step_count(), kind.name(), frame.events.iter().map(|e| (&e.function, &e.reason)).collect::<Vec<_>>());
            at = t.step_count();
        }
    }
}

#[test]
fn a_run_that_finds_nothing_stops_at_its_limit() {
    // The classic LRU never ages generations; mglru-basic has no global pressure for kswapd.
    let mut t = Timeline::new(sim("classic-basic", &[], 1));
    let outcome = t.run_until(EventMatch::Aging, 150).unwrap();
    assert_eq!((outcome.found, outcome.steps, t.step_count()), (false, 150, 150));
    let mut t = Timeline::new(sim("mglru-basic", LIGHT, 1));
    assert!(!t.run_until(EventMatch::KswapdSleep, 300).unwrap().found);
    assert_eq!(t.step_count(), 300);
    // The watch is off again: checkpoints and later steps do not carry it.
    assert_eq!(t.sim().mm.events.watch, None);
}

#[test]
fn bad_requests_are_errors_not_panics() {
    let mut t = Timeline::new(sim("mglru-basic", LIGHT, 1));
    let err = t.run_until_named("nap", 10).unwrap_err();
    assert_eq!(err, TimelineError::UnknownEvent("nap".into()));
    assert!(err.to_string().contains("kswapd-sleep"), "{err}");
    assert!(t.seek(MAX_STEP + 1).is_err());
    assert!(t.run_until(EventMatch::Refault, MAX_STEP + 1).is_err());
    assert_eq!(t.step_count(), 0);
    for bad in [-1.0, 0.5, f64::NAN, f64::INFINITY, (MAX_STEP + 1) as f64] {
        let err = step_from_f64("step", bad).unwrap_err();
        assert!(err.to_string().starts_with("step must be a whole number"), "{err}");
    }
    assert_eq!(step_from_f64("step", 42.0), Ok(42));
    // A timeline begins where its simulation was: nothing before it.
    let mut later = sim("mglru-basic", LIGHT, 1);
    for _ in 0..5 {
        later.step();
    }
    let mut t = Timeline::new(later);
    assert_eq!(t.seek(4), Err(TimelineError::AtStart));
    t.step(2).unwrap();
    t.seek(5).unwrap();
    assert_eq!(t.step_back(), Err(TimelineError::AtStart));
    assert_eq!(t.step_count(), 5);
}

/// A frame after a jump carries each zone's free pages at every step of the
/// jump (the last FREE_TRAIL_STEPS), the same as stepping there one step at
/// a time shows: the zone charts draw what happened, not a line across it.
#[test]
fn a_jump_brings_every_step_of_the_zones_free_pages() {
    use reclaim_core::sim::FREE_TRAIL_STEPS;
    let mut plain = sim("global-pressure", &[], 3);
    let mut free_at: Vec<Vec<u64>> = vec![Vec::new()];
    for _ in 0..400 {
        plain.step();
        free_at.push(plain.frame().nodes.iter().flat_map(|n| n.zones.iter().map(|z| z.free)).collect());
    }
    let mut t = Timeline::with_limits(sim("global-pressure", &[], 3), SMALL);
    for (target, since) in [(250u64, 0u64), (400, 250), (120, 0)] {
        t.seek(target).unwrap();
        let frame = t.frame_since(since);
        let zones: Vec<_> = frame.nodes.iter().flat_map(|n| n.zones.iter()).collect();
        let first = (since + 1).max(target.saturating_sub(FREE_TRAIL_STEPS as u64));
        for (zi, z) in zones.iter().enumerate() {
            let steps: Vec<u64> = z.free_trail.iter().map(|(s, _)| *s).collect();
            assert_eq!(steps, (first..target).collect::<Vec<_>>(), "seek to {target} since {since}, zone {}", z.name);
            for (s, free) in &z.free_trail {
                assert_eq!(*free, free_at[*s as usize][zi], "zone {} at step {s}", z.name);
            }
            assert_eq!(z.free, free_at[target as usize][zi]);
        }
        // The free pages move over the jump: the trail is not a copy of one value.
        let normal = zones.iter().find(|z| z.name == "Normal").unwrap();
        assert!(normal.free_trail.iter().any(|(_, f)| *f != normal.free), "seek to {target}: Normal's free pages never moved");
    }
    // One step: nothing before the current step in the window.
    t.step(1).unwrap();
    assert!(t.frame_since(120).nodes[0].zones.iter().all(|z| z.free_trail.is_empty()));
}
