#!/usr/bin/python3
"""PyTorch reference for AttnLab's default translation model, written the usual way: a
bidirectional GRU encoder (nn.GRU(bidirectional=True) over packed sequences), its outputs and final
states bridged to the decoder's size, and a Luong-style decoder (the query after the recurrence):
the decoder GRU reads the target embeddings, each state then scores the encoder outputs with
additive attention, and tanh(W_c [s; c]) feeds the output layer. Dropout 0.1 on the embeddings,
Adam 1e-3, clipping at 1.0, as `attnlab-cli train --arch gru` trains by default.
Prints one line: pairs_per_sec=<float> ... (the same format as ../shared/bench/reference_train.py)."""
import argparse, random, time

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("corpus")
ap.add_argument("--hidden", type=int, default=128)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--epochs", type=int, default=1)
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--limit", type=int, default=0)
a = ap.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(0)
random.seed(0)
pairs = [l.rstrip("\n").split("\t") for l in open(a.corpus, encoding="utf-8") if "\t" in l]
if a.limit:
    pairs = pairs[: a.limit]
PAD, SOS, EOS = 0, 1, 2


def vocab(side):
    v = {"<pad>": 0, "<s>": 1, "</s>": 2}
    for p in pairs:
        for w in p[side].split():
            v.setdefault(w, len(v))
    return v


sv, tv = vocab(0), vocab(1)
data = [([sv[w] for w in s.split()] + [EOS], [tv[w] for w in t.split()] + [EOS]) for s, t in pairs]


def batches():
    idx = list(range(len(data)))
    random.shuffle(idx)
    for i in range(0, len(idx), a.batch):
        b = [data[j] for j in idx[i : i + a.batch]]
        S = max(len(x) for x, _ in b)
        T = max(len(y) for _, y in b)
        src = torch.tensor([x + [PAD] * (S - len(x)) for x, _ in b])
        tgt = torch.tensor([y + [PAD] * (T - len(y)) for _, y in b])
        yield src, torch.tensor([len(x) for x, _ in b]), tgt


H = a.hidden


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(len(sv), H, padding_idx=PAD)
        self.drop = nn.Dropout(0.1)
        self.gru = nn.GRU(H, H, batch_first=True, bidirectional=True)
        self.bridge_out = nn.Linear(2 * H, H)
        self.bridge_h = nn.Linear(2 * H, H)

    def forward(self, src, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(self.drop(self.emb(src)), lengths, batch_first=True,
                                                   enforce_sorted=False)
        out, h = self.gru(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=src.size(1))
        h = torch.tanh(self.bridge_h(torch.cat([h[0], h[1]], 1))).unsqueeze(0)  # [1, B, H]
        return self.bridge_out(out), h


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(len(tv), H, padding_idx=PAD)
        self.drop = nn.Dropout(0.1)
        self.gru = nn.GRU(H, H, batch_first=True)
        self.Wa = nn.Linear(H, H, bias=False)  # query
        self.Ua = nn.Linear(H, H)  # keys
        self.va = nn.Linear(H, 1, bias=False)
        self.combine = nn.Linear(2 * H, H)
        self.out = nn.Linear(H, len(tv))

    def forward(self, keys, h, tgt, mask):
        tin = torch.cat([torch.full((tgt.size(0), 1), SOS, dtype=torch.long), tgt[:, :-1]], 1)
        states, _ = self.gru(self.drop(self.emb(tin)), h)  # [B, T, H]: the query after the recurrence
        scores = self.va(torch.tanh(self.Wa(states).unsqueeze(2) + self.Ua(keys).unsqueeze(1))).squeeze(3)  # [B, T, S]
        w = F.softmax(scores.masked_fill(mask.unsqueeze(1), float("-inf")), -1)
        context = torch.bmm(w, keys)
        return F.log_softmax(self.out(torch.tanh(self.combine(torch.cat([states, context], 2)))), -1)


enc, dec = Encoder(), Decoder()
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=1e-3)
n, last, t0 = 0, 0.0, time.perf_counter()
for _ in range(a.epochs):
    for src, lengths, tgt in batches():
        opt.zero_grad()
        keys, h = enc(src, lengths)
        out = dec(keys, h, tgt, src.eq(PAD))
        loss = F.nll_loss(out.reshape(-1, out.size(-1)), tgt.reshape(-1), ignore_index=PAD)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        n += src.size(0)
        last = loss.item()
dt = time.perf_counter() - t0
print(f"model=default-gru pairs={n} seconds={dt:.2f} loss={last:.4f} pairs_per_sec={n / dt:.1f}")
