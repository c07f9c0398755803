//! Trace replay (docs/trace-replay.md): the exact-LRU and CLOCK baselines
//! against plain reference models, the trace readers on whole, chunked,
//! compressed, truncated and malformed input, determinism, and the engine's
//! invariants after a replay under every policy.
use std::collections::VecDeque;

use proptest::prelude::*;
use reclaim_core::mm::vmstat::Item;
use reclaim_core::replay::{gen, oracle, Policy, ReplayError, ReplayOptions, ReplayReport, Request, Session, TraceDecoder, TraceFormat};

/// SWAP_CLUSTER_MAX: what one memcg limit reclaim frees for a one-page charge.
const BATCH: usize = 32;

const SMALL_CSV: &[u8] = include_bytes!("data/small.csv");
const SMALL_ZST: &[u8] = include_bytes!("data/small.oracleGeneral.bin.zst");

/// Exact LRU with capacity `n`, evicting the `batch` least recently used
/// pages when a miss finds it full (batch = 1: the textbook LRU).
fn lru_reference(ids: &[u64], n: usize, batch: usize) -> u64 {
    let mut lru: VecDeque<u64> = VecDeque::new(); // front = most recent
    let mut misses = 0;
    for &id in ids {
        if let Some(pos) = lru.iter().position(|&x| x == id) {
            lru.remove(pos);
        } else {
            misses += 1;
            if lru.len() == n {
                for _ in 0..batch.min(n) {
                    lru.pop_back();
                }
            }
        }
        lru.push_front(id);
    }
    misses
}

/// CLOCK with capacity `n`: a ring (front = under the hand) of (page,
/// referenced); a hit sets the bit; a miss on a full ring sweeps the hand
/// until `batch` pages without the bit are out, then inserts the page
/// behind the hand, bit clear.
fn clock_reference(ids: &[u64], n: usize, batch: usize) -> u64 {
    let mut ring: VecDeque<(u64, bool)> = VecDeque::new();
    let mut misses = 0;
    for &id in ids {
        if let Some(e) = ring.iter_mut().find(|e| e.0 == id) {
            e.1 = true;
            continue;
        }
        misses += 1;
        if ring.len() == n {
            let mut evicted = 0;
            while evicted < batch.min(n) {
                let (page, referenced) = ring.pop_front().expect("full ring");
                if referenced {
                    ring.push_back((page, false));
                } else {
                    evicted += 1;
                }
            }
        }
        ring.push_back((id, false));
    }
    misses
}

fn options(policies: &[Policy], cache_pages: u64) -> ReplayOptions {
    ReplayOptions { policies: policies.to_vec(), cache_pages, format: None, name: String::new(), object_pages: false }
}

/// Replays `bytes` pushed in chunks of `chunk` bytes.
fn replay_bytes(bytes: &[u8], opts: &ReplayOptions, chunk: usize) -> Result<ReplayReport, ReplayError> {
    let mut s = Session::new(opts)?;
    for c in bytes.chunks(chunk.max(1)) {
        s.push(c)?;
    }
    s.finish()
}

fn ids_csv(ids: &[u64]) -> Vec<u8> {
    ids.iter().map(|i| format!("{i}\n")).collect::<String>().into_bytes()
}

fn ids_oracle(ids: &[u64]) -> Vec<u8> {
    ids.iter().enumerate().flat_map(|(t, &i)| oracle::encode(t as u32, i, 4096, -1)).collect()
}

/// Every request of a trace, decoded with the given chunk size.
fn decode(bytes: &[u8], format: Option<TraceFormat>, chunk: usize) -> Result<Vec<Request>, String> {
    let mut d = TraceDecoder::new(format, "");
    let mut out = Vec::new();
    for c in bytes.chunks(chunk.max(1)) {
        d.push(c, &mut |r| out.push(r)).map_err(|e| e.to_string())?;
    }
    d.finish(&mut |r| out.push(r)).map_err(|e| e.to_string())?;
    Ok(out)
}

