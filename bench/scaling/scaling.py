#!/usr/bin/env python3
"""How dsched's costs grow with the work, against bpftrace where it can express the same script.

  scaling.py DSCHED [--runs R] [--loops N] [--svg FILE] [--only keys,clauses,probes,size,printa]
             [--sizes 1000,10000,100000]

Curves (each a Markdown table on stdout; --svg also draws them):
  keys     per-event cost of @[k] = count() on sched_switch against the distinct keys (1 .. 1M)
  clauses  per-event cost against the clauses enabled on one probe (1, 10, 100)
  probes   start-up (to exit after the first tick) against the probes enabled (1 .. 1000)
  size     compile time and peak memory of `dsched -e` against script lines (--sizes; up to 1M)
  printa   time to print an aggregation of 1M keys at exit
Per-event cost is the time the tracer's BPF programs run per sched_switch while `perf bench sched
pipe -l N` runs pinned to CPU 0, from the kernel's BPF statistics (kernel.bpf_stats_enabled, on
for those curves only): far steadier on a shared machine than the load's CPU time. The tracers
alternate and each figure is a median. Needs root, perf; bpftrace is optional.
Standard library only.
"""
import os, re, shutil, signal, statistics, subprocess, sys, tempfile, time

DSCHED = None
HAVE_BPFTRACE = shutil.which("bpftrace") is not None
TMP = tempfile.mkdtemp(prefix="dsched-scaling-")


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def cpu_of(argv, cpu=None, timeout=None):
    """Runs argv to completion; returns (cpu seconds of it and its children, wall seconds, peak RSS MB)."""
    start = time.monotonic()
    pre = (lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=pre)
    while timeout is not None:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout:
            p.kill()
            p.wait()
            raise subprocess.TimeoutExpired(argv, timeout)
        time.sleep(0.05)
    else:
        _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError(" ".join(argv[:3]) + f"... exited {p.returncode}")
    return ru.ru_utime + ru.ru_stime, time.monotonic() - start, ru.ru_maxrss / 1024


class Tracer:
    """A tracer running in the background until stop(); ready once `marker` is printed."""

    def __init__(self, argv, marker, env=None):
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  env=dict(os.environ, **(env or {})))
        deadline = time.monotonic() + 120
        seen = b""
        while marker.encode() not in seen:
            line = self.p.stdout.readline()
            if not line or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{argv[0]}: no '{marker}': {seen[-300:]!r}")
            seen += line
        time.sleep(0.3)

    def stop(self):
        """SIGINT; returns the seconds until it exited, its output drained to nowhere."""
        start = time.monotonic()
        self.p.send_signal(signal.SIGINT)
        for _ in self.p.stdout:
            pass
        self.p.wait(timeout=600)
        return time.monotonic() - start


def program_time(pid):
    """ns the tracer's BPF programs ran per event: their total run time over the most runs of one
    (the hook's program), from the kernel's statistics in /proc/PID/fdinfo."""
    total, most = 0, 0
    fdinfo = f"/proc/{pid}/fdinfo"
    for fd in os.listdir(fdinfo):
        try:
            text = open(os.path.join(fdinfo, fd)).read()
        except OSError:
            continue
        t, n = re.search(r"run_time_ns:\s*(\d+)", text), re.search(r"run_cnt:\s*(\d+)", text)
        if t and n:
            total, most = total + int(t.group(1)), max(most, int(n.group(1)))
    return total / most if most else None


def per_event(tracers, loops, runs):
    """ns of BPF program time per sched_switch for each tracer (name -> (argv, marker, env)) while
    `perf bench sched pipe -l loops` runs, medians of runs; the tracers alternate."""
    added, failed = {name: [] for name in tracers}, {}
    for r in range(runs):
        order = list(tracers)
        order = order[r % len(order):] + order[:r % len(order)]
        for name in order:
            if failed.get(name):
                continue
            argv, marker, env = tracers[name]
            try:
                t = Tracer(argv, marker, env)
            except RuntimeError as e:  # reported once, its column left empty
                failed[name] = True
                print(f"{name} cannot run this script: {str(e)[-200:]}", file=sys.stderr)
                continue
            try:
                cpu_of(["perf", "bench", "sched", "pipe", "-l", str(loops)], 0)
                ns = program_time(t.p.pid)
                if ns is not None:
                    added[name].append(ns)
            finally:
                t.stop()
    return {name: statistics.median(v) if v else None for name, v in added.items()}


