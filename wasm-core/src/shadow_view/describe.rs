//! The words of the shadow view: each refault decision and each threshold
//! said as the kernel's check reads ("distance 1,234 <= workingset 5,678:
//! active_file 4,000 + inactive_file 1,678 -> activate").
use crate::mm::refault::{DistanceCheck, Feedback, GenCheck, RefaultRecord, LIST_NAMES};
use crate::mm::LRU_GEN_ANON;

use super::{ThresholdView, TermView, TYPE_NAMES};

use crate::report::group;

/// The lists a workingset size sums, active first: [(NAME, pages)].
fn terms(c: &DistanceCheck) -> Vec<(&'static str, u64)> {
    [3, 1, 2, 0].into_iter().filter(|&l| c.terms[l]).map(|l| (LIST_NAMES[l], c.lists[l])).collect()
}

fn terms_text(c: &DistanceCheck) -> String {
    terms(c).iter().map(|(n, p)| format!("{n} {}", group(*p))).collect::<Vec<_>>().join(" + ")
}

/// For lru_test_refault: which rule applied.
fn case_text(c: &DistanceCheck) -> String {
    let [ia, aa, ifile, af] = c.lists;
    let active = af + if c.swap { aa } else { 0 };
    let inactive = ifile + if c.swap { ia } else { 0 };
    match c.active_covers_inactive {
        Some(true) => format!("active {} >= inactive {}: the inactive lists", group(active), group(inactive)),
        Some(false) => format!("active {} < inactive {}: active plus the other type's inactive", group(active), group(inactive)),
        None => String::new(),
    }
}

pub(super) fn threshold_view(type_: usize, c: &DistanceCheck) -> ThresholdView {
    let kind = TYPE_NAMES[type_];
    let article = if type_ == LRU_GEN_ANON { "an" } else { "a" };
    let rule = if c.inclusive {
        format!("workingset_test_recent: {article} {kind} refault is activated when its refault distance <= {} = {}", terms_text(c), group(c.threshold))
    } else {
        format!("lru_test_refault: {article} {kind} refault is activated when its refault distance < {} = {} ({})", terms_text(c), group(c.threshold), case_text(c))
    };
    ThresholdView {
        kind: crate::view::FolioType::of(type_),
        pages: c.threshold,
        comparison: (if c.inclusive { "<=" } else { "<" }).into(),
        terms: terms(c).into_iter().map(|(name, pages)| TermView { name: name.into(), pages }).collect(),
        rule,
    }
}

/// The distance half of a rule: "workingset_test_recent: refault distance
/// 812 <= workingset 1,024 (NR_ACTIVE_FILE 1,024)".
fn distance_clause(c: &DistanceCheck) -> String {
    let (pass, fail) = if c.inclusive { ("<=", ">") } else { ("<", ">=") };
    let op = if c.passes() { pass } else { fail };
    if c.inclusive {
        format!("workingset_test_recent: refault distance {} {op} workingset {} ({})", group(c.distance), group(c.threshold), terms_text(c))
    } else {
        format!("lru_test_refault: refault distance {} {op} {} ({}; {})", group(c.distance), group(c.threshold), terms_text(c), case_text(c))
    }
}

/// The generation half: "lru_gen_test_recent: evicted from generation 12
/// == min_seq[file] 12 (still the oldest)".
fn gen_clause(g: &GenCheck, type_: usize) -> String {
    let (op, what) = if g.recent { ("==", "still the oldest") } else { ("<", "gone") };
    format!("lru_gen_test_recent: evicted from generation {} {op} min_seq[{}] {} ({what})", g.token_seq, TYPE_NAMES[type_], g.min_seq)
}

/// (decision, rule) of one refault, in the words of the kernel functions.
pub fn describe(r: &RefaultRecord, lruvec: &str) -> (&'static str, String) {
    let kind = TYPE_NAMES[r.type_];
    if !r.counted {
        return ("ignored", format!("lru_gen_refault: the shadow is from {lruvec}, not the lruvec the new folio is charged to -> ignored (no workingset_refault_{kind})"));
    }
    let recent = r.gen.map(|g| g.recent);
    // MGLRU v6.12 counts a recent refault as workingset_activate but does
    // not activate it: its decision is "recent".
    let decision = if r.activate && r.distance.is_some() {
        "activate"
    } else if recent == Some(true) {
        "recent"
    } else {
        "not recent"
    };
    let why_restore = match (r.in_fault, r.all_refs) {
        (true, _) => "in a fault",
        (false, true) => "refs 3 or more",
        (false, false) => "refs at the maximum (4)",
    };
    let mut parts = Vec::new();
    match (r.distance, r.gen) {
        // Classic: workingset_refault().
        (Some(c), None) => {
            let mut s = distance_clause(&c);
            if r.activate {
                s += &format!(" -> activate: starts on the active list (workingset_activate_{kind})");
                if r.restore {
                    s += &format!("; PG_workingset was set at eviction -> restored (workingset_restore_{kind})");
                }
            } else {
                s += " -> not recent: starts on the inactive list";
            }
            parts.push(s);
        }
        // MGLRU v6.12: lru_gen_refault().
        (None, Some(g)) => {
            let mut s = gen_clause(&g, r.type_);
            if g.recent {
                s += &format!(" -> recent: refaulted[tier {}]", r.tier);
                if r.activate {
                    s += &format!(", workingset_activate_{kind}");
                } else {
                    s += &format!(" (before v6.5 counted as workingset_refault_{kind} only, not workingset_activate_{kind})");
                }
                if r.restore {
                    let back = if r.all_refs { "PG_workingset and all refs bits (tier 3)" } else { "PG_workingset (tier 1; before v6.7 the refs bits stay clear)" };
                    s += &format!("; {why_restore} -> {back}, workingset_restore_{kind}");
                }
            } else if r.refault_counted {
                s += " -> not recent: no feedback";
            } else {
                s += &format!(" -> not recent: no feedback (before v6.5 not counted at all: no workingset_refault_{kind})");
            }
            parts.push(s);
        }
        // MGLRU with patch 004: lru_test_refault() and lru_gen_test_recent().
        (Some(c), Some(g)) => {
            parts.push(distance_clause(&c));
            parts.push(gen_clause(&g, r.type_));
            let mut out = Vec::new();
            if r.activate {
                let refs = g.token_refs + u32::from(r.workingset);
                out.push(format!("activate (workingset_activate_{kind}){}", if refs > 0 { ", PG_active: youngest generation" } else { "" }));
                if r.tier != r.tier_before {
                    out.push(format!("tier {} -> {}", r.tier_before, r.tier));
                }
            }
            if r.restore {
                let why = if r.activate { "within the workingset" } else { why_restore };
                out.push(format!("{why} -> PG_workingset (workingset_restore_{kind})"));
            }
            match r.feedback {
                Feedback::Refaulted => out.push(format!("refaulted[tier {}]", r.tier)),
                Feedback::Averages => out.push(format!("avg_refaulted[tier {}] (its generation is gone)", r.tier)),
                Feedback::None => out.push("not recent and outside the workingset: no feedback".into()),
            }
            let last = parts.pop().unwrap_or_default();
            parts.push(format!("{last} -> {}", out.join("; ")));
        }
        (None, None) => parts.push(format!("{}: no check recorded", r.function)),
    }
    (decision, parts.join("; "))
}