fn misses(bytes: &[u8], policy: Policy, cache: u64) -> u64 {
    replay_bytes(bytes, &options(&[policy], cache), 4096).expect("replays").results[0].misses
}

#[test]
fn exact_lru_on_the_bundled_trace_equals_the_reference_model() {
    let ids: Vec<u64> = decode(SMALL_CSV, None, 1 << 16).unwrap().iter().map(|r| r.obj_id).collect();
    assert_eq!(ids.len(), 600);
    for cache in [8u64, 31, 32, 40, 64, 100, 200] {
        let got = misses(SMALL_CSV, Policy::Lru, cache);
        assert_eq!(got, lru_reference(&ids, cache as usize, BATCH), "cache {cache}");
        assert_eq!(misses(SMALL_CSV, Policy::Clock, cache), clock_reference(&ids, cache as usize, BATCH), "CLOCK, cache {cache}");
    }
    // Everything fits: only the cold misses.
    let distinct = {
        let mut v = ids.clone();
        v.sort_unstable();
        v.dedup();
        v.len() as u64
    };
    assert_eq!(misses(SMALL_CSV, Policy::Lru, 200), distinct);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random traces over a few pages to a few hundred: the engine's exact
    /// LRU (through the memcg charge, limit reclaim and shrink_folio_list)
    /// misses exactly as often as the reference model, and, as an LRU
    /// whose size stays within [N - 32, N], between the textbook LRU's
    /// misses at N and at N - 32.
    #[test]
    fn exact_lru_matches_the_reference_on_random_traces(
        pages in 1u64..400,
        cache in 1u64..160,
        raw in prop::collection::vec(any::<u64>(), 1..1500),
    ) {
        let ids: Vec<u64> = raw.iter().map(|r| r % pages).collect();
        let bytes = ids_csv(&ids);
        let got = misses(&bytes, Policy::Lru, cache);
        prop_assert_eq!(got, lru_reference(&ids, cache as usize, BATCH));
        let textbook = lru_reference(&ids, cache as usize, 1);
        prop_assert!(got >= textbook);
        if cache as usize > BATCH {
            prop_assert!(got <= lru_reference(&ids, cache as usize - BATCH, 1));
        }
        prop_assert_eq!(misses(&bytes, Policy::Clock, cache), clock_reference(&ids, cache as usize, BATCH));
    }

    /// The decoders do not care where chunks end.
    #[test]
    fn decoding_does_not_depend_on_chunk_boundaries(
        raw in prop::collection::vec(any::<u64>(), 1..300),
        chunk in 1usize..100,
    ) {
        let ids: Vec<u64> = raw.iter().map(|r| r % 1000).collect();
        for (bytes, format) in [(ids_csv(&ids), TraceFormat::Csv), (ids_oracle(&ids), TraceFormat::OracleGeneral)] {
            let whole = decode(&bytes, Some(format), bytes.len()).unwrap();
            prop_assert_eq!(&decode(&bytes, Some(format), chunk).unwrap(), &whole);
            prop_assert_eq!(whole.iter().map(|r| r.obj_id).collect::<Vec<_>>(), ids.clone());
        }
    }
}

#[test]
fn the_bundled_csv_and_zstd_binary_traces_are_the_same_requests() {
    let csv = decode(SMALL_CSV, None, 1000).unwrap();
    for chunk in [1, 7, 100, 1 << 20] {
        let bin = decode(SMALL_ZST, None, chunk).unwrap();
        assert_eq!(bin.len(), csv.len());
        assert!(bin.iter().zip(&csv).all(|(a, b)| a.obj_id == b.obj_id && a.size == b.size), "chunk {chunk}");
    }
    let a = replay_bytes(SMALL_CSV, &options(&Policy::ALL, 40), 333).unwrap();
    let b = replay_bytes(SMALL_ZST, &options(&Policy::ALL, 40), 100).unwrap();
    assert_eq!(a.results, b.results);
    assert_eq!((a.trace.format, a.trace.compressed), (Some(TraceFormat::Csv), Some(false)));
    assert_eq!((b.trace.format, b.trace.compressed), (Some(TraceFormat::OracleGeneral), Some(true)));
}

