#!/usr/bin/env python3
"""The PyTorch export (python/attnlab.py and python/train.py) against attnlab-cli.

    python3 tests/python/test_export.py --cli PATH/attnlab-cli --workdir DIR

1. For every architecture and attention kind, trains a tiny model with the CLI, exports the
   package (`attnlab-cli export --model M --pytorch DIR` for a GRU and the Transformer, where
   the CLI has that command, else a copy of python/*.py) and checks that the module's translate() gives what
   `attnlab-cli translate --json` gives, greedy and with --beam 3: the same source and output
   tokens and every attention map within 1e-4.
2. Round trip: load -> save without training gives the same tensors (names, order, dtype,
   shape, bytes) and metadata: the file is byte-identical, and the CLI translates two of them
   identically.
3. train.py --processes 2 (DistributedDataParallel over gloo on 127.0.0.1) for two epochs
   (about 200 steps), two workers joining through MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE, and a
   --from-scratch run: each finishes in bounded time and the CLI opens what it saved.
4. Checkpoints written from Python with a wrong tensor shape, a missing tensor or a broken
   header are refused by the CLI with exit code 4 and one line on stderr starting "error:".

Exit 0 if every check passed, 1 if any failed, 77 (skipped) when `import torch` fails.
The last line says "N passed, N failed".
"""

import argparse
import importlib.util
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import time

import checks
from checks import START, check, log, run, tail

TOLERANCE = 1e-4
SKIP = 77


def run_all(commands, workers=2, timeout=180):
    """Two at a time, as checks.run_all, with the longer timeout a training run here wants."""
    return checks.run_all(commands, workers, timeout)


def text(b):
    return b.decode("utf-8", "replace") if isinstance(b, bytes) else b


# ---------------------------------------------------------------------------------------
# An independent safetensors reader (the module's own is what is under test).

def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def read_raw(path):
    data = read_bytes(path)
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"), object_pairs_hook=list)
    metadata, tensors = {}, []
    for key, value in header:
        if key == "__metadata__":
            metadata = dict(value)
        else:
            v = dict(value)
            b, e = v["data_offsets"]
            tensors.append((b, key, v["dtype"], list(v["shape"]), data[8 + n + b:8 + n + e]))
    tensors.sort(key=lambda t: t[0])
    return [t[1:] for t in tensors], metadata, data


def max_difference(a, b):
    """Largest |a - b| over nested lists; inf if their shapes differ."""
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
            return float("inf")
        return max([max_difference(x, y) for x, y in zip(a, b)] + [0.0])
    return abs(float(a) - float(b))


def compare_translation(name, sentence, cli, py):
    problems = []
    for key in ("source_tokens", "output_tokens"):
        if cli.get(key) != py.get(key):
            problems.append("%s: CLI %s, Python %s" % (key, cli.get(key), py.get(key)))
    if set(cli) != set(py):
        problems.append("keys: CLI %s, Python %s" % (sorted(cli), sorted(py)))
    ca, pa = cli.get("attention", {}), py.get("attention", {})
    if set(ca) != set(pa):
        problems.append("attention kinds: CLI %s, Python %s" % (sorted(ca), sorted(pa)))
    worst = 0.0
    for kind in ca:
        if kind in pa:
            d = max_difference(ca[kind], pa[kind])
            worst = max(worst, d)
            if not d <= TOLERANCE:
                problems.append("attention '%s' differs by %s" % (kind, d))
    lp = abs(cli.get("log_probability", 0.0) - py.get("log_probability", 0.0))
    if not lp <= 1e-3:
        problems.append("log_probability: CLI %s, Python %s" % (cli.get("log_probability"), py.get("log_probability")))
    return problems, worst


