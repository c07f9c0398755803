//! How the command line's tables write figures: shares as percentages,
//! counts grouped by thousands, units from the metric's name, changes as
//! the app's comparison table words them (web/src/views/comparison/model.ts).

/// A metric that is a share of something (a ratio, a coefficient of
/// variation, an efficiency), by the engine's naming: the tables show it as
/// a percentage, as the app does and the patch authors give it ("75 %");
/// JSON keeps the fraction. The app decides the same (PERCENT_METRIC in
/// web/src/views/comparison/model.ts); tests/unit/metric-format.test.ts
/// keeps the two in step.
pub(crate) fn is_share(metric: &str) -> bool {
    metric.ends_with("_ratio") || metric.ends_with("_cv") || metric.ends_with("_efficiency")
}

/// `metric`'s value for a table: a share as a percentage to 3 significant
/// digits (0.013 -> "1.30 %", 5.051 -> "505 %"), anything else as
/// fmt_metric writes it, with its unit if it has one (3.95 ms).
pub fn fmt_named(metric: &str, x: f64) -> String {
    if is_share(metric) && x.is_finite() {
        format!("{} %", significant3(x * 100.0))
    } else {
        match metric_unit(metric) {
            Some(unit) if !x.is_nan() => format!("{} {unit}", fmt_metric(x)),
            _ => fmt_metric(x),
        }
    }
}

/// 3 significant digits, trailing zeros kept (1.30, 98.0, 0.00), whole
/// numbers from 100 up, as the app's formatMetric writes a share.
pub(crate) fn significant3(x: f64) -> String {
    if x.abs() >= 100.0 {
        return format!("{x:.0}");
    }
    let decimals = if x == 0.0 { 2 } else { (2 - x.abs().log10().floor() as i32).max(0) as usize };
    format!("{x:.decimals$}")
}

/// A metric's value as the app's formatMetric writes it: whole numbers, and
/// anything from 1,000 up, rounded and grouped by thousands (29,961;
/// 13,638); other fractions to 3 significant digits (1.35, 0.0130).
pub(crate) fn fmt_metric(x: f64) -> String {
    if x.is_nan() {
        "n/a".to_string()
    } else if !x.is_finite() {
        format!("{x}")
    } else if x.fract() == 0.0 || x.abs() >= 1000.0 {
        let whole = x.round();
        let sign = if whole < 0.0 { "-" } else { "" };
        format!("{sign}{}", group(whole.abs() as u64))
    } else {
        significant3(x)
    }
}

/// 1234567 -> "1,234,567".
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The unit a metric's value is in, for the tables: from its name's
/// suffix (_s, _ms, _us; a rate's _iops, ops_per_sec, pages_per_sec and
/// reads_per_sec, as the patch authors give rates), or for the allocation latencies, whose names the
/// contract fixes (docs: experiments.md), ms as the patch author gives
/// them. The app's metricUnit (web/src/views/comparison/model.ts) answers
/// the same; tests/unit/metric-format.test.ts keeps the two in step.
pub(crate) fn metric_unit(metric: &str) -> Option<&'static str> {
    match metric {
        "alloc_latency_p95" | "alloc_latency_p99" => Some("ms"),
        // Rates, as the authors' tables give them (ops/s, IOPS, pages/s).
        _ if metric.ends_with("_iops") => Some("IOPS"),
        _ if metric.ends_with("ops_per_sec") => Some("ops/s"),
        _ if metric.ends_with("pages_per_sec") => Some("pages/s"),
        _ if metric.ends_with("reads_per_sec") => Some("reads/s"),
        _ if metric.ends_with("_us") => Some("µs"),
        _ if metric.ends_with("_ms") => Some("ms"),
        _ if metric.ends_with("_s") => Some("s"),
        _ => None,
    }
}

/// The change from `b` to `a` in percent, as the app's relativeChange
/// computes it: against the magnitude of `b` (so that -100 -> -50 is a
/// rise), 0 from 0 to 0, None from 0 to anything else or when either is
/// not defined.
pub(crate) fn percent_change(b: f64, a: f64) -> Option<f64> {
    if !b.is_finite() || !a.is_finite() {
        return None;
    }
    if b == 0.0 {
        return (a == 0.0).then_some(0.0);
    }
    Some((a - b) / b.abs() * 100.0)
}