#[test]
fn zstd_written_by_ruzstd_and_split_into_frames_decodes() {
    let ids: Vec<u64> = (0..5000u64).map(|i| (i * 7919) % 1234).collect();
    let plain = ids_oracle(&ids);
    let (a, b) = plain.split_at(24 * 2000);
    let mut z = ruzstd::encoding::compress_to_vec(a, ruzstd::encoding::CompressionLevel::Fastest);
    // A skippable frame between two frames, as zstd allows.
    z.extend_from_slice(&[0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3]);
    z.extend(ruzstd::encoding::compress_to_vec(b, ruzstd::encoding::CompressionLevel::Fastest));
    for chunk in [3, 64, 4096, z.len()] {
        let got: Vec<u64> = decode(&z, None, chunk).unwrap().iter().map(|r| r.obj_id).collect();
        assert_eq!(got, ids, "chunk {chunk}");
    }
}

#[test]
fn truncated_and_malformed_binary_records_are_rejected_with_their_offset() {
    let ids: Vec<u64> = (0..10).collect();
    let mut bytes = ids_oracle(&ids);
    bytes.truncate(24 * 7 + 10);
    for chunk in [5, 24, 1000] {
        let e = decode(&bytes, Some(TraceFormat::OracleGeneral), chunk).unwrap_err();
        assert_eq!(e, "byte offset 168: truncated record: the trace ends 10 bytes into a 24-byte record", "chunk {chunk}");
    }
    let mut bytes = ids_oracle(&ids);
    bytes[3 * 24 + 16..3 * 24 + 24].copy_from_slice(&(-5i64).to_le_bytes());
    let e = decode(&bytes, Some(TraceFormat::OracleGeneral), 7).unwrap_err();
    assert!(e.starts_with("byte offset 88: this does not look like an oracleGeneral trace (24-byte records: time, obj_id, obj_size, next_access_vtime): record 3: next_access_vtime -5"), "{e}");
    // Further in, one bad record in a trace: no doubt about the format.
    let mut bytes = ids_oracle(&(0..30).collect::<Vec<u64>>());
    bytes[20 * 24 + 16..20 * 24 + 24].copy_from_slice(&(-5i64).to_le_bytes());
    let e = decode(&bytes, Some(TraceFormat::OracleGeneral), 7).unwrap_err();
    assert!(e.starts_with("byte offset 496: record 20: next_access_vtime -5"), "{e}");
    // Records of size 0 are skipped, as libCacheSim's reader does.
    let mut bytes = ids_oracle(&ids);
    bytes[2 * 24 + 12..2 * 24 + 16].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(decode(&bytes, None, 100).unwrap().len(), 9);
}