# ---------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", required=True, help="attnlab-cli to test against")
    ap.add_argument("--workdir", required=True, help="scratch directory (its export-test/ is recreated)")
    ap.add_argument("--package", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                      "python"),
                    help="where attnlab.py and train.py are, when the CLI has no export command")
    args = ap.parse_args()
    try:
        import torch  # noqa: F401
    except Exception as e:  # ImportError, or a broken install
        print("skipped: cannot import torch (%s); install python3-torch" % " ".join(str(e).split()))
        return SKIP

    cli = os.path.abspath(args.cli)
    if not os.access(cli, os.X_OK):
        print("error: %s is not an executable attnlab-cli" % cli)
        print("0 passed, 1 failed")
        return 1
    work = os.path.join(os.path.abspath(args.workdir), "export-test")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    W = lambda *p: os.path.join(work, *p)  # noqa: E731
    env = dict(os.environ, OMP_NUM_THREADS="1")

    # -- corpora ---------------------------------------------------------------------
    corpora = (("train", 800, 1), ("heldout", 300, 9), ("ddp", 800, 5))
    for (name, _, _), r in zip(corpora, run_all([[cli, "datasets", "--write", "toy-en-zh", "--out", W(name + ".tsv"),
                                                   "--size", str(size), "--seed", str(seed)]
                                                  for name, size, seed in corpora])):
        check("write the %s corpus" % name, r.returncode == 0, tail(r.stderr))
    if checks.failed:
        print("%d passed, %d failed" % (checks.passed, checks.failed))
        return 1
    training_sources = {line.split("\t")[0] for line in read_bytes(W("train.tsv")).decode("utf-8").splitlines()}
    heldout = [line.split("\t")[0] for line in read_bytes(W("heldout.tsv")).decode("utf-8").splitlines()]
    heldout = [s for s in heldout if s not in training_sources]
    by_length = sorted(heldout, key=lambda s: len(s.split()))
    sentences = [by_length[0], by_length[len(by_length) // 2], by_length[-1],
                 "tom chases the zyzzyva",                        # an unknown word
                 "Tom CHASES jerry, don't 汤姆追逐!",             # case, punctuation, apostrophe, CJK
                 "jerry <pad> chases <s> tom",                    # special tokens as words (--no-split-punct)
                 " ".join([by_length[-1]] * 2)]                  # past --max-len of the transformer
    log("held-out sentences: %s" % json.dumps(sentences, ensure_ascii=False))

    # -- 0. the tokenizer: AttnLab's vocabulary of a corpus of tricky text ------------
    tokenizer_cases = [("defaults", []), ("no-lowercase, no-split-punct, no-split-cjk",
                                          ["--no-lowercase", "--no-split-punct", "--no-split-cjk"])]
    with open(W("tricky.tsv"), "w", encoding="utf-8", newline="\n") as f:
        for source, target in tricky_pairs(400):
            f.write(source + "\t" + target + "\n")
    results = run_all([[cli, "train", "--corpus", W("tricky.tsv"), "--arch", "gru", "--attention", "dot", "--hidden",
                        "4", "--epochs", "1", "--val-fraction", "0", "--out", W("tricky-%d.safetensors" % i)] + flags
                       for i, (_, flags) in enumerate(tokenizer_cases)])
    tokenizer_models = []
    for i, ((what, _), r) in enumerate(zip(tokenizer_cases, results)):
        if check("train on tricky text (%s)" % what, r.returncode == 0, tail(r.stderr)):
            tokenizer_models.append((what, W("tricky-%d.safetensors" % i)))

    # -- models ----------------------------------------------------------------------
    # Both query orders (the default is after), one- and two-way encoders, each dropout placement.
    # Two epochs: the weights have moved well away from their initial values and the output
    # stops at </s>; what is compared is the two implementations, not the translation quality.
    common = ["--corpus", W("train.tsv"), "--hidden", "32", "--epochs", "2", "--seed", "1", "--batch", "32"]
    models = [
        ("gru-none", ["--arch", "gru", "--attention", "none", "--no-split-cjk"]),
        ("gru-dot", ["--arch", "gru", "--attention", "dot", "--query", "before", "--no-bidirectional",
                     "--no-split-cjk"]),
        ("gru-general", ["--arch", "gru", "--attention", "general", "--query", "before", "--dropout-on", "both",
                         "--no-split-cjk"]),
        ("gru-scaled-dot", ["--arch", "gru", "--attention", "scaled-dot", "--no-split-cjk"]),
        ("gru-additive", ["--arch", "gru", "--attention", "additive", "--no-split-cjk"]),
        ("gru-local-m", ["--arch", "gru", "--attention", "local-m", "--window", "2", "--query", "before",
                         "--no-bidirectional", "--dropout-on", "attention", "--no-split-cjk"]),
        ("gru-local-p", ["--arch", "gru", "--attention", "local-p", "--split-cjk"]),  # characters
        ("gru-bi2", ["--arch", "gru", "--attention", "additive", "--bidirectional", "--layers", "2",
                     "--embedding", "24", "--dropout", "0.2", "--query", "before", "--no-split-cjk"]),
        ("gru-local-p-bi2", ["--arch", "gru", "--attention", "local-p", "--bidirectional", "--layers", "2",
                             "--window", "4", "--no-split-cjk", "--no-split-punct"]),
        ("transformer", ["--arch", "transformer", "--layers", "2", "--heads", "2", "--ff", "64",
                         "--max-len", "16", "--no-lowercase", "--no-split-punct", "--no-split-cjk"]),
    ]
    results = run_all([[cli, "train"] + common + extra + ["--out", W(name + ".safetensors")]
                       for name, extra in models])
    trained = []
    for (name, _), r in zip(models, results):
        if check("train %s with the CLI" % name, r.returncode == 0, tail(r.stderr)):
            trained.append(name)

    # -- export ----------------------------------------------------------------------
    has_export = run([cli, "export", "--help"]).returncode == 0
    if has_export:
        # The package does not depend on the model: one GRU and the Transformer are enough to show it.
        exported = [n for n in trained if n in ("gru-additive", "transformer")] or trained[:1]
        results = run_all([[cli, "export", "--model", W(n + ".safetensors"), "--pytorch", W("export-" + n)]
                           for n in exported])
        for n, r in zip(exported, results):
            check("attnlab-cli export %s" % n, r.returncode == 0 and all(
                os.path.isfile(W("export-" + n, f)) for f in ("attnlab.py", "train.py")), tail(r.stderr))
    else:
        log("note: %s has no export command; copying %s/{attnlab,train}.py instead" % (cli, args.package))
        exported = trained[:1]
        for n in exported:
            os.makedirs(W("export-" + n))
            for f in ("attnlab.py", "train.py"):
                shutil.copy(os.path.join(args.package, f), W("export-" + n, f))
    package = W("export-" + exported[0]) if exported else args.package
    first = [read_bytes(os.path.join(package, f)) for f in ("attnlab.py", "train.py")]
    check("every export writes the same attnlab.py and train.py",
          all([read_bytes(W("export-" + n, f)) for f in ("attnlab.py", "train.py")] == first
              for n in exported if os.path.isdir(W("export-" + n))))
    if has_export and all(os.path.isfile(os.path.join(args.package, f)) for f in ("attnlab.py", "train.py")):
        check("export ships %s/attnlab.py and train.py verbatim" % args.package,
              first == [read_bytes(os.path.join(args.package, f)) for f in ("attnlab.py", "train.py")])
    spec = importlib.util.spec_from_file_location("attnlab", os.path.join(package, "attnlab.py"))
    attnlab = importlib.util.module_from_spec(spec)
    sys.modules["attnlab"] = attnlab
    spec.loader.exec_module(attnlab)

    for what, path in tokenizer_models:
        model = attnlab.load(path)
        sources, targets = set(), set()
        for source, target in tricky_pairs(400):
            s, t = model.tokenize(source), model.tokenize(target)
            if s and t and max(len(s), len(t)) < model.config.max_length:
                sources.update(s)
                targets.update(t)
        specials = set(attnlab.SPECIAL_TOKENS)
        problems = []
        for side, mine, vocab in (("source", sources - specials, model.source_vocab),
                                  ("target", targets - specials, model.target_vocab)):
            theirs = set(vocab.tokens[4:])
            if mine != theirs:
                problems.append("%s: only AttnLab %s, only Python %s" % (
                    side, sorted(theirs - mine)[:5], sorted(mine - theirs)[:5]))
        check("Python tokenizer = AttnLab's on tricky text (%s; %d + %d distinct tokens)"
              % (what, len(sources), len(targets)), not problems, "; ".join(problems))

    # -- 1. translate, greedy and beam 3 --------------------------------------------
    commands, keys = [], []
    for n in trained:
        for beam in (1, 3):
            commands.append([cli, "translate", "--model", W(n + ".safetensors"), "--json", "--beam", str(beam),
                             "--"] + sentences)
            keys.append((n, beam))
    cli_out = dict(zip(keys, run_all(commands)))
    loaded = {}
    for n in trained:
        try:
            loaded[n] = attnlab.load(W(n + ".safetensors"))
        except Exception as e:
            check("load %s in Python" % n, False, str(e))
            continue
        for beam in (1, 3):
            r = cli_out[(n, beam)]
            lines = text(r.stdout).splitlines()
            if not check("CLI translate %s --beam %d" % (n, beam), r.returncode == 0 and len(lines) == len(sentences),
                         tail(r.stderr)):
                continue
            problems, worst = [], 0.0
            for sentence, line in zip(sentences, lines):
                c = json.loads(line)
                p = json.loads(json.dumps(loaded[n].translate(sentence, beam=beam)))  # as JSON would carry it
                found, w = compare_translation(n, sentence, c, p)
                worst = max(worst, w)
                problems += ["%r: %s" % (sentence, x) for x in found]
            check("Python translate = CLI translate, %s --beam %d (%d sentences, attention within %.1e)"
                  % (n, beam, len(sentences), worst), not problems, "; ".join(problems[:3]))

    # -- 2. round trip ---------------------------------------------------------------
    commands, names = [], []
    for n, model in loaded.items():
        saved = W(n + ".roundtrip.safetensors")
        try:
            model.save(saved)
        except Exception as e:
            check("save %s from Python" % n, False, str(e))
            continue
        original, original_meta, original_bytes = read_raw(W(n + ".safetensors"))
        copy, copy_meta, copy_bytes = read_raw(saved)
        check("round trip %s: same tensors (names, order, dtype, shape, bytes) and metadata" % n,
              original == copy and original_meta == copy_meta,
              "tensors %s, metadata %s" % ("same" if original == copy else "differ",
                                           "same" if original_meta == copy_meta else "differ"))
        check("round trip %s: the whole file is byte-identical" % n, original_bytes == copy_bytes)
        if n in ("gru-additive", "transformer"):  # a byte-identical file translates the same; two show the CLI agrees
            commands.append([cli, "translate", "--model", saved, "--json", "--beam", "3", "--"] + sentences)
            names.append(n)
    for n, r in zip(names, run_all(commands)):
        check("CLI translates the round-tripped %s identically" % n,
              r.returncode == 0 and r.stdout == cli_out[(n, 3)].stdout, tail(r.stderr))

    # -- 3. train.py -----------------------------------------------------------------
    train_py = os.path.join(package, "train.py")
    base = "gru-additive" if "gru-additive" in loaded else (trained[0] if trained else None)
    if base:
        t0 = time.monotonic()
        r = run([sys.executable, train_py, "--model", W(base + ".safetensors"), "--corpus", W("ddp.tsv"),
                 "--epochs", "2", "--batch", "8", "--processes", "2", "--timeout", "60",
                 "--out", W("ddp.safetensors")], timeout=150, env=env)
        seconds = time.monotonic() - t0
        epochs = [json.loads(l) for l in text(r.stdout).splitlines() if l.startswith("{")]
        steps = epochs[-1]["steps"] if epochs else 0
        check("train.py --processes 2: %d epochs, %d steps per worker (%d in all), %.1f s"
              % (len(epochs), steps, 2 * steps, seconds),
              r.returncode == 0 and len(epochs) == 2 and steps >= 75 and epochs[-1]["processes"] == 2
              and seconds < 150, "exit %d: %s" % (r.returncode, tail(r.stderr)))
        check_trained_file("train.py --processes 2", cli, attnlab, W("ddp.safetensors"), loaded[base], sentences,
                           expect_epochs=int(loaded[base].metadata.get("epochs_trained", "0")) + 2)

        # Two workers started the way any launcher starts them.
        port = free_port()
        procs = []
        t0 = time.monotonic()
        for rank in (0, 1):
            wenv = dict(env, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), WORLD_SIZE="2")
            procs.append(subprocess.Popen([sys.executable, train_py, "--model", W(base + ".safetensors"),
                                           "--corpus", W("ddp.tsv"), "--epochs", "3", "--max-steps", "30",
                                           "--timeout", "60", "--out", W("launched.safetensors")],
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=wenv))
        outputs = []
        for p in procs:
            try:
                outputs.append(p.communicate(timeout=120))
            except subprocess.TimeoutExpired:
                p.kill()
                outputs.append(p.communicate())
        codes = [p.returncode for p in procs]
        lines = [json.loads(l) for l in text(outputs[0][0]).splitlines() if l.startswith("{")]
        check("train.py workers joining through MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE (%.1f s)"
              % (time.monotonic() - t0),
              codes == [0, 0] and lines and lines[-1]["processes"] == 2 and lines[-1]["steps"] == 30,
              "exit %s: %s / %s" % (codes, tail(outputs[0][1]), tail(outputs[1][1])))
        check_trained_file("launched workers", cli, attnlab, W("launched.safetensors"), loaded[base], sentences,
                           expect_epochs=int(loaded[base].metadata.get("epochs_trained", "0")) + 3)

    if "transformer" in loaded:
        t0 = time.monotonic()
        r = run([sys.executable, train_py, "--model", W("transformer.safetensors"), "--corpus", W("ddp.tsv"),
                 "--epochs", "2", "--from-scratch", "--out", W("scratch.safetensors")], timeout=120, env=env)
        epochs = [json.loads(l) for l in text(r.stdout).splitlines() if l.startswith("{")]
        check("train.py --from-scratch (transformer, %.1f s, loss %s)"
              % (time.monotonic() - t0, [e["train_loss"] for e in epochs]),
              r.returncode == 0 and len(epochs) == 2 and epochs[1]["train_loss"] < epochs[0]["train_loss"],
              "exit %d: %s" % (r.returncode, tail(r.stderr)))
        check_trained_file("train.py --from-scratch", cli, attnlab, W("scratch.safetensors"), loaded["transformer"],
                           sentences, expect_epochs=2)

    # -- 4. broken checkpoints -------------------------------------------------------
    if base:
        tensors, metadata, data = read_raw(W(base + ".safetensors"))
        named = [(name, attnlab.TensorRecord(name, shape, dtype, raw).tensor()) for name, dtype, shape, raw in tensors]
        wrong = [(name, t.reshape(list(reversed(t.shape))) if name == "output.weight" else t) for name, t in named]
        renamed = [("dec_emb_input.weights" if name == "dec_emb_input.weight" else name, t) for name, t in named]
        dropped = [(name, t) for name, t in named if name != "dec_emb_input.weight"]
        attnlab.write_safetensors(W("bad-shape.safetensors"), wrong, metadata)
        attnlab.write_safetensors(W("bad-missing.safetensors"), renamed, metadata)
        attnlab.write_safetensors(W("bad-dropped.safetensors"), dropped, metadata)
        (n,) = struct.unpack("<Q", data[:8])
        with open(W("bad-header.safetensors"), "wb") as f:  # the header's JSON cut short
            f.write(data[:8] + data[8:8 + n // 2] + b" " * (n - n // 2) + data[8 + n:])
        with open(W("bad-length.safetensors"), "wb") as f:  # a header longer than the file
            f.write(struct.pack("<Q", len(data) * 2) + data[8:])
        cases = [("a wrong tensor shape", "bad-shape"), ("a missing (misnamed) tensor", "bad-missing"),
                 ("a tensor left out", "bad-dropped"),
                 ("a broken header", "bad-header"), ("a header length past the end", "bad-length")]
        results = run_all([[cli, "translate", "--model", W(f + ".safetensors"), "tom chases jerry"] for _, f in cases])
        for (what, f), r in zip(cases, results):
            err = text(r.stderr).strip().splitlines()
            check("CLI refuses a checkpoint with %s (exit 4, one 'error:' line: %s)" % (what, err[0] if err else ""),
                  r.returncode == 4 and len(err) == 1 and err[0].startswith("error:") and not r.stdout,
                  "exit %d, stderr %r" % (r.returncode, text(r.stderr)))
            try:
                attnlab.load(W(f + ".safetensors"))
                check("Python refuses a checkpoint with %s" % what, False, "it loaded")
            except attnlab.ModelFileError as e:
                check("Python refuses a checkpoint with %s (%s)" % (what, e.reason), True)

    log("done in %.1f s" % (time.monotonic() - START))
    print("%d passed, %d failed" % (checks.passed, checks.failed))
    return 0 if checks.failed == 0 else 1


def tricky_pairs(count):
    """Sentences mixing scripts, cases, punctuation, apostrophes, CJK, invisible and odd
    white space: what the tokenizer must split exactly as AttnLab does (seeded, so the
    same every time)."""
    import random
    rng = random.Random(7)
    pieces = ["Tom", "CHASES", "jerry", "don't", "l'été", "rock'n'roll", "'quoted'", "o’clock", "Ça", "ÉCOLE",
              "straße", "ĀĒĪ", "Łódź", "İstanbul", "ŸES", "ΑΘΗΝΑ", "Ώρα", "ΆΈΉ", "МОСКВА", "Ёж", "ЀЍ", "Ѡѡ", "Ӂӂ",
              "汤姆追逐杰瑞", "猫", "ひらがな", "カタカナ", "ｶﾀｶﾅ", "한국어", "々〆〇", "𠀀𠀁", "！", "？", "。", "、",
              "「引用」", "（括弧）", "…", "—", "–", "«guillemets»", "¡hola!", "¿qué?", "§1", "¶", "·", "x²", "3.14",
              "1,000", "e-mail", "a/b", "C++", "#tag", "@user", "100%", "$5", "(x)", "[y]", "{z}", "<s>", "<unk>",
              "</s>", "<pad>", "😀", "🙂x", "a\u200bb", "c\u200ed", "e\u00adf", "g\u2060h", "\ufeffi", "j\u00a0k",
              "l\u3000m", "n\u2028o", "p\u0301", "q\x01r", "s\x0bt", "ǅ", "ﬁ", "Ⅻ", "ⓐ", "٣", "अ", "ß", "ÿ",
              "ŉ", "ĸ", "ı", "µ", "ª", "º", "×", "÷", "×y", "a÷b", "�"]
    pairs = []
    for _ in range(count):
        side = lambda: (" " if rng.random() < 0.7 else "").join(  # noqa: E731
            rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        pairs.append((side(), side()))
    return pairs


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_trained_file(what, cli, attnlab, path, original, sentences, expect_epochs=None):
    """The CLI translates a file train.py saved; its weights moved; its metadata still AttnLab's."""
    r = run([cli, "translate", "--model", path, "--json", "--"] + sentences[:2])
    ok = r.returncode == 0 and len(text(r.stdout).splitlines()) == 2
    check("CLI translates what %s saved" % what, ok, "exit %d: %s" % (r.returncode, tail(r.stderr)))
    if not ok:
        return
    try:
        model = attnlab.load(path)
    except Exception as e:
        check("Python loads what %s saved" % what, False, str(e))
        return
    import torch
    moved = any(not torch.equal(a, b) for a, b in zip(model.net.parameters(), original.net.parameters()))
    same_meta = all(model.metadata.get(k) == original.metadata.get(k)
                    for k in ("format", "format_version", "config", "source_vocab", "target_vocab", "tokenizer"))
    epochs_ok = expect_epochs is None or model.metadata.get("epochs_trained") == str(expect_epochs)
    check("%s: weights changed, config/vocabularies/tokenizer kept, epochs_trained %s"
          % (what, model.metadata.get("epochs_trained")), moved and same_meta and epochs_ok,
          "moved %s, metadata kept %s, epochs_trained %s" % (moved, same_meta, model.metadata.get("epochs_trained")))
    c = json.loads(text(r.stdout).splitlines()[0])
    p = json.loads(json.dumps(model.translate(sentences[0])))
    problems, _ = compare_translation(what, sentences[0], c, p)
    check("Python translate = CLI translate on what %s saved" % what, not problems, "; ".join(problems))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("%d passed, %d failed" % (checks.passed, checks.failed + 1))
        sys.exit(1)
