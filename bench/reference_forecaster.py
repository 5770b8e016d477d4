#!/usr/bin/python3
"""PyTorch reference for AttnLab's default forecaster (`attnlab-cli train --task forecast`), written the
usual way. The spec is core/engine/nn/ForecastNet.{h,cpp}, core/base/forecast/ForecastConfig.h and
core/engine/forecast/ForecastTrainer.cpp: a Transformer encoder-decoder over windows of C = 96 history
points and H = 12 forecast steps. Each value's input is [z_t, sin(2 pi t / P), cos(2 pi t / P)] (t the
position in the window, P the period, 17 for the default seasonal series); the encoder embeds the C
history inputs (Linear(3, d) + sinusoidal positions) through 2 post-norm nn.TransformerEncoderLayers
(d_model 64, 4 heads, ff 128, ReLU); the decoder embeds H query slots (the last history value and the
step's time features, a Linear(3, d) of its own, positions C..C+H-1) through 1 nn.TransformerDecoderLayer
(causal self-attention, cross-attention to the encoder); Linear(d, 1) gives one value per step. No final
LayerNorms (so nn.TransformerEncoder/Decoder without norm rather than nn.Transformer): 117,761 weights,
exactly AttnLab's. Training as AttnLab's defaults: dropout 0, MSE, Adam 1e-3, batch 32, clipping at 1.0,
every stride-1 window of the first 80% of the series (the last 20% is held out), shuffled.
The series is AttnLab's `seasonal` kind made here: sin(2 pi t / 17) + 0.0005 t + N(0, 0.2^2), 2000 values
(1493 training windows). Prints one line ending windows_per_sec=<float> for one epoch (training only, as
AttnLab's windows_per_sec)."""
import argparse, math, time

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--length", type=int, default=2000)  # as `--dataset seasonal --length N`
ap.add_argument("--period", type=int, default=17)
ap.add_argument("--context", type=int, default=96)
ap.add_argument("--horizon", type=int, default=12)
ap.add_argument("--d-model", type=int, default=64)
ap.add_argument("--heads", type=int, default=4)
ap.add_argument("--ff", type=int, default=128)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--epochs", type=int, default=1)
ap.add_argument("--threads", type=int, default=1)
a = ap.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(0)
C, H, D = a.context, a.horizon, a.d_model

# The series, standardised on its training part; every (C + H) window ending before the held-out tail.
t = torch.arange(a.length, dtype=torch.float32)
y = torch.sin(2 * math.pi * t / a.period) + 0.0005 * t + 0.2 * torch.randn(a.length)
train_end = a.length - max(C + H, math.ceil(0.2 * a.length))
z = (y - y[:train_end].mean()) / y[:train_end].std()
windows = z[:train_end].unfold(0, C + H, 1)  # [N, C + H]


def positions(n, d):
    pe = torch.zeros(n, d)
    pos = torch.arange(n, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
    return pe


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.input = nn.Linear(3, D)
        self.decoder_input = nn.Linear(3, D)
        enc = nn.TransformerEncoderLayer(D, a.heads, a.ff, dropout=0.0, batch_first=True)
        dec = nn.TransformerDecoderLayer(D, a.heads, a.ff, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc, 2, enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(dec, 1)
        self.head = nn.Linear(D, 1)
        angle = torch.arange(C + H, dtype=torch.float32) * (2 * math.pi / a.period)
        self.register_buffer("time", torch.stack([torch.sin(angle), torch.cos(angle)], 1))  # [C + H, 2]
        self.register_buffer("pe", positions(C + H, D))
        self.register_buffer("causal", nn.Transformer.generate_square_subsequent_mask(H))

    def forward(self, history):  # [B, C] -> [B, H]
        B = history.size(0)
        z = torch.cat([history, history[:, -1:].expand(B, H)], 1).unsqueeze(2)
        x = torch.cat([z, self.time.expand(B, -1, -1)], 2)  # [B, C + H, 3]
        memory = self.encoder(self.input(x[:, :C]) + self.pe[:C])
        out = self.decoder(self.decoder_input(x[:, C:]) + self.pe[C:], memory, tgt_mask=self.causal)
        return self.head(out).squeeze(2)


model = Forecaster()
params = sum(p.numel() for p in model.parameters())
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
n, last, t0 = 0, 0.0, time.perf_counter()
for _ in range(a.epochs):
    model.train()
    for idx in torch.randperm(windows.size(0)).split(a.batch):
        w = windows[idx]
        loss = F.mse_loss(model(w[:, :C]), w[:, C:])
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        n += w.size(0)
        last = loss.item()
dt = time.perf_counter() - t0
print(f"model=forecaster parameters={params} windows={n} seconds={dt:.2f} loss={last:.4f} windows_per_sec={n / dt:.1f}")
