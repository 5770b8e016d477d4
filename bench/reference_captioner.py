#!/usr/bin/python3
"""PyTorch reference for AttnLab's default image captioner (`attnlab-cli train --task caption --dataset
scenes --arch cnn-gru`), written the usual way. The spec is core/engine/nn/VisionNets.{h,cpp}
(CaptionerNet), core/base/vision/VisionConfig.h (CaptionerConfig defaults) and
core/engine/vision/VisionTrainer.{h,cpp} (the captioner's training loop): 48x48 RGB images through three
nn.Conv2d 3x3 (32, 64, 64 channels), each ReLU + 2x2 max pooling, give a 6x6 grid of 64-d features plus
a learned embedding per cell; the first state is tanh(Linear(mean of the features)), the first context
zero; per word (query "current", teacher-forced) an nn.GRUCell(64 + 64, 128) reads dropout([embedding of
the previous word; previous context]), the new state attends over the cells with additive attention
v . tanh(W_f f + b + W_h h), and the output layer reads dropout([state; context]). Cross-entropy over the
words and </s> ignoring padding, Adam 3e-3, batch 32, clipping at 1.0, dropout 0.1: AttnLab's defaults.
Data: random images and captions of the scenes' grammar ("a red disk left of a blue box above a green
bar", two or three objects: 7..13 words, 15 words + 4 specials = 19 ids), so the same shapes and lengths.
--size is the number of training captions: AttnLab's --size S scenes hold out 10%, so its default 6000
scenes train on 5400 (this default); compare with --size 0.9 S. Prints one line ending
images_per_sec=<float> for one epoch (training only, as AttnLab's images_per_sec)."""
import argparse, random, time

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--size", type=int, default=5400)
ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--epochs", type=int, default=1)
ap.add_argument("--threads", type=int, default=1)
a = ap.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(0)
random.seed(0)
PAD, BOS, EOS = 0, 1, 2
words = "a red green blue yellow white disk box bar triangle left right of above below".split()
ids = {w: i + 4 for i, w in enumerate(words)}  # after <pad> <s> </s> <unk>
V, S, Fe, Hd, E, A = len(ids) + 4, 48, 64, 128, 64, 64


def caption():
    obj = lambda: ["a", random.choice(words[1:6]), random.choice(words[6:10])]
    c = obj()
    for _ in range(random.randint(1, 2)):
        c += random.choice([["left", "of"], ["right", "of"], ["above"], ["below"]]) + obj()
    return [ids[w] for w in c]


images = torch.rand(a.size, 3, S, S)
captions = [caption() for _ in range(a.size)]


def batches():
    order = list(range(a.size))
    random.shuffle(order)
    for i in range(0, a.size, a.batch):
        b = order[i : i + a.batch]
        T = max(len(captions[j]) for j in b) + 1
        inputs = torch.tensor([[BOS] + captions[j] + [PAD] * (T - 1 - len(captions[j])) for j in b])
        targets = torch.tensor([captions[j] + [EOS] + [PAD] * (T - 1 - len(captions[j])) for j in b])
        yield images[b], inputs, targets


class Captioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2, self.conv3 = nn.Conv2d(3, 32, 3, padding=1), nn.Conv2d(32, 64, 3, padding=1), nn.Conv2d(64, Fe, 3, padding=1)
        self.cells = nn.Parameter(torch.randn((S // 8) ** 2, Fe) * 0.1)
        self.init = nn.Linear(Fe, Hd)
        self.embedding = nn.Embedding(V, E, padding_idx=PAD)
        self.feature_key = nn.Linear(Fe, A)
        self.state_key = nn.Linear(Hd, A, bias=False)
        self.score = nn.Linear(A, 1, bias=False)
        self.gru = nn.GRUCell(E + Fe, Hd)
        self.output = nn.Linear(Hd + Fe, V)
        self.drop = nn.Dropout(0.1)

    def forward(self, images, inputs):  # [B, 3, S, S], [B, T] -> logits [B, T, V]
        x = F.max_pool2d(F.relu(self.conv1(images)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.max_pool2d(F.relu(self.conv3(x)), 2)
        features = x.flatten(2).transpose(1, 2) + self.cells  # [B, N, F]
        keys = self.feature_key(features)
        h = torch.tanh(self.init(features.mean(1)))
        context = features.new_zeros(features.size(0), Fe)
        embedded = self.embedding(inputs)
        outs = []
        for t in range(inputs.size(1)):  # input feeding: the previous context is the next step's input
            h = self.gru(self.drop(torch.cat([embedded[:, t], context], 1)), h)
            alpha = F.softmax(self.score(torch.tanh(keys + self.state_key(h).unsqueeze(1))).squeeze(2), 1)
            context = torch.bmm(alpha.unsqueeze(1), features).squeeze(1)
            outs.append(torch.cat([h, context], 1))
        return self.output(self.drop(torch.stack(outs, 1)))


model = Captioner()
params = sum(p.numel() for p in model.parameters())
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
n, last, t0 = 0, 0.0, time.perf_counter()
for _ in range(a.epochs):
    model.train()
    for im, inputs, targets in batches():
        logits = model(im, inputs)
        loss = F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1), ignore_index=PAD)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        n += im.size(0)
        last = loss.item()
dt = time.perf_counter() - t0
print(f"model=captioner parameters={params} images={n} seconds={dt:.2f} loss={last:.4f} images_per_sec={n / dt:.1f}")
