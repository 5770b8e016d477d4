"""What the Python tests of tests/python share: a clock, pass/fail counting with a log line per
check, and running attnlab-cli (alone, or two at a time: the machine has two cores).

    import checks
    checks.check("name", ok, "detail")
    r = checks.run([cli, "attend", ...]); rs = checks.run_all([[...], [...]])
    print("%d passed, %d failed" % (checks.passed, checks.failed))
"""
import concurrent.futures
import subprocess
import time

START = time.monotonic()
passed = 0
failed = 0


def log(message):
    print("[%6.1fs] %s" % (time.monotonic() - START, message), flush=True)


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        log("ok   %s" % name)
    else:
        failed += 1
        log("FAIL %s%s" % (name, ": " + detail if detail else ""))
    return ok


def run(cmd, timeout=120, env=None, **kw):
    """Runs a command; returns CompletedProcess (returncode -9 and a note on timeout)."""
    try:
        return subprocess.run(cmd, capture_output=True, timeout=timeout, env=env, **kw)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, -9, e.stdout or b"", (e.stderr or b"") + b"\n(timed out)")


def run_all(commands, workers=2, timeout=120):
    """Runs commands two at a time; results in order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda c: run(c, timeout=timeout), commands))


def tail(b, n=3):
    text = b.decode("utf-8", "replace") if isinstance(b, bytes) else b
    return " | ".join(text.strip().splitlines()[-n:])
