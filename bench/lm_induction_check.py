#!/usr/bin/env python3
"""The induction check of docs/lm.md, from outside: a language model trained by attnlab-cli on the
induction set is asked, through `attnlab-cli attend --json`, about held-out lines it never saw, each
`prefix + seq + seq[:k]` (0-12 random words, a random sequence of 8-20 words, then its first k words
again, 1 <= k < len(seq)), from the same 200 words (the training file's). For each line:
  - every head's attention, over the positions of the second copy, on the token after the earlier
    copy of the current token (the induction position) and on the previous token;
  - whether the most probable next token is seq[k] (the repeat predicted).
Prints the best layer-2 head's mean induction share, the best layer-1 head's mean previous-token
share, the share of repeats predicted, and (--json) everything.

  bench/lm_induction_check.py --model M --words TRAIN.txt [--lines 60] [--seed 99] [--cli attnlab-cli]
"""
import argparse
import json
import random
import subprocess
import sys


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--model", required=True)
    a.add_argument("--words", required=True, help="the training text: its words are the vocabulary drawn from")
    a.add_argument("--lines", type=int, default=60)
    a.add_argument("--seed", type=int, default=99)
    a.add_argument("--cli", default="attnlab-cli")
    a.add_argument("--json", action="store_true")
    o = a.parse_args()
    vocab = sorted({w for line in open(o.words, encoding="utf-8") for w in line.split()})
    rng = random.Random(o.seed)
    layers_ind, layers_prev, right = None, None, 0
    for _ in range(o.lines):
        prefix = [rng.choice(vocab) for _ in range(rng.randint(0, 12))]
        seq = [rng.choice(vocab) for _ in range(rng.randint(8, 20))]
        k = rng.randint(1, len(seq) - 1)
        words = prefix + seq + seq[:k]
        out = subprocess.run([o.cli, "attend", "--model", o.model, "--text", " ".join(words), "--json"],
                             capture_output=True, text=True, check=True)
        r = json.loads(out.stdout)
        att = r["attention"]  # [layer][head][query][key], position 0 = <bos>
        p, s = len(prefix), len(seq)
        # Token positions (after <bos>): word i is at i + 1. The second copy: words p+s .. p+s+k-1.
        queries = [1 + i for i in range(p + s, p + s + k)]
        if layers_ind is None:
            layers_ind = [[0.0] * len(layer) for layer in att]
            layers_prev = [[0.0] * len(layer) for layer in att]
        for l, layer in enumerate(att):
            for h, rows in enumerate(layer):
                ind = sum(rows[q][q - s + 1] for q in queries) / len(queries)
                prev = sum(rows[q][q - 1] for q in queries) / len(queries)
                layers_ind[l][h] += ind / o.lines
                layers_prev[l][h] += prev / o.lines
        right += r["next"][0]["token"] == seq[k]
    best_ind = max(layers_ind[-1]) if len(layers_ind) >= 2 else max(layers_ind[0])
    best_any_ind = max(max(row) for row in layers_ind)
    best_prev = max(layers_prev[0])
    result = {"lines": o.lines, "layers": len(layers_ind), "best_last_layer_induction": round(best_ind, 4),
              "best_induction_any_head": round(best_any_ind, 4), "best_layer1_previous_token": round(best_prev, 4),
              "repeats_predicted": round(right / o.lines, 4),
              "induction": [[round(v, 4) for v in row] for row in layers_ind],
              "previous_token": [[round(v, 4) for v in row] for row in layers_prev]}
    if o.json:
        print(json.dumps(result))
    else:
        print(f"{o.model}: induction (best head of the last layer) {best_ind:.3f}, any head {best_any_ind:.3f}; "
              f"previous token (best layer-1 head) {best_prev:.3f}; repeats predicted {right}/{o.lines} "
              f"({right / o.lines:.2f})")


if __name__ == "__main__":
    sys.exit(main())