#[test]
fn malformed_text_lines_are_rejected_with_their_line_number() {
    let cases: [(&str, &str); 13] = [
        // Binary data read as text: said first, not quoted as words.
        ("\u{b}\u{c}\r\u{e}\u{f}\u{10} data\n", "line 1: this does not look like a text trace: byte 0x0b is binary data, not text (expected lines of obj_id or time,obj_id[,size][,op])"),
        ("1\n2\n3\u{0}4\n", "line 3: byte 0x00 is binary data, not text"),
        // Prose: words with no number, beyond a first line that could be a header.
        ("It was a bright cold day in April\n1\n", "line 1: \"It was a bright cold day in April\" is words, not a request (expected obj_id or time,obj_id[,size][,op]); this does not look like a text trace"),
        ("Chapter one\nIt was a day\n", "line 2: \"It was a day\" is words, not a request (expected obj_id or time,obj_id[,size][,op]); this does not look like a text trace"),
        ("0,1\nno such thing\n", "line 2: \"no such thing\" is words, not a request (expected obj_id or time,obj_id[,size][,op])\n"),
        ("1\n2\nx\n", "line 3: obj_id \"x\" is not a whole number"),
        ("time,obj_id\n0,1\n0,-4\n", "line 3: obj_id \"-4\" is not a whole number"),
        ("0,1,4096,get\n0,2,big,get\n", "line 2: size \"big\" is not a whole number of bytes"),
        ("0,1\nnow,2\n", "line 2: time \"now\" is not a number"),
        ("0,1,2,3,4\n", "line 1: more than 4 fields"),
        ("0,1,4096,7\n", "line 1: op \"7\" is not a word"),
        ("1\nobj_id\n", "line 2: obj_id \"obj_id\" is not a whole number"),
        ("# comment\n\n1\n2\n99999999999999999999999\n", "line 5: obj_id \"99999999999999999999999\" is too large: at most 18446744073709551615"),
    ];
    for (text, want) in cases {
        for chunk in [1, 3, 1000] {
            let e = decode(text.as_bytes(), Some(TraceFormat::Csv), chunk).unwrap_err() + "\n";
            assert!(e.starts_with(want), "{text:?} chunk {chunk}: {e}");
        }
    }
    let long = format!("1\n{}\n", "7".repeat(5000));
    assert!(decode(long.as_bytes(), Some(TraceFormat::Csv), 100).unwrap_err().starts_with("line 2: longer than 4096 bytes"));
    // What is accepted: a header, comments, CRLF, spaces, ops, a last line without newline.
    let ok = "time,obj_id,size,op\r\n# x\r\n1.5, 10, 8192, get\r\n2 11\n3,12,set\n13";
    let reqs = decode(ok.as_bytes(), None, 2).unwrap();
    assert_eq!(reqs, vec![Request { obj_id: 10, size: 8192 }, Request { obj_id: 11, size: 0 }, Request { obj_id: 12, size: 0 }, Request { obj_id: 13, size: 0 }]);
}

#[test]
fn truncated_and_corrupt_zstd_is_rejected() {
    let cut = &SMALL_ZST[..SMALL_ZST.len() - 40];
    let e = decode(cut, None, 256).unwrap_err();
    assert!(e.starts_with("zstd stream, compressed byte offset") && e.contains("truncated"), "{e}");
    let mut bad = SMALL_ZST.to_vec();
    for b in &mut bad[20..60] {
        *b ^= 0x5A;
    }
    let e = decode(&bad, None, 256).unwrap_err();
    assert!(e.starts_with("zstd stream, compressed byte offset"), "{e}");
}

#[test]
fn the_format_is_found_from_the_name_or_the_content() {
    assert_eq!(TraceFormat::from_name("w01.oracleGeneral.bin.zst"), Some(TraceFormat::OracleGeneral));
    assert_eq!(TraceFormat::from_name("cluster52.oracleGeneral.zst"), Some(TraceFormat::OracleGeneral));
    assert_eq!(TraceFormat::from_name("trace.CSV"), Some(TraceFormat::Csv));
    assert_eq!(TraceFormat::from_name("trace.txt.zst"), Some(TraceFormat::Csv));
    assert_eq!(TraceFormat::from_name("trace"), None);
    let ids: Vec<u64> = (0..500).collect();
    let mut d = TraceDecoder::new(None, "no-extension");
    d.push(&ids_oracle(&ids), &mut |_| {}).unwrap();
    d.finish(&mut |_| {}).unwrap();
    assert_eq!(d.format(), Some(TraceFormat::OracleGeneral));
    let mut d = TraceDecoder::new(None, "");
    d.push(b"1\n2\n", &mut |_| {}).unwrap();
    d.finish(&mut |_| {}).unwrap();
    assert_eq!(d.format(), Some(TraceFormat::Csv));
}

