#!/usr/bin/env python3
"""Helpers of bench/jfr-feeds.sh (standard library only).

  measure.py window OUT_CSV PAUSES_CSV SECONDS key=value...
      One measurement window over a running lab (and daemon): snapshot, SECONDS of sampling once a
      second, snapshot, then one row appended to OUT_CSV and the window's safepoint pauses to
      PAUSES_CSV. Keys: workload mode round attach_s lab_pid lab_log safepoint_log and, with a
      daemon, daemon_pid http_port jmx_port.
  measure.py summary OUT_CSV PAUSES_CSV
      Median lines per workload and mode, ratios to the same JDK's baseline and JMX-only modes.

Figures of a window:
  target_cpu_s_per_min   utime+stime of the lab from /proc/<pid>/stat, per minute of window
  ops_per_s              the lab's own throughput where it prints one (LAB throughput, bench)
  jfr_sp_per_min, jfr_sp_ms_per_min, jfr_sp_ms_max
                         safepoint operations named JFR* (JFRCheckpoint: a chunk rotation) from
                         -Xlog:safepoint, JDK 11 ("Entering safepoint region: X" then "Total time
                         for which application threads were stopped: S seconds") or 17+
                         ("Safepoint "X", ... Total: N ns")
  stopped_ms_per_min     every safepoint pause of the window (GC, cleanup, JFR, ...)
  lag_mean_s             mean lag of the events handled in the window (jvm_sentinel_jfr_lag_seconds
                         sum and count, differences)
  lag_now_p50_s, lag_now_max_s
                         jvm_sentinel_jfr_lag_current_seconds sampled once a second
  lag_timer_max_s        jvm_sentinel_jfr_lag_seconds_max at the end (decays over minutes)
  events_per_s           JFR events handled per second (the lag timer's count)
  starts_3s_max          the highest jdk.ThreadStart hand-out rate over 3 s (the window of the
                         daemon's stack-sampling rate): how smoothly events reach the handlers
  stack_sampling         jvm_sentinel_jfr_stack_sampling at the end (1: the rate went above 200/s)
  reads_per_min, chunk_kb
                         chunks completed in the target's JFR repository (<tmpdir>/<date>_<pid>)
                         during the window (one per read of a chunk feed) and their median size
  wire_kb_per_min        bytes the daemon received on its connections to the target's JMX port
                         (ss -ti bytes_received, sampled each second so closed sockets count)
  daemon_cpu_s_per_min, daemon_rss_mb
"""
import csv
import glob
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request

FIELDS = [
    "workload", "mode", "round", "window_s", "attach_s", "target_cpu_s_per_min", "ops_per_s",
    "jfr_sp_per_min", "jfr_sp_ms_per_min", "jfr_sp_ms_max", "stopped_ms_per_min",
    "lag_mean_s", "lag_now_p50_s", "lag_now_max_s", "lag_timer_max_s", "events_per_s",
    "dropped", "stack_sampling", "starts_3s_max", "reads_per_min", "chunk_kb", "wire_kb_per_min",
    "daemon_cpu_s_per_min", "daemon_rss_mb", "load1",
]
TICK = os.sysconf("SC_CLK_TCK")
METRIC = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)")


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except OSError:
        return math.nan


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return math.nan


