//! The range tables the app shows before a check is run
//! (web/src/views/comparison/recorded-ranges.json, written by `npm run
//! experiments`) are of the engine's experiments as they are now: the same
//! points and headlines in the same order. A change to an experiment's
//! parameters or headlines without regenerating the record fails here (the
//! app would hide the stale table; tests/unit/recorded-ranges.test.ts checks
//! the counts against docs/experiments.md).
use reclaim_core::experiment::ALL;
use reclaim_core::sweep::{points, RecordedRanges};

#[test]
fn the_recorded_sweeps_are_of_the_experiments_points_and_headlines() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/views/comparison/recorded-ranges.json");
    let text = std::fs::read_to_string(path).expect("the recorded range tables (npm run experiments writes them)");
    let recorded: RecordedRanges = serde_json::from_str(&text).expect("a RecordedRanges");
    let names: Vec<&str> = recorded.sweeps.iter().map(|s| s.experiment.as_str()).collect();
    let expected: Vec<&str> = ALL.iter().map(|e| e.name).collect();
    assert_eq!(names, expected, "one sweep per experiment, in order; run npm run experiments");
    for (e, s) in ALL.iter().zip(&recorded.sweeps) {
        let metrics: Vec<&str> = e.headlines.iter().map(|h| h.metric).collect();
        assert_eq!(s.headlines, metrics, "{}: headlines; run npm run experiments", e.name);
        let pts: Vec<String> = points(e).into_iter().map(|p| p.point).collect();
        let rec: Vec<&String> = s.rows.iter().map(|r| &r.point).collect();
        assert_eq!(rec, pts.iter().collect::<Vec<_>>(), "{}: points; run npm run experiments", e.name);
        for r in &s.rows {
            assert_eq!(r.held.len(), metrics.len(), "{} {}", e.name, r.point);
            assert_eq!(r.tied.len(), metrics.len(), "{} {}", e.name, r.point);
            for (h, t) in r.held.iter().zip(&r.tied) {
                assert!(h + t <= 5, "{} {}: {h} held and {t} tied of 5 seeds", e.name, r.point);
            }
        }
    }
}

/// A headline that misses at some point of the recorded ranges is named, as
/// a word, in its experiment's "Where it does not hold, and why": the app's
/// "why?" beside it leads to the paragraph that first names it.
#[test]
fn every_headline_that_misses_is_named_where_it_does_not_hold() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/views/comparison/recorded-ranges.json");
    let recorded: RecordedRanges = serde_json::from_str(&std::fs::read_to_string(path).expect("the record")).expect("a RecordedRanges");
    let mut checked = 0;
    for (e, s) in ALL.iter().zip(&recorded.sweeps) {
        for (i, metric) in s.headlines.iter().enumerate() {
            if s.rows.iter().all(|r| r.held[i] == 5) {
                continue;
            }
            checked += 1;
            let named = e.limits.match_indices(metric.as_str()).any(|(at, _)| {
                let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
                !word(e.limits[..at].chars().next_back()) && !word(e.limits[at + metric.len()..].chars().next())
            });
            assert!(named, "{}: {metric} misses at some range point but its limits never name it", e.name);
        }
    }
    assert!(checked >= 5, "{checked} headlines miss somewhere: the record has fewer than the docs list");
}
