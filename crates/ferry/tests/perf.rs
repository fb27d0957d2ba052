//! `ferry perf` end to end, through the real binary: every workload briefly against a queue
//! manager it hosts and against a running `ferry qm start` server (unix and tcp), checking the
//! JSON report is complete and self-consistent; the raw limits; a sweep with its SLA stop and
//! charts; a comparison with a baseline.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Server;
use serde_json::Value;

fn ferry() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ferry"))
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ferry-perf-it-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `ferry perf ARGS --json FILE` briefly and returns the report.
fn perf(dir: &Path, name: &str, args: &[&str]) -> Value {
    let json = dir.join(format!("{name}.json"));
    let lines = dir.join(format!("{name}.jsonl"));
    let out = ferry()
        .arg("perf")
        .args(args)
        .args([
            "-d",
            "0.6s",
            "--warmup",
            "0.2s",
            "--interval",
            "0.2s",
            "--json",
        ])
        .arg(&json)
        .arg("--json-lines")
        .arg(&lines)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "ferry perf {args:?} failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("latency: p50"), "no summary: {stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("cpu a ") && l.contains(" µs")),
        "CPU an operation in the summary: {stdout}"
    );
    let interval_lines = std::fs::read_to_string(&lines).unwrap();
    assert!(
        interval_lines.lines().count() >= 2,
        "one JSON line per interval: {interval_lines}"
    );
    for l in interval_lines.lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        assert!(v["rate_per_s"].is_number() && v["latency"]["p99_us"].is_number());
    }
    serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
}

