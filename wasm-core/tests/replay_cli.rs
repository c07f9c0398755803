//! `reclaim-sim replay` and `gen-trace` on the command line: the report,
//! --policy all, --json, and bad traces (one line on stderr naming the
//! line or byte offset, exit status 2, nothing on stdout).
use std::path::PathBuf;
use std::process::Command;

fn sim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reclaim-sim")).args(args).output().expect("run reclaim-sim");
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name).to_string_lossy().into_owned()
}

fn temp(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("reclaim-replay-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn policy_all_prints_one_row_per_policy() {
    let (code, out, err) = sim(&["replay", &data("small.csv"), "--cache-pages", "40", "--policy", "all"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("trace ") && out.contains("csv, 600 requests, 126 distinct pages; cache 40 pages"), "{out}");
    let rows: Vec<&str> = out.lines().filter(|l| l.split_whitespace().nth(1).is_some_and(|c| c == "600")).collect();
    let names: Vec<&str> = rows.iter().map(|r| r.split_whitespace().next().unwrap()).collect();
    assert_eq!(names, ["mglru", "classic", "lru", "clock", "s3fifo"], "{out}");
}

#[test]
fn json_has_the_trace_and_one_object_per_policy() {
    let (code, out, err) = sim(&["replay", &data("small.oracleGeneral.bin.zst"), "--cache-pages", "64", "--policy", "lru,mglru", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["cachePages"], 64);
    assert_eq!(v["trace"]["format"], "oracleGeneral");
    assert_eq!(v["trace"]["compressed"], true);
    assert_eq!(v["trace"]["requests"], 600);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.iter().map(|r| r["policy"].as_str().unwrap()).collect::<Vec<_>>(), ["lru", "mglru"]);
    for r in results {
        let (acc, miss) = (r["accesses"].as_u64().unwrap(), r["misses"].as_u64().unwrap());
        assert_eq!(acc, 600);
        assert_eq!(r["hits"].as_u64().unwrap() + miss, acc);
        assert!((r["missRatio"].as_f64().unwrap() - miss as f64 / acc as f64).abs() < 1e-12);
        assert!(r["counters"]["pgsteal_direct"].as_u64().unwrap() > 0);
        assert!(r["accessesPerSecond"].as_f64().unwrap() > 0.0 && r["wallSeconds"].is_f64());
        assert!(r.get("samples").is_none(), "samples only with --samples");
    }
    let (_, out, _) = sim(&["replay", &data("small.csv"), "--cache-pages", "64", "--json", "--samples"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["results"][0]["samples"].as_array().unwrap().last().unwrap()["accesses"], 600);
}

#[test]
fn the_counters_are_the_same_on_every_run() {
    let strip = |out: String| {
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
        for r in v["results"].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().retain(|k, _| k != "wallSeconds" && k != "accessesPerSecond");
        }
        v
    };
    let args = ["replay", &data("small.csv"), "--cache-pages", "50", "--policy", "all", "--json"];
    assert_eq!(strip(sim(&args).1), strip(sim(&args).1));
}

#[test]
fn bad_traces_are_one_line_on_stderr_and_exit_2() {
    let truncated = {
        let mut b: Vec<u8> = (0..5u64).flat_map(|i| reclaim_core::replay::oracle::encode(0, i, 4096, -1)).collect();
        b.truncate(24 * 4 + 3);
        temp("cut.oracleGeneral.bin", &b)
    };
    let zst = std::fs::read(data("small.oracleGeneral.bin.zst")).unwrap();
    let cut_zst = temp("cut.oracleGeneral.bin.zst", &zst[..zst.len() / 2]);
    let bad_csv = temp("bad.csv", b"time,obj_id\n0,1\n0,two\n");
    let empty = temp("empty.csv", b"");
    // A control character in a bad field is escaped: the message stays one printable line.
    let binary_csv = temp("binary.csv", b"0,\x01\x02two\n");
    for (args, needle) in [
        (vec!["replay", binary_csv.as_str(), "--cache-pages", "8"], "line 1: this does not look like a text trace: byte 0x01 is binary data"),
        (vec!["replay", bad_csv.as_str(), "--cache-pages", "8", "--samples"], "--json"),
        (vec!["replay", truncated.as_str(), "--cache-pages", "8"], "byte offset 96: truncated record"),
        (vec!["replay", cut_zst.as_str(), "--cache-pages", "8"], "truncated .zst"),
        (vec!["replay", bad_csv.as_str(), "--cache-pages", "8", "--policy", "all"], "line 3: obj_id \"two\""),
        (vec!["replay", bad_csv.as_str(), "--cache-pages", "8", "--format", "oracleGeneral"], "truncated record"),
        (vec!["replay", empty.as_str(), "--cache-pages", "8"], "no requests"),
        (vec!["replay", "/nonexistent/t.csv", "--cache-pages", "8"], "/nonexistent/t.csv"),
        (vec!["replay", bad_csv.as_str(), "--cache-pages", "8", "--policy", "fifo"], "unknown policy \"fifo\""),
        (vec!["replay", bad_csv.as_str(), "--cache-pages", "0"], "--cache-pages"),
        (vec!["replay", bad_csv.as_str()], "--cache-pages"),
        (vec!["replay", bad_csv.as_str(), "--cache-pages", "8", "--format", "parquet"], "parquet"),
    ] {
        let (code, out, err) = sim(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed to stdout: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn gen_trace_writes_a_trace_that_replays() {
    let dir = std::env::temp_dir().join(format!("reclaim-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, format) in [("g.oracleGeneral.bin", "oracleGeneral"), ("g.csv", "csv")] {
        let p = dir.join(name).to_string_lossy().into_owned();
        let (code, _, err) = sim(&["gen-trace", &p, "--requests", "5000", "--pages", "800", "--zipf", "0.9", "--seed", "4", "--format", format]);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = sim(&["replay", &p, "--cache-pages", "200", "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["trace"]["format"], format);
        assert_eq!(v["results"][0]["accesses"], 5000);
    }
    let bin = std::fs::read(dir.join("g.oracleGeneral.bin")).unwrap();
    assert_eq!(bin.len(), 5000 * 24);
    let (code, _, err) = sim(&["gen-trace", "/tmp/x.bin", "--zipf", "9"]);
    assert_eq!((code, err.contains("--zipf 9")), (2, true), "{err}");
}

/// Without --format, gen-trace writes the format `replay` will read the file
/// as (by its name); a --format the name contradicts is refused.
#[test]
fn gen_trace_writes_the_format_its_name_says() {
    let dir = std::env::temp_dir().join(format!("reclaim-gen-name-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, format) in [("n.csv", "csv"), ("n.bin", "oracleGeneral"), ("n.trace", "oracleGeneral")] {
        let p = dir.join(name).to_string_lossy().into_owned();
        let (code, _, err) = sim(&["gen-trace", &p, "--requests", "300", "--pages", "50", "--zipf", "0"]);
        assert_eq!(code, 0, "{name}: {err}");
        let (code, out, err) = sim(&["replay", &p, "--cache-pages", "20", "--json"]);
        assert_eq!(code, 0, "{name}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!((v["trace"]["format"].as_str(), v["results"][0]["accesses"].as_u64()), (Some(format), Some(300)), "{name}");
    }
    for (name, extra, needle) in [
        ("m.bin", Some("csv"), "the name"),
        ("m.csv", Some("oracleGeneral"), "the name"),
        ("m.bin.zst", None, "uncompressed"),
    ] {
        let p = dir.join(name).to_string_lossy().into_owned();
        let mut args = vec!["gen-trace", p.as_str(), "--requests", "10"];
        if let Some(f) = extra {
            args.extend(["--format", f]);
        }
        let (code, out, err) = sim(&args);
        assert_eq!((code, out.is_empty(), err.trim_end().lines().count()), (2, true, 1), "{name}: {err}");
        assert!(err.contains(needle), "{name}: {err}");
        assert!(!dir.join(name).exists(), "{name} was written");
    }
}