def scrape(port):
    """Sums per metric name over all its series; {} when unreachable."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=3) as r:
            text = r.read().decode()
    except OSError:
        return {}
    sums = {}
    for line in text.splitlines():
        m = METRIC.match(line)
        if m and not line.startswith("#"):
            try:
                v = float(m.group(3))
            except ValueError:
                continue
            if not math.isnan(v):
                sums[m.group(1)] = sums.get(m.group(1), 0.0) + v
                if m.group(1) == "jvm_sentinel_jfr_events_total" and 'event="jdk.ThreadStart"' in (
                        m.group(2) or ""):
                    sums["thread_starts"] = v
    return sums


def socket_bytes(jmx_port):
    """bytes_received per local socket connected to the JMX port (the daemon's side)."""
    try:
        out = subprocess.run(
            ["ss", "-tinH", "state", "established", f"dport = :{jmx_port}"],
            capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    result = {}
    local = None
    for line in out.splitlines():
        if not line.startswith((" ", "\t")):
            parts = line.split()
            local = parts[2] if len(parts) >= 4 else None
        elif local:
            m = re.search(r"bytes_received:(\d+)", line)
            result[local] = int(m.group(1)) if m else 0
    return result


def chunks(lab_pid):
    """Completed chunks of the target's repository: {name: size}; the newest is still written."""
    files = []
    for directory in glob.glob(f"/tmp/2*_{lab_pid}"):
        for path in glob.glob(os.path.join(directory, "*.jfr")):
            try:
                files.append((os.path.basename(path), os.path.getsize(path)))
            except OSError:
                pass
    files.sort()
    return dict(files[:-1])


def snapshot(a):
    s = {"t": time.time(), "lab_cpu": cpu_seconds(a["lab_pid"]), "chunks": chunks(a["lab_pid"])}
    try:
        s["sp_offset"] = os.path.getsize(a["safepoint_log"])
    except OSError:
        s["sp_offset"] = 0
    with open(a["lab_log"], errors="replace") as f:
        s["lab_lines"] = sum(1 for _ in f)
    if a.get("daemon_pid"):
        s["daemon_cpu"] = cpu_seconds(a["daemon_pid"])
        s["metrics"] = scrape(a["http_port"])
    return s


def safepoints(path, start, end):
    """(name, ms) of every pause logged between two offsets of a -Xlog:safepoint file."""
    try:
        with open(path, "rb") as f:
            f.seek(start)
            text = f.read(max(0, end - start)).decode(errors="replace")
    except OSError:
        return []
    pauses = []
    entering = None
    for line in text.splitlines():
        m = re.search(r'Safepoint "([^"]+)".*Total: (\d+) ns', line)  # JDK 17+
        if m:
            pauses.append((m.group(1), int(m.group(2)) / 1e6))
            continue
        m = re.search(r"Entering safepoint region: (\S+)", line)  # JDK 9-15
        if m:
            entering = m.group(1)
            continue
        m = re.search(r"Total time for which application threads were stopped: ([\d.]+) seconds", line)
        if m:
            pauses.append((entering or "?", float(m.group(1)) * 1e3))
            entering = None
    return pauses


def throughput(path, start_line):
    ops = ms = 0
    with open(path, errors="replace") as f:
        for i, line in enumerate(f):
            if i < start_line or not line.startswith("LAB throughput"):
                continue
            kv = dict(p.split("=", 1) for p in line.split()[2:] if "=" in p)
            ops += int(kv.get("ops", 0))
            ms += int(kv.get("interval_ms", 0))
    return ops * 1000 / ms if ms else math.nan


def window(out_csv, pauses_csv, seconds, args):
    a = dict(kv.split("=", 1) for kv in args)
    daemon = bool(a.get("daemon_pid"))
    first = snapshot(a)
    lag_now = []
    starts = []  # (time, jdk.ThreadStart events handled)
    wire_first, wire_last = {}, {}
    sample = 0
    while True:
        if daemon:
            sockets = socket_bytes(a["jmx_port"])
            for local, received in sockets.items():
                # A connection opened during the window counts from zero.
                wire_first.setdefault(local, received if sample == 0 else 0)
                wire_last[local] = received
            metrics = scrape(a["http_port"])
            lag = metrics.get("jvm_sentinel_jfr_lag_current_seconds")
            if lag is not None:
                lag_now.append(lag)
            if "thread_starts" in metrics:
                starts.append((time.time(), metrics["thread_starts"]))
        sample += 1
        due = first["t"] + sample
        if due > first["t"] + seconds + 0.01:
            break
        time.sleep(max(0, due - time.time()))
    last = snapshot(a)
    span = last["t"] - first["t"]
    per_min = 60 / span
    pauses = safepoints(a["safepoint_log"], first["sp_offset"], last["sp_offset"])
    jfr = [ms for name, ms in pauses if name.upper().startswith("JFR")]
    new_chunks = [size for name, size in last["chunks"].items() if name not in first["chunks"]]
    row = {
        "workload": a["workload"], "mode": a["mode"], "round": a["round"],
        "window_s": round(span, 2), "attach_s": a.get("attach_s", ""),
        "target_cpu_s_per_min": round((last["lab_cpu"] - first["lab_cpu"]) * per_min, 3),
        "ops_per_s": fmt(throughput(a["lab_log"], first["lab_lines"]), 1),
        "jfr_sp_per_min": round(len(jfr) * per_min, 2),
        "jfr_sp_ms_per_min": round(sum(jfr) * per_min, 3),
        "jfr_sp_ms_max": round(max(jfr), 3) if jfr else "",
        "stopped_ms_per_min": round(sum(ms for _, ms in pauses) * per_min, 3),
        "reads_per_min": round(len(new_chunks) * per_min, 2) if daemon else "",
        "chunk_kb": fmt(statistics.median(new_chunks) / 1024, 1) if new_chunks else "",
        "load1": open("/proc/loadavg").read().split()[0],
    }
    if daemon:
        m0, m1 = first["metrics"], last["metrics"]
        count = m1.get("jvm_sentinel_jfr_lag_seconds_count", 0) - m0.get(
            "jvm_sentinel_jfr_lag_seconds_count", 0)
        total = m1.get("jvm_sentinel_jfr_lag_seconds_sum", 0) - m0.get(
            "jvm_sentinel_jfr_lag_seconds_sum", 0)
        wire = sum(wire_last[k] - wire_first[k] for k in wire_last)
        row.update({
            "lag_mean_s": fmt(total / count, 3) if count > 0 else "",
            "lag_now_p50_s": fmt(statistics.median(lag_now), 3) if lag_now else "",
            "lag_now_max_s": fmt(max(lag_now), 3) if lag_now else "",
            "lag_timer_max_s": fmt(m1.get("jvm_sentinel_jfr_lag_seconds_max", math.nan), 3),
            "events_per_s": round(count / span, 1),
            "dropped": int(m1.get("jvm_sentinel_jfr_events_dropped_total", 0)),
            "stack_sampling": int(m1.get("jvm_sentinel_jfr_stack_sampling", 0)),
            "starts_3s_max": fmt(burst(starts, 3), 1),
            "wire_kb_per_min": round(wire / 1024 * per_min, 1),
            "daemon_cpu_s_per_min": round((last["daemon_cpu"] - first["daemon_cpu"]) * per_min, 3),
            "daemon_rss_mb": fmt(rss_mb(a["daemon_pid"]), 0),
        })
    new_file = not os.path.exists(out_csv) or os.path.getsize(out_csv) == 0
    with open(out_csv, "a", newline="") as f:
        w = csv.DictWriter(f, FIELDS, restval="")
        if new_file:
            w.writeheader()
        w.writerow(row)
    new_file = not os.path.exists(pauses_csv) or os.path.getsize(pauses_csv) == 0
    with open(pauses_csv, "a", newline="") as f:
        w = csv.writer(f)
        if new_file:
            w.writerow(["workload", "mode", "round", "operation", "ms"])
        for name, ms in pauses:
            w.writerow([a["workload"], a["mode"], a["round"], name, round(ms, 4)])
    print(" ".join(f"{k}={row.get(k, '')}" for k in FIELDS[3:] if row.get(k, "") != ""))


def burst(samples, seconds):
    """The highest rate over any `seconds` of the samples: how bursty the hand-out is."""
    best = None
    for i, (t, n) in enumerate(samples):
        for t0, n0 in reversed(samples[:i]):
            if t - t0 >= seconds - 0.2:
                rate = (n - n0) / (t - t0)
                best = rate if best is None else max(best, rate)
                break
    return math.nan if best is None else best


def fmt(v, digits):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else round(v, digits)


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def median(rows, key):
    values = [v for v in (num(r.get(key)) for r in rows) if v is not None]
    return statistics.median(values) if values else None


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(p / 100 * len(values)) - 1))]