#[test]
fn replaying_the_same_trace_twice_gives_identical_counters() {
    let ids = gen::zipf_ids(60_000, 6000, 0.9, 3);
    let mut bytes = Vec::new();
    gen::write_oracle_general(&mut bytes, &ids, true).unwrap();
    let opts = options(&Policy::ALL, 1500);
    let a = replay_bytes(&bytes, &opts, 1 << 16).unwrap();
    let b = replay_bytes(&bytes, &opts, 1000).unwrap();
    assert_eq!(a, b, "same trace, other chunking: identical report, counters and samples");
    for r in &a.results {
        assert_eq!(r.accesses, 60_000);
        assert!(r.misses > r.cold_misses && r.counters["pgsteal_direct"] > 0, "{:?} reclaimed", r.policy);
    }
    // Each policy alone gives what it gave side by side.
    for p in Policy::ALL {
        let alone = replay_bytes(&bytes, &options(&[p], 1500), 1 << 20).unwrap();
        assert_eq!(&alone.results[0], a.results.iter().find(|r| r.policy == p).unwrap());
    }
}

#[test]
fn every_policy_keeps_the_engine_invariants_and_reclaims_only_at_the_memcg_limit() {
    let ids = gen::zipf_ids(30_000, 3000, 0.7, 5);
    let mut bytes = Vec::new();
    gen::write_csv(&mut bytes, &ids, false).unwrap();
    for p in Policy::ALL {
        let mut s = Session::new(&options(&[p], 700)).unwrap();
        for c in bytes.chunks(5000) {
            s.push(c).unwrap();
        }
        s.finish().unwrap();
        let rp = &s.replayers()[0];
        let sim = rp.sim();
        sim.check_invariants().unwrap_or_else(|e| panic!("{p:?}: {e}"));
        assert!(rp.resident() <= 700 && rp.resident() >= 700 - 64, "{p:?}: {} resident", rp.resident());
        let v = &sim.mm.vmstat;
        assert_eq!(v.get(Item::PgscanKswapd) + v.get(Item::AllocstallNormal), 0, "{p:?}: global reclaim ran");
        assert!(rp.events_max() > 0);
    }
}

#[test]
fn s3fifo_resists_a_scan_that_flushes_exact_lru() {
    // A hot set of 300 pages, read over and over, with one-time scans of
    // fresh pages in between: LRU lets each scan push the hot set out,
    // S3-FIFO keeps it in its main queue.
    let mut ids = Vec::new();
    let mut fresh = 10_000u64;
    for round in 0..40 {
        for i in 0..300u64 {
            ids.push((i * 37 + round) % 300);
        }
        for _ in 0..600 {
            ids.push(fresh);
            fresh += 1;
        }
    }
    let bytes = ids_csv(&ids);
    let lru = misses(&bytes, Policy::Lru, 512);
    let s3 = misses(&bytes, Policy::S3fifo, 512);
    assert!(s3 + 5000 < lru, "s3fifo {s3} misses, lru {lru}");
}

#[test]
fn objects_larger_than_a_page_read_all_their_pages_with_object_pages() {
    let text = "0,1,10000\n0,2,4096\n0,1,10000\n";
    let mut opts = options(&[Policy::Lru], 100);
    opts.object_pages = true;
    let r = replay_bytes(text.as_bytes(), &opts, 5).unwrap();
    assert_eq!((r.results[0].accesses, r.results[0].misses), (7, 4), "3 + 1 + 3 pages; the second read of object 1 hits");
    assert_eq!(r.trace.pages, 4);
    let r = replay_bytes(text.as_bytes(), &options(&[Policy::Lru], 100), 5).unwrap();
    assert_eq!((r.results[0].accesses, r.results[0].misses), (3, 2));
}

