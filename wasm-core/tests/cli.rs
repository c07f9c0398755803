//! The `reclaim-sim` command-line contract (../shared/design/experiments.md).
use std::process::Command;

fn sim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reclaim-sim")).args(args).output().expect("run reclaim-sim");
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn help_help_is_the_help() {
    let (code, out, err) = sim(&["help", "--help"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Usage: reclaim-sim"), "{out}");
    assert_eq!(sim(&["--help"]).1, out);
    // A subcommand's help is still its own, and a wrong name still fails.
    assert!(sim(&["help", "compare"]).1.contains("Usage: reclaim-sim compare"));
    assert_eq!(sim(&["help", "--bogus"]).0, 2);
}

#[test]
fn list_prints_one_scenario_a_line() {
    let (code, out, _) = sim(&["list"]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("mglru-basic ")));
}

#[test]
fn run_json_has_kernel_counter_names() {
    let (code, out, err) = sim(&["run", "mglru-basic", "--json", "--seed", "2", "--steps", "100"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let vmstat = &v["vmstat"];
    for k in ["pgscan_direct", "pgsteal_direct", "pgscan_file", "workingset_refault_file", "pswpout", "nr_free_pages"] {
        assert!(vmstat[k].is_u64(), "vmstat.{k} missing");
    }
    assert!(vmstat["pgsteal_file"].as_u64().unwrap() > 0);
    let memcgs = v["memcgs"].as_array().unwrap();
    let job = memcgs.iter().find(|m| m["path"] == "/job").expect("/job listed");
    let stat = job["memory_stat"].as_object().unwrap();
    assert!(stat["pgsteal"].as_u64().unwrap() > 0);
    // memory.stat has what v6.12 prints, in its order; /proc/vmstat-only
    // events (pswpout, pgscan_file, ...) are not in it.
    let keys: Vec<&str> = stat.keys().map(String::as_str).collect();
    let order = ["anon", "inactive_anon", "workingset_refault_anon", "workingset_nodereclaim", "pgscan", "pgsteal", "pgscan_kswapd", "pgsteal_direct", "pgfault", "pgdeactivate"];
    let at: Vec<usize> = order.iter().map(|k| keys.iter().position(|x| x == k).unwrap_or_else(|| panic!("memory_stat.{k} missing: {keys:?}"))).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "memory.stat order: {keys:?}");
    for k in ["pswpout", "pswpin", "pgscan_file", "pgsteal_anon", "pgfree", "pgpgin", "allocstall_normal", "pgskip_dma"] {
        assert!(!stat.contains_key(k), "memory_stat.{k}: not a memory.stat key");
    }
    assert!(v["metrics"]["hit_ratio"].is_f64());
}

#[test]
fn run_json_is_deterministic() {
    let a = sim(&["run", "mglru-basic", "--json", "--seed", "9", "--steps", "80"]).1;
    let b = sim(&["run", "mglru-basic", "--json", "--seed", "9", "--steps", "80"]).1;
    assert_eq!(a, b);
}

#[test]
fn lru_gen_prints_the_debugfs_format() {
    let (code, out, _) = sim(&["run", "mglru-basic", "--lru-gen", "--steps", "100"]);
    assert_eq!(code, 0);
    assert!(out.contains("memcg     1 /\n"), "{out}");
    assert!(out.contains("memcg     2 /job"), "{out}");
    assert!(out.lines().any(|l| l.trim_start().starts_with("node")));
}

/// The names ../shared/design/experiments.md gives each experiment's
/// parameters and metrics are the ones `compare` accepts and reports.
#[test]
fn the_contracts_parameter_and_metric_names() {
    let cases: [(&str, &[&str], &[&str]); 5] = [
        ("memcg-lru-fairness", &["memcgs=2", "pages_per_memcg=256", "interval=100", "request=32", "writes=5"], &["pgsteal_cv", "reclaim_ratio"]),
        ("multi-memcg-kswapd", &["seconds=2"], &["anon_ops_per_sec", "file_iops", "pswpout", "workingset_refault_anon"]),
        ("kswapd-classzone", &["bursts=2"], &["pgscan_direct", "alloc_latency_p95", "alloc_latency_p99", "kswapd_efficiency", "kswapd_premature_sleeps"]),
        ("proactive-reclaim-batching", &["children=2", "request=512", "target=1"], &["pages_per_sec", "time_s", "overreclaim_pages"]),
        ("refault-distance-mglru", &["seconds=2"], &["hit_ratio", "ops_per_sec", "workingset_refault_file", "workingset_activate_file", "pswpout"]),
    ];
    for (name, params, metrics) in cases {
        let mut args = vec!["compare", name, "--json"];
        for p in params {
            args.extend(["--param", p]);
        }
        let (code, out, err) = sim(&args);
        assert_eq!(code, 0, "{name}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        for p in params {
            let (k, x) = p.split_once('=').unwrap();
            assert_eq!(v["params"][k].as_f64(), Some(x.parse().unwrap()), "{name}: {k}");
        }
        for variant in ["before", "after"] {
            for m in metrics {
                assert!(v["variants"][variant]["metrics"].get(*m).is_some(), "{name}: {variant} has no {m}");
            }
        }
    }
}

#[test]
fn scenario_prints_a_file_that_runs_as_the_built_in_one() {
    let dir = std::env::temp_dir().join(format!("reclaim-sim-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, extra) in [("mglru-basic", vec!["--param", "memory_max=4096"]), ("kswapd-classzone", vec!["--variant", "before", "--param", "bursts=2"])] {
        let mut args = vec!["scenario", name, "--seed", "3"];
        args.extend(extra.iter().copied());
        let (code, file, err) = sim(&args);
        assert_eq!(code, 0, "{err}");
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, &file).unwrap();
        // The file runs to the same counters as the built-in scenario with the same choices.
        let (code, from_file, err) = sim(&["run", path.to_str().unwrap(), "--json", "--steps", "50"]);
        assert_eq!(code, 0, "{err}");
        let mut run = vec!["run", name, "--seed", "3", "--json", "--steps", "50"];
        run.extend(extra.iter().copied());
        let (_, built_in, _) = sim(&run);
        let a: serde_json::Value = serde_json::from_str(&from_file).unwrap();
        let b: serde_json::Value = serde_json::from_str(&built_in).unwrap();
        assert_eq!(a["vmstat"], b["vmstat"], "{name}");
        assert_eq!(a["memcgs"], b["memcgs"], "{name}");
    }
    let (code, out, err) = sim(&["scenario", "no-such-scenario"]);
    assert_eq!((code, out.is_empty(), err.trim_end().lines().count()), (2, true, 1), "{err}");
    // A duration that ends within a step runs to that step's end, and says so.
    let (_, file, _) = sim(&["scenario", "mglru-basic"]);
    let mut doc: serde_json::Value = serde_json::from_str(&file).unwrap();
    let step = doc["stepNs"].as_u64().unwrap();
    doc["durationNs"] = (step * 5 + step / 2).into();
    let path = dir.join("part-step.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    let (code, out, err) = sim(&["run", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("scenario mglru-basic seed 1: 6 steps"), "{out}");
    assert!(err.contains("is not a whole number of steps") && err.contains("running 6 steps"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_says_what_ran_and_an_experiments_metrics() {
    let (code, out, err) = sim(&["run", "kswapd-classzone", "--variant", "before", "--param", "bursts=2", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["variant"], "before");
    // Every parameter in effect, the given one and the defaults.
    assert_eq!(v["params"]["bursts"], 2);
    assert_eq!(v["params"]["readers"], 8);
    let steps = v["steps"].as_u64().unwrap();
    assert!(steps > 0);
    assert_eq!(v["time_ns"].as_u64().unwrap(), steps * 10_000_000);
    // The experiment's metrics, as compare computes them for this variant at the end of its run.
    let (_, cmp, _) = sim(&["compare", "kswapd-classzone", "--param", "bursts=2", "--json"]);
    let cmp: serde_json::Value = serde_json::from_str(&cmp).unwrap();
    assert_eq!(v["experiment_metrics"], cmp["variants"]["before"]["metrics"]);
    // memory.current in bytes, as the kernel's file.
    let root = v["memcgs"].as_array().unwrap().iter().find(|m| m["path"] == "/").unwrap();
    let anon = root["memory_stat"]["anon"].as_u64().unwrap();
    assert_eq!(root["memory_current"].as_u64().unwrap() % 4096, 0);
    assert!(root["memory_current"].as_u64().unwrap() >= anon);
    // memory.swap.current in bytes too, hierarchical as the kernel's: the slots
    // memcached's swapped-out pages hold, charged to it and to the root; none to fio.
    let (_, out, _) = sim(&["run", "multi-memcg-kswapd", "--variant", "before", "--param", "seconds=2", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let swap = |path: &str| v["memcgs"].as_array().unwrap().iter().find(|m| m["path"] == path).unwrap()["memory_swap_current"].as_u64().unwrap();
    let pswpout = v["vmstat"]["pswpout"].as_u64().unwrap();
    assert!(swap("/memcached") > 0 && swap("/memcached") <= pswpout * 4096, "{} of {pswpout} pages out", swap("/memcached"));
    assert_eq!(swap("/memcached") % 4096, 0);
    assert_eq!((swap("/"), swap("/fio")), (swap("/memcached"), 0));

    let (code, text, err) = sim(&["run", "kswapd-classzone", "--variant", "before", "--param", "bursts=2"]);
    assert_eq!(code, 0, "{err}");
    assert!(text.starts_with("scenario kswapd-classzone (variant before) seed 1: "), "{text}");
    assert!(text.contains("params: alloc_pages=2048 allocators=8 burst_ms=300 bursts=2 "), "{text}");
    assert!(text.contains("experiment metrics"), "{text}");
    // A built-in scenario's parameters, none of an experiment's.
    let (_, text, _) = sim(&["run", "mglru-basic", "--steps", "10"]);
    assert!(text.contains("params: anon_pages=1024 "), "{text}");
    assert!(!text.contains("experiment metrics"), "{text}");
}

/// A run cut short reports what it measured so far: no figure for what has
/// not happened yet (an allocation not begun, a ratio of nothing requested).
#[test]
fn run_cut_short_reports_only_what_happened() {
    // At 200 steps (2 s) kswapd-classzone's first bursts are over and later ones not begun:
    // the latencies are those of the allocations made, a few ms, not whole bursts.
    let (code, out, err) = sim(&["run", "kswapd-classzone", "--variant", "before", "--steps", "200", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p95 = v["experiment_metrics"]["alloc_latency_p95"].as_f64().unwrap();
    assert!(p95 > 1.0 && p95 < 50.0, "p95 {p95} ms");
    // Before any allocator started: no latency at all.
    let (_, out, _) = sim(&["run", "kswapd-classzone", "--variant", "before", "--steps", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["experiment_metrics"]["alloc_latency_p95"].is_null(), "{}", v["experiment_metrics"]);
    // memcg-lru-fairness before its first memory.reclaim write: the ratio and the CV are n/a, not 0.
    let (_, out, _) = sim(&["run", "memcg-lru-fairness", "--steps", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["experiment_metrics"]["reclaim_ratio"].is_null(), "{}", v["experiment_metrics"]);
    assert!(v["experiment_metrics"]["pgsteal_cv"].is_null(), "{}", v["experiment_metrics"]);
    let (_, text, _) = sim(&["run", "memcg-lru-fairness", "--steps", "5"]);
    assert!(text.lines().any(|l| l.contains("reclaim_ratio") && l.contains("n/a")), "{text}");
    // A parameter at the low end of its range runs: global-pressure without its heap.
    let (code, out, err) = sim(&["run", "global-pressure", "--param", "anon_pages=0", "--steps", "3", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"vmstat\""));
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_2() {
    static LONG_NAME: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| "x".repeat(1000));
    // A directory whose name ends in .json.
    static JSON_DIR: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let dir = std::env::temp_dir().join("reclaim-sim-test-dir.json");
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        dir.to_str().expect("a UTF-8 path").to_string()
    });
    for (args, needle) in [
        (vec!["run", "no-such-scenario"], "unknown scenario"),
        (vec!["run", "tests"], "tests: a directory; give a scenario file ending in .json, or a built-in scenario's name (reclaim-sim list)"),
        (vec!["run", "Cargo.toml"], "Cargo.toml: not a .json file;"),
        (vec!["run", &JSON_DIR], "reclaim-sim-test-dir.json: a directory; give a scenario file ending in .json"),
        (vec!["run", "no/such.yaml"], "no/such.yaml: no such file;"),
        // A mistyped experiment with a variant is an unknown name, not a scenario without variants.
        (vec!["run", "kswapd-classzon", "--variant", "before"], "unknown scenario \"kswapd-classzon\" (known: mglru-basic,"),
        (vec!["run", "mglru-basic", "--variant", "before"], "\"mglru-basic\" is a scenario, not an experiment"),
        // A long name is quoted in part, with its length.
        (vec!["run", &LONG_NAME], "unknown scenario \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"… (1,000 characters) (known:"),
        (vec!["run", "kswapd-classzone", "--variant", &LONG_NAME], "… (1,000 characters) of kswapd-classzone (known: before,"),
        (vec!["run", "mglru-basic", "--param", "memory_max=1"], "from 256 to 262144"),
        (vec!["run", "mglru-basic", "--param", "nope=1"], "unknown parameter"),
        (vec!["run", "mglru-basic", "--param", "zipf_s=abc"], "\"abc\" is not a number (accepted: from 0.1 to 3)"),
        (vec!["run", "mglru-basic", "--param", "zipf_s=1e999"], "param zipf_s: \"1e999\" is not a number (accepted: from 0.1 to 3)"),
        (vec!["run", "mglru-basic", "--param", "zipf_s=NaN"], "param zipf_s: \"NaN\" is not a number"),
        (vec!["run", "mglru-basic", "--param", "memory_max=100", "--param", "memory_max=4096"], "memory_max: given twice"),
        (vec!["run", "mglru-basic", "--steps", "-1"], "a whole number from 1 to 10000000"),
        (vec!["run", "mglru-basic", "--json", "--lru-gen"], "'--json' cannot be used with '--lru-gen'"),
        (vec!["compare", "kswapd-classzone", "--seed", "99999999999999999999999"], "a whole number from 0 to 18446744073709551615"),
        (vec!["run", "mglru-basic", "--param", "memory_max=300.5"], "whole number"),
        (vec!["run", "mglru-basic", "--bogus"], "--bogus"),
        (vec!["run", "mglru-basic", "--seed", "-1"], "invalid value '-1' for '--seed"),
        (vec!["compare", "kswapd-classzone", "--seed", "x"], "invalid value 'x' for '--seed"),
        (vec!["run", "/nonexistent/file.json"], "file.json"),
        (vec!["compare", "memcg-lru-fairness", "--param", "=5"], "the parameter's name is missing before '=' (memcg-lru-fairness's parameters: memcgs,"),
        (vec!["compare", "memcg-lru-fairness", "--param", "memcgs"], "expected K=V"),
        (vec!["sweep", "kswapd-classzone", "--seeds", "abc"], "not a whole number from 1 to 50"),
        (vec!["sweep", "kswapd-classzone", "--seeds", "-1"], "not a whole number from 1 to 50"),
        (vec!["sweep", "kswapd-classzone", "--threads", "0"], "not a whole number from 1 to 64"),
        (vec!["gen-trace", "/tmp/never-written.bin", "--seed", "-1"], "a whole number from 0 to"),
        // At once, before the experiments run (minutes).
        (vec!["experiments-doc", "--ranges-json", "/nonexistent/dir/r.json"], "/nonexistent/dir/r.json: No such file or directory"),
        (vec!["replay", "/tmp/never-read.bin", "--cache-pages", "99999999999999999999"], "not a whole number from 1 to 8388608"),
        // Each in range, too large together: the message names the parameters given, not a scenario field.
        (
            vec!["run", "proactive-root", "--param", "memcgs=512", "--param", "pages_per_memcg=32768"],
            "memcgs=512, pages_per_memcg=32768 are each in range, but together they make a scenario the engine cannot run",
        ),
        // One in range that the scenario cannot take (a node of one page): the engine's own check, no advice.
        (vec!["run", "proactive-root", "--param", "node_pages=1"], "node_pages=1 is in range, but the scenario it makes is one the engine cannot run (nodes[0].zones[0].pages: 1 is out of range: accepted from 64"),
    ] {
        let (code, out, err) = sim(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?} printed to stdout: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn no_subcommand_is_an_error() {
    let (code, out, err) = sim(&[]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("Usage: reclaim-sim <COMMAND>"), "{err}");
}

/// A scenario file runs on its own seed unless --seed is given; --variant
/// and --param belong to built-in scenarios.
#[test]
fn a_scenario_file_runs_on_its_own_seed() {
    let dir = std::env::temp_dir().join(format!("reclaim-sim-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = |seed: u64| {
        format!(
            r#"{{"version": 1, "name": "x", "seed": {seed}, "stepNs": 1000000, "durationNs": 100000000,
            "nodes": [{{"zones": [{{"zone": "Normal", "pages": 4096}}]}}],
            "memcgs": [{{"path": "/a", "memoryMax": 512}}],
            "workloads": [{{"name": "w", "memcg": "/a", "pattern": {{"kind": "uniform"}}, "target": {{"kind": "anon", "pages": 2000}}, "rate": 20000}}]}}"#
        )
    };
    let f5 = dir.join("seed5.json");
    let f6 = dir.join("seed6.json");
    std::fs::write(&f5, scenario(5)).unwrap();
    std::fs::write(&f6, scenario(6)).unwrap();
    let (f5, f6) = (f5.to_str().unwrap(), f6.to_str().unwrap());
    let (code, out5, err) = sim(&["run", f5, "--json"]);
    assert_eq!(code, 0, "{err}");
    let (_, out6, _) = sim(&["run", f6, "--json"]);
    let (_, out6_as_5, _) = sim(&["run", f6, "--json", "--seed", "5"]);
    assert_ne!(out5, out6, "seeds 5 and 6 ran alike: the file's seed was not used");
    assert_eq!(out5, out6_as_5, "--seed 5 should override the file's seed");
    let (code, text, _) = sim(&["run", f5]);
    assert_eq!(code, 0);
    assert!(text.starts_with("scenario x seed 5:"), "{text}");
    for (args, needle) in [
        (vec!["run", f5, "--variant", "before"], "--variant applies to experiments"),
        (vec!["run", f5, "--param", "x=1"], "--param applies to built-in scenarios"),
    ] {
        let (code, out, err) = sim(&args);
        assert_eq!((code, out.is_empty(), err.trim_end().lines().count()), (2, true, 1), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn broken_scenario_file_names_the_field() {
    let dir = std::env::temp_dir().join(format!("reclaim-sim-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.json");
    std::fs::write(&f, r#"{"version": 1, "name": "x", "seed": 1, "stepNs": 1000000, "durationNs": 10000000,
        "nodes": [{"zones": [{"zone": "Normal", "pages": 4096}]}],
        "workloads": [{"name": "w", "memcg": "/missing", "pattern": {"kind": "uniform"},
                       "target": {"kind": "anon", "pages": 100}}]}"#).unwrap();
    let (code, out, err) = sim(&["run", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("workloads[0].memcg"), "{err}");
    // A negative size: the field and the accepted range, in words.
    std::fs::write(&f, r#"{"version": 1, "name": "x", "seed": 1, "stepNs": 1000000, "durationNs": 10000000,
        "nodes": [{"zones": [{"zone": "Normal", "pages": 4096}]}], "memcgs": [{"path": "/a", "memoryMax": -5}],
        "workloads": []}"#).unwrap();
    let (code, _, err) = sim(&["run", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("memcgs[0].memoryMax: -5 is not a whole number from 0 to 18446744073709551615"), "{err}");
    std::fs::write(&f, "{ not json").unwrap();
    let (code, _, err) = sim(&["run", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("scenario file"), "{err}");
    // What serde would read by position, or what breaks a line, or two sizes for one file: refused, by field.
    let good = r#"{"version": 1, "name": "x", "seed": 1, "stepNs": 1000000, "durationNs": 10000000,
        "nodes": [{"zones": [{"zone": "Normal", "pages": 4096}]}], "memcgs": [{"path": "/a"}], "knobs": {"lruGenEnabled": true},
        "workloads": [{"name": "w", "memcg": "/a", "pattern": {"kind": "uniform"}, "target": {"kind": "file", "pages": 100, "op": "read", "file": "data"}},
                      {"name": "v", "memcg": "/a", "pattern": {"kind": "uniform"}, "target": {"kind": "file", "pages": 100, "op": "read", "file": "data"}}]}"#;
    std::fs::write(&f, good).unwrap();
    assert_eq!(sim(&["run", f.to_str().unwrap()]).0, 0, "the file before it is broken runs");
    for (broken, needle) in [
        (good.replace(r#"{"lruGenEnabled": true}"#, "[false]"), "knobs: a list ([...]) where an object ({...}) belongs"),
        (good.replace(r#"{"zone": "Normal", "pages": 4096}"#, r#"["Normal", 4096]"#), "nodes[0].zones[0]: a list"),
        (good.replace(r#""name": "w""#, r#""name": "a\nb""#), "workloads[0].name: \"a\\nb\" has a control character"),
        (good.replace(r#""name": "x""#, r#""name": "x\ty""#), "name: \"x\\ty\" has a control character"),
        (good.replacen(r#""pages": 100"#, r#""pages": 200"#, 1), "workloads[1].target.pages: file \"data\" is 200 pages in workloads[0]"),
    ] {
        std::fs::write(&f, &broken).unwrap();
        let (code, out, err) = sim(&["run", f.to_str().unwrap()]);
        assert_eq!((code, out.is_empty(), err.trim_end().lines().count()), (2, true, 1), "{broken}: {err}");
        assert!(err.contains(needle), "{needle}: {err}");
    }
    // A device or a huge file is refused after 8 MB, not read for good.
    #[cfg(unix)]
    {
        let zero = dir.join("zero.json");
        let _ = std::fs::remove_file(&zero);
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let (code, out, err) = sim(&["run", zero.to_str().unwrap()]);
        assert_eq!((code, out.is_empty()), (2, true), "{err}");
        assert!(err.contains("larger than 8 MB: not a scenario file"), "{err}");
    }
}

#[test]
fn a_misspelt_field_in_a_scenario_file_is_named() {
    let dir = std::env::temp_dir().join(format!("reclaim-sim-typo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("typo.json");
    std::fs::write(&f, r#"{"version": 1, "name": "x", "seed": 1, "stepNs": 1000000, "durationNs": 10000000,
        "nodes": [{"zones": [{"zone": "Normal", "pages": 4096}]}],
        "workloads": [{"name": "w", "memcg": "/", "pattern": {"kind": "uniform"}, "target": {"kind": "anon", "pages": 100}}],
        "knobs": {"memcgLRU": false}}"#).unwrap();
    let (code, out, err) = sim(&["run", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("memcgLRU"), "{err}");
}

#[test]
fn compare_json_follows_the_contract() {
    let (code, out, err) = sim(&["compare", "kswapd-classzone", "--json", "--seed", "2", "--param", "bursts=3"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["experiment"], "kswapd-classzone");
    assert_eq!(v["seed"], 2);
    assert_eq!(v["params"]["bursts"], 3.0);
    for variant in ["before", "after"] {
        let m = &v["variants"][variant]["metrics"];
        // Counters print as integers, as /proc/vmstat shows them, not 29961.0.
        assert!(m["kswapd_premature_sleeps"].is_u64(), "{variant}: {m}");
        assert!(m["pgscan_direct"].is_u64(), "{variant}: {m}");
        assert!(m["reads_per_sec"].is_f64(), "{variant}: {m}");
    }
    assert!(v["params"]["bursts"].is_u64(), "{}", v["params"]);
    assert!(!out.contains(".0,\n") && !out.contains(".0\n"), "a whole number printed as a float: {out}");
    // Each headline says whether it held on this seed, against its baseline.
    let heads = v["headlines"].as_array().expect("headlines");
    assert_eq!(heads.len(), 4, "{heads:?}");
    for h in heads {
        let metric = h["metric"].as_str().unwrap();
        let (b, a) = (v["variants"][h["baseline"].as_str().unwrap()]["metrics"][metric].as_f64().unwrap(), v["variants"]["after"]["metrics"][metric].as_f64().unwrap());
        assert_eq!(h["expected"], format!("after lower than {}", h["baseline"].as_str().unwrap()));
        assert_eq!((h["held"].as_bool(), h["tied"].as_bool()), (Some(a < b), Some(a == b)), "{h}");
        // The headline carries the two values it compares, as the variants give them.
        assert_eq!((h["baseline_value"].as_f64(), h["after_value"].as_f64()), (Some(b), Some(a)), "{h}");
    }
    let (_, text, _) = sim(&["compare", "kswapd-classzone", "--seed", "2", "--param", "bursts=3"]);
    for h in heads {
        let verdict = if h["held"] == true { "held" } else if h["tied"] == true { "tied" } else { "NOT held" };
        assert!(text.lines().any(|l| l.trim_start().starts_with(h["metric"].as_str().unwrap()) && l.contains(verdict) && l.contains("expected")), "{text}");
    }
}

/// A metric the run does not define (kswapd's efficiency when kswapd never
/// scanned: 20 ms bursts never reach a watermark) is null in JSON and "n/a"
/// in the table, with no change; where it is defined, it is a number.
#[test]
fn compare_shows_an_undefined_metric_as_null_and_n_a() {
    let (code, out, err) = sim(&["compare", "kswapd-classzone", "--json", "--seed", "1", "--param", "burst_ms=20"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    for variant in ["before", "after", "merged-v4.12"] {
        let m = &v["variants"][variant]["metrics"];
        assert_eq!(m["pgscan_kswapd"], 0, "{variant}: {m}");
        assert!(m["kswapd_efficiency"].is_null(), "{variant}: {m}");
    }
    let (_, text, _) = sim(&["compare", "kswapd-classzone", "--seed", "1", "--param", "burst_ms=20"]);
    let row = text.lines().find(|l| l.starts_with("kswapd_efficiency")).expect("a kswapd_efficiency row");
    assert_eq!(row.split_whitespace().collect::<Vec<_>>(), ["kswapd_efficiency", "n/a", "n/a", "n/a", "-"], "{row}");
    let (_, out, _) = sim(&["compare", "kswapd-classzone", "--json", "--seed", "1", "--param", "bursts=3"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let e = v["variants"]["after"]["metrics"]["kswapd_efficiency"].as_f64().expect("defined once kswapd scanned");
    assert!(e > 0.0 && e <= 1.0, "{e}");
    // A share's change is in percentage points (it is a percentage already); a count's is relative.
    let b = v["variants"]["before"]["metrics"]["kswapd_efficiency"].as_f64().unwrap();
    let (_, text, _) = sim(&["compare", "kswapd-classzone", "--seed", "1", "--param", "bursts=3"]);
    let row = text.lines().find(|l| l.starts_with("kswapd_efficiency")).expect("a kswapd_efficiency row");
    assert!(row.ends_with(&format!("{:+.1} pp", (e - b) * 100.0)), "{row}");
    let row = text.lines().find(|l| l.starts_with("pgscan_kswapd")).expect("a pgscan_kswapd row");
    assert!(row.ends_with(" %"), "{row}");
}

/// A headline measured against a variant other than before (proactive
/// reclaim's overreclaim_pages, against whole) shows its change against that
/// variant in the table, naming it, as the app's comparison table does; the
/// other rows stay against before.
#[test]
fn compare_shows_a_headlines_change_against_its_own_baseline() {
    let args = ["compare", "proactive-reclaim-batching", "--seed", "1", "--param", "children=16"];
    let (code, text, err) = sim(&args);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = sim(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let m = |variant: &str, metric: &str| v["variants"][variant]["metrics"][metric].as_f64().unwrap();
    let row = text.lines().find(|l| l.starts_with("overreclaim_pages")).expect("an overreclaim_pages row");
    let (whole, after) = (m("whole", "overreclaim_pages"), m("after", "overreclaim_pages"));
    assert_ne!(whole, m("before", "overreclaim_pages"), "the baselines must differ for this to tell them apart");
    assert!(row.ends_with(&format!("{:+.1} % vs whole", (after - whole) / whole.abs() * 100.0)), "{row}");
    let row = text.lines().find(|l| l.starts_with("time_s")).expect("a time_s row");
    let (before, after) = (m("before", "time_s"), m("after", "time_s"));
    assert!(row.ends_with(&format!("{:+.1} %", (after - before) / before * 100.0)), "{row}");
    assert!(text.contains("change: after against before (or the variant named)"), "{text}");
}

#[test]
fn compare_rejects_unknown_experiments_and_bad_parameters() {
    for (args, needle) in [
        (vec!["compare", "no-such-experiment"], "unknown experiment"),
        (vec!["compare", "memcg-lru-fairness", "--param", "memcgs=1"], "from 2 to 512"),
        (vec!["compare", "memcg-lru-fairness", "--param", "bogus=1"], "unknown parameter"),
    ] {
        let (code, out, err) = sim(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn sweep_prints_a_row_per_range_end() {
    let (code, out, err) = sim(&["sweep", "proactive-reclaim-batching", "--seeds", "1"]);
    assert_eq!(code, 0, "{err}");
    let e = reclaim_core::experiment::find("proactive-reclaim-batching").expect("experiment");
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| parameter")).collect();
    assert_eq!(rows.len(), reclaim_core::sweep::points(e).len(), "{out}");
    assert!(rows[0].starts_with("| defaults |"), "{out}");
    for r in &rows {
        // One cell per headline, each "k/1".
        assert_eq!(r.matches("/1").count(), e.headlines.len(), "{r}");
    }
    let (code, out, err) = sim(&["sweep", "no-such-experiment"]);
    assert_eq!((code, out.is_empty(), err.trim_end().lines().count()), (2, true, 1), "{err}");
}

#[test]
fn sweep_json_counts_the_same_as_the_table() {
    let args = ["sweep", "proactive-reclaim-batching", "--seeds", "2"];
    let (code, table, err) = sim(&args);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = sim(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(j["experiment"], "proactive-reclaim-batching");
    assert_eq!(j["seeds"], serde_json::json!([1, 2]));
    let rows = j["rows"].as_array().expect("rows");
    let lines: Vec<&str> = table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| parameter")).collect();
    assert_eq!(rows.len(), lines.len(), "{out}");
    for (row, line) in rows.iter().zip(&lines) {
        // The table's cells, rebuilt from the JSON counts.
        let mut cells = format!("| {} |", row["point"].as_str().expect("point"));
        for (h, t) in row["held"].as_array().expect("held").iter().zip(row["tied"].as_array().expect("tied")) {
            let (h, t) = (h.as_u64().expect("count"), t.as_u64().expect("count"));
            cells += &match (h, t) {
                (2, _) => " 2/2 |".to_string(),
                (h, 0) => format!(" **{h}/2** |"),
                (h, t) => format!(" **{h}/2** ({t} tied) |"),
            };
        }
        assert_eq!(&cells, line);
    }
}

#[test]
fn a_reader_that_stops_reading_ends_the_command_quietly() {
    use std::process::Stdio;
    // As with `reclaim-sim run ... | head`: the pipe's read end is closed
    // (here before the run finishes) and the write fails with EPIPE.
    let mut child = Command::new(env!("CARGO_BIN_EXE_reclaim-sim"))
        .args(["run", "mglru-basic", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run reclaim-sim");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for reclaim-sim");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert!(stderr.is_empty(), "no panic, no message: {stderr}");
}

/// `run --events`: the events of the kinds asked for, one a line in time
/// order, before the counters; an unknown kind is a usage error.
#[test]
fn run_events_prints_the_kinds_asked_for_in_time_order() {
    let (code, out, err) = sim(&["run", "slow-disk", "--steps", "400", "--events", "throttle,kswapd-sleep"]);
    assert_eq!(code, 0, "{err}");
    let (trace, report) = out.split_once("\n\n").expect("a blank line before the counters");
    assert!(report.starts_with("scenario slow-disk seed 1: 400 steps"), "{report}");
    let lines: Vec<&str> = trace.lines().collect();
    assert!(lines.len() > 10, "{trace}");
    let mut last = (0.0, 0u64);
    for line in &lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (t, step): (f64, u64) = (fields[0].parse().unwrap(), fields[3].parse().unwrap());
        assert_eq!((fields[1], fields[2]), ("s", "step"), "{line}");
        assert!(step >= last.1 && (step > last.1 || t >= last.0), "in order within a step: {line}");
        assert!(t > 3.0 && step > 300, "nothing throttles before the growing task starts at 3 s: {line}");
        last = (t, step);
        // The kind column names the kind asked for, with its function.
        let (kind, function) = (fields[4], fields[5]);
        assert!([("throttle", "reclaim_throttle:"), ("kswapd-sleep", "kswapd_try_to_sleep:")].contains(&(kind, function)), "{line}");
    }
    assert!(lines.iter().any(|l| l.contains("reclaim_throttle: kswapd0 on node 0 sleeps")), "{trace}");
    assert!(lines.iter().any(|l| l.contains("reclaim_throttle: grower, in direct reclaim, on node 0 sleeps")), "{trace}");
    // The same run's counters, whatever is printed.
    let (_, plain, _) = sim(&["run", "slow-disk", "--steps", "400"]);
    assert_eq!(report, plain);

    // kswapd-classzone before the patch: the premature sleep says so, and why; the sound one does not.
    let (code, out, err) = sim(&["run", "kswapd-classzone", "--variant", "before", "--steps", "130", "--events", "kswapd-sleep"]);
    assert_eq!(code, 0, "{err}");
    let sleeps: Vec<&str> = out.lines().filter(|l| l.contains("asleep until wakeup_kswapd")).collect();
    let premature: Vec<&&str> = sleeps.iter().filter(|l| l.contains("Premature")).collect();
    let count: u64 = out.lines().find_map(|l| l.trim().strip_prefix("kswapd_premature_sleeps")).expect("the metric").trim().parse().unwrap();
    assert!(count > 0 && premature.len() as u64 == count, "{out}");
    assert!(premature.iter().all(|l| l.contains("pgdat_balanced for zones up to DMA after the nap") && l.contains("no zone the last wakeup asked for is balanced (Normal has ")), "{premature:?}");
    assert!(sleeps.len() > premature.len(), "a sound sleep too: {sleeps:?}");

    let (code, out, err) = sim(&["run", "slow-disk", "--events", "floppy"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains(r#"unknown event kind "floppy" (known: all, aging, kswapd-wake"#), "{err}");
}

/// Settings the kernel takes but that are likely slips run as written, with
/// a note on stderr saying what they do.
#[test]
fn run_notes_protection_above_the_limit() {
    let dir = std::env::temp_dir().join(format!("reclaim-sim-notes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("notes.json");
    let doc = r#"{"version": 1, "name": "x", "seed": 1, "stepNs": 1000000, "durationNs": 10000000,
        "nodes": [{"zones": [{"zone": "Normal", "pages": 4096}]}],
        "memcgs": [{"path": "/a", "memoryMax": 1024, "memoryHigh": 2048, "memoryLow": 4096, "memoryMin": 8192}, {"path": "/b", "memoryLow": 10}],
        "workloads": [{"name": "w", "memcg": "/a", "pattern": {"kind": "uniform"}, "target": {"kind": "anon", "pages": 100}}]}"#;
    std::fs::write(&f, doc).unwrap();
    let (code, out, err) = sim(&["run", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("scenario x seed 1"), "{out}");
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("reclaim-sim: note: memcgs[0].")).collect();
    assert_eq!(notes.len(), 4, "{err}");
    assert!(notes.contains(&r#"reclaim-sim: note: memcgs[0].memoryLow: 4096 is above memoryMax (1024): it protects everything "/a" can hold"#), "{err}");
    assert!(notes.contains(&r#"reclaim-sim: note: memcgs[0].memoryMin: 8192 is above memoryMax (1024): it protects everything "/a" can hold"#), "{err}");
    assert!(err.contains("memcgs[0].memoryHigh: 2048 is above memoryMax (1024)"), "{err}");
    assert!(err.contains("memcgs[0].memoryMin: 8192 is above memoryLow (4096)"), "{err}");
    // A sound memcg has none.
    assert!(!err.contains("memcgs[1]"), "{err}");
}