def summary(out_csv, pauses_csv):
    with open(out_csv) as f:
        rows = list(csv.DictReader(f))
    pauses = []
    if os.path.exists(pauses_csv):
        with open(pauses_csv) as f:
            pauses = list(csv.DictReader(f))
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    modes = list(dict.fromkeys(r["mode"] for r in rows))
    modes.sort(key=lambda m: (m.split("-")[0], ["none", "jmx", "stream", "chunks"].index(
        m.split("-")[1]) if m.split("-")[1] in ("none", "jmx", "stream", "chunks") else 9, m))
    for w in workloads:
        group = {m: [r for r in rows if r["workload"] == w and r["mode"] == m] for m in modes}
        for m in modes:
            rs = group[m]
            if not rs:
                continue
            jdk = m.split("-")[0]
            med = {k: median(rs, k) for k in FIELDS[3:]}
            none = median(group.get(f"{jdk}-none", []), "target_cpu_s_per_min")
            jmx = median(group.get(f"{jdk}-jmx", []), "target_cpu_s_per_min")
            ops_none = median(group.get(f"{jdk}-none", []), "ops_per_s")
            wire_jmx = median(group.get(f"{jdk}-jmx", []), "wire_kb_per_min")
            # Paired by round: the same round ran both modes minutes apart.
            jmx_by_round = {r["round"]: num(r["target_cpu_s_per_min"])
                            for r in group.get(f"{jdk}-jmx", [])}
            extra = [num(r["target_cpu_s_per_min"]) - jmx_by_round[r["round"]] for r in rs
                     if r["round"] in jmx_by_round and num(r["target_cpu_s_per_min"]) is not None]
            jfr = [float(p["ms"]) for p in pauses if p["workload"] == w and p["mode"] == m
                   and p["operation"].upper().startswith("JFR")]
            cpu = med["target_cpu_s_per_min"]
            out = {
                "rounds": len(rs),
                "target_cpu_s_per_min": cpu,
                "cpu_ratio_to_none": cpu / none if cpu and none else None,
                "cpu_ratio_to_jmx": cpu / jmx if cpu and jmx else None,
                "cpu_s_per_min_over_jmx": statistics.median(extra) if extra else None,
                "ops_per_s": med["ops_per_s"],
                "ops_ratio_to_none": med["ops_per_s"] / ops_none
                if med["ops_per_s"] and ops_none else None,
                "jfr_sp_per_min": med["jfr_sp_per_min"],
                "jfr_sp_ms_per_min": med["jfr_sp_ms_per_min"],
                "jfr_sp_ms_p50": percentile(jfr, 50),
                "jfr_sp_ms_p99": percentile(jfr, 99),
                "jfr_sp_ms_max": max(jfr) if jfr else None,
                "stopped_ms_per_min": med["stopped_ms_per_min"],
                "lag_mean_s": med["lag_mean_s"],
                "lag_now_p50_s": med["lag_now_p50_s"],
                "lag_now_max_s": med["lag_now_max_s"],
                "events_per_s": med["events_per_s"],
                "reads_per_min": med["reads_per_min"],
                "chunk_kb": med["chunk_kb"],
                "wire_kb_per_min": med["wire_kb_per_min"],
                "kb_per_read_over_jmx": (med["wire_kb_per_min"] - wire_jmx) / med["reads_per_min"]
                if med["wire_kb_per_min"] is not None and wire_jmx is not None
                and med["reads_per_min"] else None,
                "daemon_cpu_s_per_min": med["daemon_cpu_s_per_min"],
                "daemon_rss_mb": med["daemon_rss_mb"],
                "starts_3s_max": med["starts_3s_max"],
                "stack_sampling_rounds": sum(1 for r in rs if num(r["stack_sampling"]) == 1)
                if med["stack_sampling"] is not None else None,
                "dropped": med["dropped"],
                "attach_s": med["attach_s"],
            }
            print(f"median {w:<8} {m:<13} " + " ".join(
                f"{k}={show(v)}" for k, v in out.items() if v is not None))


def show(v):
    if isinstance(v, int):
        return str(v)
    return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"


if __name__ == "__main__":
    if sys.argv[1] == "window":
        window(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5:])
    elif sys.argv[1] == "summary":
        summary(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