#[test]
fn samples_are_evenly_spaced_and_end_at_the_last_access() {
    let ids: Vec<u64> = (0..10_007u64).map(|i| (i * 7) % 997).collect();
    let r = replay_bytes(&ids_csv(&ids), &options(&[Policy::Mglru], 300), 4096).unwrap();
    let s = &r.results[0].samples;
    assert!(s.len() > 500 && s.len() <= 1025, "{} samples", s.len());
    let step = s[0].accesses;
    assert!(s.windows(2).take(s.len() - 2).all(|w| w[1].accesses - w[0].accesses == step));
    assert_eq!(s.last().unwrap().accesses, 10_007);
    assert_eq!(s.last().unwrap().misses, r.results[0].misses);
    assert!(s.windows(2).all(|w| w[1].misses >= w[0].misses));
}

#[test]
fn bad_options_and_empty_traces_are_errors() {
    assert!(Session::new(&options(&[], 10)).is_err());
    assert!(Session::new(&options(&[Policy::Lru, Policy::Lru], 10)).is_err());
    assert!(Session::new(&options(&[Policy::Lru], 0)).is_err());
    let e = replay_bytes(b"time,obj_id\n", &options(&[Policy::Lru], 10), 10).unwrap_err();
    assert_eq!(e.to_string(), "the trace holds no requests");
}

/// The baselines also run whole scenarios (anon memory that swaps, dirty
/// page cache, mmap, the flusher): every reader op of mglru-basic, under
/// each baseline, keeps the invariants, reclaims, and finishes.
#[test]
fn baselines_run_whole_scenarios_with_swap_and_dirty_pages() {
    use reclaim_core::mm::policy::Baseline;
    use reclaim_core::scenario;
    use reclaim_core::sim::Simulation;
    use reclaim_core::view::ScenarioRequest;
    for b in Baseline::ALL {
        for op in 0..4 {
            let params = [("reader_op", f64::from(op)), ("memory_max", 512.0), ("file_pages", 2048.0), ("anon_pages", 700.0)];
            let req = ScenarioRequest { name: "mglru-basic".into(), seed: 3, params: params.iter().map(|(k, v)| (k.to_string(), *v)).collect(), variant: None };
            let mut s = scenario::build(&req).unwrap();
            s.knobs.lru_gen_enabled = false;
            s.knobs.baseline = Some(b);
            let mut sim = Simulation::new(s).unwrap();
            for step in 0..80 {
                sim.step();
                if step % 10 == 9 {
                    sim.check_invariants().unwrap_or_else(|e| panic!("{b:?} reader_op {op} step {step}: {e}"));
                }
            }
            let job = &sim.mm.memcgs[1];
            assert!(job.stat.get(Item::PgstealDirect) > 0, "{b:?} reader_op {op}: nothing reclaimed");
            assert!(job.usage <= 512);
        }
    }
}

#[test]
fn ids_beyond_the_direct_range_are_numbered_without_losing_earlier_pages() {
    // Small ids first (used as page numbers), then 64-bit ids (the map
    // switches to dense numbering while earlier pages are still queued).
    let text = "1\n2\n3\n1\n18446744073709551615\n1\n2\n4194304\n18446744073709551615\n3\n";
    let r = replay_bytes(text.as_bytes(), &options(&[Policy::Lru, Policy::Mglru], 100), 3).unwrap();
    for p in &r.results {
        assert_eq!((p.accesses, p.misses, p.cold_misses), (10, 5, 5), "{:?}", p.policy);
    }
    assert_eq!(r.trace.pages, 5);
    // Scrambling a trace's ids changes which page each id gets, nothing else.
    let ids = gen::zipf_ids(20_000, 3000, 0.8, 9);
    let (mut plain, mut scrambled) = (Vec::new(), Vec::new());
    gen::write_oracle_general(&mut plain, &ids, false).unwrap();
    gen::write_oracle_general(&mut scrambled, &ids, true).unwrap();
    let opts = options(&Policy::ALL, 800);
    assert_eq!(replay_bytes(&plain, &opts, 1 << 16).unwrap().results, replay_bytes(&scrambled, &opts, 1 << 16).unwrap().results);
}