def with_bpf_stats(body):
    """Runs body() with the kernel's BPF run-time statistics on, then restores the setting."""
    path = "/proc/sys/kernel/bpf_stats_enabled"
    old = open(path).read().strip()
    with open(path, "w") as f:
        f.write("1")
    try:
        return body()
    finally:
        with open(path, "w") as f:
            f.write(old)


def dsched_argv(script, *options):
    return [DSCHED, *options, "-s", script]


def table(title, header, rows):
    print(f"\n### {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    sys.stdout.flush()


def fmt(v, digits=0):
    return "-" if v is None else f"{v:,.{digits}f}"


def curve_keys(o):
    points = []
    for n in (1, 100, 10_000, 1_000_000):
        d = write(f"keys{n}.d", f"sched:::on-cpu {{ @[timestamp % {n}] = count(); }}\n")
        opts = ["-x", f"aggsize={max(n, 1 << 14) * 16}"] if n > 10_000 else []
        tracers = {"dsched": (dsched_argv(d, *opts), "matched", None)}
        if HAVE_BPFTRACE:
            bt = write(f"keys{n}.bt", 'BEGIN { printf("attached\\n"); }\n'
                       f"tracepoint:sched:sched_switch {{ @[nsecs % {n}] = count(); }}\n")
            tracers["bpftrace"] = (["bpftrace", bt], "attached", {"BPFTRACE_MAP_KEYS_MAX": str(max(n, 4096))})
        r = with_bpf_stats(lambda: per_event(tracers, o["loops"], o["runs"]))
        points.append((n, r.get("dsched"), r.get("bpftrace")))
    table("Per-event cost against aggregation keys (ns of BPF program per sched_switch)",
          ["keys", "dsched ns", "bpftrace ns"], [[f"{n:,}", fmt(d), fmt(b)] for n, d, b in points])
    return "program time per event against keys (ns)", points


def curve_clauses(o):
    points = []
    for n in (1, 10, 100):
        # One aggregation: a BPF program may use at most 64 maps, so 100 aggregations on one probe
        # cannot load.
        d = write(f"clauses{n}.d", "".join(f"sched:::on-cpu {{ @[{i}] = count(); }}\n" for i in range(n)))
        tracers = {"dsched": (dsched_argv(d), "matched", None)}
        if HAVE_BPFTRACE:
            bt = write(f"clauses{n}.bt", 'BEGIN { printf("attached\\n"); }\n' + "".join(
                f"tracepoint:sched:sched_switch {{ @[{i}] = count(); }}\n" for i in range(n)))
            tracers["bpftrace"] = (["bpftrace", bt], "attached", None)
        r = with_bpf_stats(lambda: per_event(tracers, o["loops"], o["runs"]))
        points.append((n, r.get("dsched"), r.get("bpftrace")))
    table("Per-event cost against clauses on one probe (ns of BPF program per sched_switch)",
          ["clauses", "dsched ns", "bpftrace ns"], [[str(n), fmt(d), fmt(b)] for n, d, b in points])
    return "program time per event against clauses (ns)", points


def probe_names(description, count):
    out = subprocess.run([DSCHED, "-l", "-n", description], capture_output=True, text=True).stdout.splitlines()
    names = []
    for line in out[1:]:  # ID PROVIDER MODULE [FUNCTION] NAME
        f = line.split()
        if len(f) in (4, 5):
            names.append(":".join(f[1:5]) if len(f) == 5 else f"{f[1]}:{f[2]}::{f[3]}")
    return names[:count]


def curve_probes(o):
    points = []
    syscalls = probe_names("syscall:::entry", 1000)
    rawtps = probe_names("rawtp:::", 1000)
    for n in (1, 10, 100, 1000):
        probes = syscalls[:n] if n <= len(syscalls) else rawtps[:n]
        kind = "syscall entries" if n <= len(syscalls) else "raw tracepoints"
        d = write(f"probes{n}.d", ",\n".join(probes) + "\n{ @[probefunc] = count(); }\n"
                  'tick-1ms { printf("first tick\\n"); exit(0); }\n')
        ds = statistics.median(cpu_of([DSCHED, "-q", "-s", d])[1] for _ in range(o["runs"]))
        bt = None
        if HAVE_BPFTRACE and n <= 100:  # bpftrace attaches tracepoints one by one: 1000 take minutes
            prefix = ("tracepoint:syscalls:sys_enter_" if kind.startswith("syscall") else "rawtracepoint:")
            names = [p.split(":")[2] for p in probes]
            script = write(f"probes{n}.bt", ",\n".join(prefix + f for f in names) +
                           "\n{ @[probe] = count(); }\ninterval:ms:1 { exit(); }\n")
            try:
                bt = statistics.median(cpu_of(["bpftrace", script])[1] for _ in range(max(1, o["runs"] // 2)))
            except RuntimeError as e:  # a call without a tracepoint of its own
                print(f"bpftrace, {n} probes: {e}", file=sys.stderr)
        points.append((n, ds * 1e3, bt * 1e3 if bt else None, kind))
    table("Start-up against probes (ms from start to exit after the first tick)",
          ["probes", "kind", "dsched ms", "bpftrace ms"],
          [[f"{n:,}", k, fmt(d, 1), fmt(b, 1)] for n, d, b, k in points])
    return "start-up to exit against probes (ms)", [p[:3] for p in points]


def curve_size(o):
    """Clauses of six lines: all on BEGIN (one BPF program) or each on its own tick-Nms (one program each)."""
    shapes = {"one program": "BEGIN\n/x < {k}/\n{{\n  x = x + {k};\n}}\n\n",
              "a program per clause": "tick-{k}ms\n/x < {k}/\n{{\n  x = x + {k};\n}}\n\n"}
    rows, points = [], []
    for shape, clause in shapes.items():
        for lines in o["sizes"]:
            d = write(f"size{lines}.d", "int x;\n" + "".join(clause.format(k=k + 1) for k in range(lines // 6)))
            try:
                runs = [cpu_of([DSCHED, "-e", "-s", d], timeout=o["compile_timeout"])
                        for _ in range(o["runs"] if lines < 100_000 else 1)]
                t, m = statistics.median(r[1] for r in runs), statistics.median(r[2] for r in runs)
            except (RuntimeError, subprocess.TimeoutExpired):
                rows.append([shape, f"{lines:,}", f"> {o['compile_timeout']}", "-", "-"])
                break  # larger sizes of this shape take longer still
            rows.append([shape, f"{lines:,}", fmt(t, 3), fmt(t / lines * 1e6, 1), fmt(m, 1)])
            if shape == "a program per clause":
                points.append((lines, t, None))
            if t > o["compile_timeout"] / 10:
                break  # the next size (10x) would pass the time limit
    table("Compile time and memory against script size (`dsched -e`: parse, check, LLVM)",
          ["shape", "lines", "compile s", "µs per line", "peak RSS MB"], rows)
    return "compile time against script lines, a program per clause (s)", points


def curve_printa(o):
    n = 1_000_000
    # A sequence of lseek()s to distinct offsets fills one aggregation with n keys.
    load = ["python3", "-c", f"import os\nfd = os.open('/dev/null', os.O_RDONLY)\n"
            f"for i in range({n}): os.lseek(fd, i, 0)"]
    d = write("printa.d", "syscall::lseek:entry { @[arg1] = count(); }\n")
    rows = []
    tools = {"dsched": ([DSCHED, "-x", f"aggsize={n * 20}", "-s", d], "matched", None)}
    if HAVE_BPFTRACE:
        bt = write("printa.bt", 'BEGIN { printf("attached\\n"); }\n'
                   "tracepoint:syscalls:sys_enter_lseek { @[args->offset] = count(); }\n")
        tools["bpftrace"] = (["bpftrace", bt], "attached", {"BPFTRACE_MAP_KEYS_MAX": str(n + 100000)})
    for name, (argv, marker, env) in tools.items():
        times = []
        for _ in range(max(1, o["runs"] // 2)):
            t = Tracer(argv, marker, env)
            subprocess.run(load, check=True)
            times.append(t.stop())
        rows.append([name, fmt(statistics.median(times), 2)])
    table(f"Printing an aggregation of {n:,} keys at exit (s from SIGINT to exit)", ["tool", "seconds"], rows)


def svg(path, curves):
    """Small multiples, log-log, one panel per curve: dsched solid, bpftrace dashed."""
    w, h, pad = 330, 240, 46
    parts = []
    for i, (title, points) in enumerate(curves):
        x0, y0 = (i % 2) * (w + 20), (i // 2) * (h + 30)
        xs = [p[0] for p in points]
        ys = [v for p in points for v in p[1:3] if v and v > 0]
        if not ys:
            continue
        lx = lambda v: __import__("math").log10(v)
        xmin, xmax = lx(min(xs)), lx(max(xs)) or 1
        ymin, ymax = lx(min(ys)) - 0.1, lx(max(ys)) + 0.1
        px = lambda v: x0 + pad + (lx(v) - xmin) / ((xmax - xmin) or 1) * (w - pad - 10)
        py = lambda v: y0 + h - pad + 10 - (lx(v) - ymin) / ((ymax - ymin) or 1) * (h - pad - 10)
        parts.append(f'<text x="{x0 + 8}" y="{y0 + 14}" font-size="11">{title}</text>')
        parts.append(f'<rect x="{x0 + pad}" y="{y0 + 20}" width="{w - pad - 10}" height="{h - pad - 10 - 10}" '
                     'fill="none" stroke="#888"/>')
        for v in xs:
            parts.append(f'<text x="{px(v):.0f}" y="{y0 + h - pad + 24}" font-size="9" text-anchor="middle">{v:,}</text>')
        for v in (min(ys), max(ys)):
            parts.append(f'<text x="{x0 + pad - 4}" y="{py(v):.0f}" font-size="9" text-anchor="end">{v:,.3g}</text>')
        for column, style in ((1, ""), (2, ' stroke-dasharray="4 3"')):
            line = [(px(p[0]), py(p[column])) for p in points if p[column] and p[column] > 0]
            if len(line) > 1:
                coords = " ".join(f"{a:.1f},{b:.1f}" for a, b in line)
                parts.append(f'<polyline points="{coords}" fill="none" stroke="#{"1f77b4" if column == 1 else "d62728"}"'
                             f' stroke-width="1.5"{style}/>')
    rows = (len(curves) + 1) // 2
    legend = (f'<text x="8" y="{rows * (h + 30) + 4}" font-size="10">dsched: solid blue; bpftrace: dashed red; '
              'both axes logarithmic</text>')
    with open(path, "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w + 20}" height="{rows * (h + 30) + 12}" '
                f'font-family="sans-serif">\n' + "\n".join(parts) + "\n" + legend + "\n</svg>\n")


def main(argv):
    global DSCHED
    o = {"runs": 3, "loops": 50000, "svg": None, "only": "keys,clauses,probes,size,printa",
         "sizes": [1_000, 10_000, 100_000], "compile_timeout": 60}
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    DSCHED = os.path.abspath(args.pop(0))
    while args:
        flag, value = args.pop(0), args.pop(0) if args else None
        if flag in ("--runs", "--loops"):
            o[flag[2:]] = int(value)
        elif flag in ("--svg", "--only"):
            o[flag[2:]] = value
        elif flag == "--sizes":
            o["sizes"] = [int(v) for v in value.split(",")]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if not HAVE_BPFTRACE:
        print("bpftrace is not installed: its columns are empty")
    curves = []
    steps = {"keys": curve_keys, "clauses": curve_clauses, "probes": curve_probes, "size": curve_size,
             "printa": curve_printa}
    for name in o["only"].split(","):
        result = steps[name](o)
        if result:
            curves.append(result)
    if o["svg"] and curves:
        svg(o["svg"], curves)
    shutil.rmtree(TMP, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