/// The change from `b` to `a` of `metric`: in percentage points for a
/// share, which is a percentage already (1.3 % -> 21 % is "+19.7 pp", not
/// "+1513 %"); else relative ("+6.6 %").
pub(crate) fn change_text(metric: &str, b: f64, a: f64) -> Option<String> {
    if is_share(metric) {
        // Points that round to nothing are "+0.0", never "-0.0" (a share's last digits are float noise).
        let points = (a - b) * 100.0;
        return (b.is_finite() && a.is_finite()).then(|| format!("{:+.1} pp", if points.abs() < 0.05 { 0.0 } else { points }));
    }
    // No change is "+0.0"; one too small for a decimal keeps its sign, to two significant digits ("-0.014").
    let signed = |x: f64| {
        if x == 0.0 {
            "+0.0".to_string()
        } else if x.abs() < 0.05 {
            let decimals = (-x.abs().log10().floor()) as usize + 1;
            format!("{x:+.decimals$}")
        } else {
            format!("{x:+.1}")
        }
    };
    percent_change(b, a).map(|c| format!("{} %", signed(c)))
}

#[cfg(test)]
mod tests {
    use super::{change_text, fmt_named};

    /// The change as the app's comparison table words it (relativeChange, formatPointsChange).
    #[test]
    fn changes_read_as_the_app_reads_them() {
        assert_eq!(change_text("pgscan_direct", 29961.0, 31926.0).as_deref(), Some("+6.6 %"));
        assert_eq!(change_text("eagain_writes", 0.0, 0.0).as_deref(), Some("+0.0 %"));
        // Too small for one decimal, and still a change: its sign and two significant digits.
        assert_eq!(change_text("reads_per_sec", 112_591.0, 112_575.5).as_deref(), Some("-0.014 %"));
        assert_eq!(change_text("reads_per_sec", 100_000.0, 100_003.0).as_deref(), Some("+0.0030 %"));
        assert_eq!(change_text("eagain_writes", 0.0, 5.0), None);
        // A negative baseline: from 100 pages short to 50 short is a rise.
        assert_eq!(change_text("overreclaim_pages", -100.0, -50.0).as_deref(), Some("+50.0 %"));
        assert_eq!(change_text("hit_ratio", 0.415, 0.564).as_deref(), Some("+14.9 pp"));
    }

    /// The same figures as the app's formatMetric (tests/unit/experiments.test.ts).
    #[test]
    fn shares_read_as_percentages_to_three_significant_digits() {
        assert_eq!(fmt_named("pgsteal_cv", 0.013022848823039005), "1.30 %");
        assert_eq!(fmt_named("reclaim_ratio", 5.044075520833333), "504 %");
        assert_eq!(fmt_named("kswapd_efficiency", 0.98), "98.0 %");
        assert_eq!(fmt_named("pgsteal_cv", 0.21), "21.0 %");
        assert_eq!(fmt_named("hit_ratio", 1.0), "100 %");
        assert_eq!(fmt_named("hit_ratio", 0.4816), "48.2 %");
        assert_eq!(fmt_named("pgsteal_cv", 0.00005), "0.00500 %");
        assert_eq!(fmt_named("reclaim_ratio", 0.0), "0.00 %");
        assert_eq!(fmt_named("kswapd_efficiency", f64::NAN), "n/a");
        // Anything else as it was.
        assert_eq!(fmt_named("pgscan_direct", 29961.0), "29,961");
        assert_eq!(fmt_named("time_s", 1.3569), "1.36 s");
        // Rates with the unit the authors give them in.
        assert_eq!(fmt_named("anon_ops_per_sec", 13637.6), "13,638 ops/s");
        assert_eq!(fmt_named("anon_ops_per_sec", -13637.6), "-13,638 ops/s");
        assert_eq!(fmt_named("file_iops", 108254.0), "108,254 IOPS");
        assert_eq!(fmt_named("uid0_pages_per_sec", 84457.46), "84,457 pages/s");
        assert_eq!(fmt_named("reads_per_sec", 7.25), "7.25 reads/s");
        assert_eq!(fmt_named("file_iops", f64::NAN), "n/a");
        assert_eq!(fmt_named("hit_ratio", f64::NAN), "n/a");
        assert_eq!(fmt_named("alloc_latency_p95", 3.9522), "3.95 ms");
        assert_eq!(fmt_named("alloc_latency_p99", f64::NAN), "n/a");
        assert_eq!(fmt_named("pages_per_sec", 85015.8), "85,016 pages/s");
        assert_eq!(fmt_named("overreclaim_pages", 3.0), "3");
        assert_eq!(fmt_named("ops_per_sec", 0.5), "0.500 ops/s");
        assert_eq!(super::group(0), "0");
        assert_eq!(super::group(999), "999");
        assert_eq!(super::group(1000), "1,000");
        assert_eq!(super::group(1_234_567), "1,234,567");
        // A change too small for one decimal keeps its sign (the app's table shows it too); points round to +0.0.
        assert_eq!(super::change_text("reads_per_sec", 112_591.0, 112_575.0).as_deref(), Some("-0.014 %"));
        assert_eq!(super::change_text("reads_per_sec", 100.0, 106.6).as_deref(), Some("+6.6 %"));
        assert_eq!(super::change_text("pgsteal_cv", 0.0130, 0.0130001).as_deref(), Some("+0.0 pp"));
    }
}