fn n(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The report carries every documented field, and its figures agree with each other.
fn check(r: &Value, workload: &str, mode: &str) {
    assert_eq!(r["format"], 1);
    assert_eq!(r["workload"], workload);
    assert_eq!(r["queue_manager"]["mode"], mode, "{r}");
    for f in [
        "parameters",
        "hardware",
        "git_commit",
        "started_unix_s",
        "queue_manager",
        "limits",
        "results",
    ] {
        assert!(r.get(f).is_some(), "report lacks {f}: {r}");
    }
    assert!(n(&r["hardware"]["cores"]) >= 1.0);
    assert!(n(&r["hardware"]["memory_bytes"]) > 0.0);
    assert!(n(&r["parameters"]["duration"]) > 0.5);
    let res = &r["results"];
    let ops = n(&res["operations"]);
    assert!(ops > 0.0, "{workload} over {mode} did nothing: {res}");
    let rate = n(&res["rate_per_s"]);
    let secs = n(&res["seconds"]);
    assert!(
        (rate - ops / secs).abs() <= rate * 1e-6 + 1e-6,
        "rate = operations / seconds: {res}"
    );
    let lat = &res["latency"];
    assert!(n(&lat["count"]) > 0.0 && n(&lat["count"]) <= ops);
    assert!(n(&lat["p50_us"]) <= n(&lat["p90_us"]));
    assert!(n(&lat["p90_us"]) <= n(&lat["p99_us"]));
    assert!(n(&lat["p99_us"]) <= n(&lat["p999_us"]));
    assert!(n(&lat["p999_us"]) <= n(&lat["max_us"]));
    assert!(!res["intervals"].as_array().unwrap().is_empty());
    assert!(n(&res["harness_cpu_pct"]) > 0.0);
    let (put, got) = (n(&res["messages_put"]), n(&res["messages_got"]));
    match workload {
        // Every request was answered and every message put was got back.
        "putget" | "rr" => assert_eq!(put, got, "{res}"),
        // Asynchronous puts refused for a full queue are taken back from the count.
        "put" => assert!(put + n(&res["errors"]) >= ops, "{res}"),
        "get" => assert!(got >= ops, "{res}"),
        // Everything drained had been fed and forwarded.
        "forward" => assert!(got <= put && got >= ops * 0.5, "{res}"),
        // Subscribers got copies of what was published (at most one per subscriber each), at
        // the rate the report says.
        "publish" => {
            let subs = n(&r["parameters"]["subscribers"]).max(1.0)
                * if r["parameters"]["triplets"] == true {
                    n(&r["parameters"]["threads"])
                } else {
                    1.0
                };
            assert!(got > 0.0 && got <= put * subs, "{res}");
            assert!(n(&res["deliveries_per_s"]) > 0.0, "{res}");
        }
        _ => unreachable!(),
    }
}

#[test]
fn every_workload_reports_completely_against_a_hosted_queue_manager() {
    let dir = scratch("hosted");
    for (w, extra) in [
        ("put", vec!["--helpers", "1"]),
        ("get", vec!["--helpers", "1"]),
        ("putget", vec![]),
        ("rr", vec!["--responders", "4"]),
        ("forward", vec![]),
        (
            "publish",
            vec!["--subscribers", "3", "--selector", "region = 'EMEA'"],
        ),
        (
            "publish",
            vec!["--subscribers", "1", "--triplets", "--durable"],
        ),
    ] {
        let mut args = vec![w, "-t", "2"];
        args.extend(extra);
        let r = perf(&dir, w, &args);
        check(&r, w, "embedded");
        assert!(r["queue_manager"]["config"]["qmgr"]["name"].is_string());
        assert!(n(&r["results"]["qm_cpu_pct"]) > 0.0);
    }
    // Persistent, in syncpoint, with put1 and a target rate.
    let r = perf(
        &dir,
        "persistent",
        &[
            "put",
            "--persistent",
            "--syncpoint",
            "--commit-count",
            "5",
            "--put1",
            "--rate",
            "500",
            "--helpers",
            "1",
            "--qm-set",
            "log.buffer_kib=256",
        ],
    );
    check(&r, "put", "embedded");
    // A hosted queue manager's settings from the command line reach its qm.toml.
    assert_eq!(
        r["queue_manager"]["config"]["log"]["buffer_kib"], 256,
        "{}",
        r["queue_manager"]
    );
    let rate = n(&r["results"]["rate_per_s"]);
    assert!(
        rate < 700.0,
        "a rated run stays near its target (500/s): {rate}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn workloads_report_completely_against_a_server_over_unix_and_tcp() {
    let server = Server::start("perf", &[]);
    let dir = scratch("server");
    // Every workload over the local socket; the call-heavy ones over tcp too.
    for (w, extra) in [
        ("put", vec!["--async-put", "--helpers", "1"]),
        ("get", vec!["--helpers", "1"]),
        ("putget", vec!["-t", "2"]),
        ("rr", vec!["-t", "2"]),
        (
            "forward",
            vec!["--persistent", "--syncpoint", "--commit-count", "4"],
        ),
        (
            "publish",
            vec!["--async-put", "--read-ahead", "--subscribers", "2"],
        ),
    ] {
        let mut args = vec![w, "-c", &server.unix];
        args.extend(extra);
        let r = perf(&dir, &format!("{w}-unix"), &args);
        check(&r, w, "unix");
    }
    // rr with the async client (requesters and responders as tasks), then three conversations
    // a socket (SHARECNV) with the async client and with the blocking client's threads
    // (ClientOptions::share_conversations): every request answered.
    let tcp = server.tcp.as_str();
    for (name, extra, async_client, share) in [
        (
            "rr-async-tcp",
            &["--async-client", "--async-put"][..],
            true,
            1,
        ),
        (
            "rr-async-shared",
            &["--async-client", "--share-conv", "3"][..],
            true,
            3,
        ),
        ("rr-blocking-shared", &["--share-conv", "3"][..], false, 3),
    ] {
        let args = [&["rr", "-c", tcp, "-t", "4"][..], extra].concat();
        let r = perf(&dir, name, &args);
        check(&r, "rr", "tcp");
        assert_eq!(r["parameters"]["async_client"], async_client, "{name}");
        assert_eq!(r["parameters"]["share_conv"], share, "{name}");
        assert!(n(&r["results"]["rate_per_s"]) > 0.0, "{}", r["results"]);
        assert_eq!(r["results"]["messages_put"], r["results"]["messages_got"]);
    }
    // What a workload cannot do is refused with the reason.
    for (args, why) in [
        (
            &["perf", "put", "-c", tcp, "--share-conv", "3"][..],
            "--share-conv 3 shares sockets between rr's",
        ),
        (
            &["perf", "get", "-c", &server.unix, "--async-client"][..],
            "--async-client runs put, rr and publish",
        ),
    ] {
        let out = ferry().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(why), "{err}");
    }
    for w in ["putget", "rr"] {
        let r = perf(
            &dir,
            &format!("{w}-tcp"),
            &[w, "-c", &server.tcp, "-t", "2"],
        );
        check(&r, w, "tcp");
    }
    // --async-put is the benches' async-client ladder: read-ahead getters, every message got;
    // --blocking-client keeps the threads, and --async-client cannot do --put1.
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("put-unix.json")).unwrap()).unwrap();
    assert_eq!(r["parameters"]["async_client"], true, "{}", r["parameters"]);
    assert_eq!(r["parameters"]["read_ahead"], true);
    assert_eq!(r["results"]["messages_put"], r["results"]["messages_got"]);
    let blocking = ["put", "-c", &server.unix, "--async-put", "--helpers", "1"];
    let r = perf(
        &dir,
        "put-blocking",
        &[&blocking[..], &["--blocking-client"]].concat(),
    );
    assert_eq!(r["parameters"]["async_client"], false);
    let out = ferry()
        .args([
            "perf",
            "put",
            "-c",
            &server.unix,
            "--async-client",
            "--put1",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("without --put1"),
        "{err}"
    );
    // Over the local socket the queue manager's process is found from its directory.
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("putget-unix.json")).unwrap())
            .unwrap();
    assert!(n(&r["results"]["qm_cpu_pct"]) > 0.0, "{}", r["results"]);
    assert!(n(&r["results"]["qm_rss_peak_bytes"]) > 0.0);
    assert!(r["queue_manager"]["pid"].is_number());
    // The queues the runs made on the running queue manager are gone with their messages.
    let mut c = ferry_client::Connection::connect(&server.unix, "perf-test").unwrap();
    let shown = c.admin("DISPLAY QUEUE(PERF.*)").unwrap();
    assert!(
        shown[0].messages.iter().all(|m| m.fields.is_empty()),
        "left behind: {shown:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn limits_sweeps_and_comparisons() {
    let dir = scratch("sweep");
    // Raw limits.
    let json = dir.join("limits.json");
    let out = ferry()
        .args(["perf", "limits", "-d", "0.2s", "--dir"])
        .arg(&dir)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let l: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for f in [
        "handoff_per_s",
        "unix_pingpong_per_s",
        "tcp_pingpong_per_s",
        "unix_stream_per_s",
        "tcp_stream_per_s",
        "unix_relay_per_s",
        "tcp_relay_per_s",
        "disk_syncs_per_s",
    ] {
        assert!(n(&l[f]) > 0.0, "{f}: {l}");
    }
    // A sweep whose SLA (at least 1,000,000,000 operations per second) every step breaks:
    // it stops after the first step, and no step is best.
    let json = dir.join("broken.json");
    let out = ferry()
        .args([
            "perf",
            "sweep",
            "putget",
            "--vary",
            "threads=1,2",
            "--sla",
            "rate>=1000000000",
            "-d",
            "0.3s",
            "--warmup",
            "0.1s",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        s["steps"].as_array().unwrap().len(),
        1,
        "stopped at the first breach"
    );
    assert!(s["best"].is_null());
    // A sweep that keeps its SLA: every step runs, the best is named, charts are drawn.
    let json = dir.join("sweep.json");
    let charts = dir.join("charts");
    let out = ferry()
        .args([
            "perf",
            "sweep",
            "putget",
            "--vary",
            "threads=1,2",
            "--repeat",
            "2",
            "--sla",
            "p99<=10s",
            "-d",
            "0.3s",
            "--warmup",
            "0.1s",
            "--json",
        ])
        .arg(&json)
        .arg("--charts")
        .arg(&charts)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("best within the SLA: threads = "),
        "{stdout}"
    );
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(s["steps"].as_array().unwrap().len(), 2);
    assert_eq!(s["steps"][0]["rates"].as_array().unwrap().len(), 2);
    assert!(s["best"].is_string());
    for c in ["throughput", "cpu", "latency"] {
        let svg = std::fs::read_to_string(charts.join(format!("{c}.svg"))).unwrap();
        assert!(svg.contains("<svg"), "{c}.svg");
        let png = std::fs::read(charts.join(format!("{c}.png"))).unwrap();
        assert_eq!(&png[..4], b"\x89PNG", "{c}.png");
    }
    // Comparing a report with itself: no change is beyond the noise.
    let base = dir.join("sweep.json");
    let out = ferry()
        .args(["perf", "compare"])
        .arg(&base)
        .arg(&base)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("rate per s") && !text.contains("beyond the noise"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A saved `perf wan` report (docs/perf's) draws its charts: one per size and COMPMSG.
#[test]
fn a_wan_report_draws_its_charts() {
    let dir = scratch("wancharts");
    let report = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/perf/wan-2026-11-27.json");
    let out = ferry()
        .args(["perf", "chart"])
        .arg(&report)
        .arg("--charts")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    for name in [
        "wan-2048-none",
        "wan-204800-none",
        "wan-2048-lz4fast",
        "wan-204800-lz4fast",
    ] {
        let svg = std::fs::read_to_string(dir.join(format!("{name}.svg"))).unwrap();
        assert!(
            svg.contains("iperf3 BBR") && svg.contains("CUBIC x 10 channels"),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
