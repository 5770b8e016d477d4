#!/usr/bin/python3
"""PyTorch reference for AttnLab's image captioner (`attnlab-cli train --task caption --arch cnn-gru`),
written the usual way, in two modes: speed (the default) and grounding (--captions).

The model. The spec is core/engine/nn/networks/VisionNets.{h,cpp} (CaptionerNet with query "current",
the image encoder, the mean initial state, no sentinel, no gate),
core/base/vision/VisionConfig.h (CaptionerConfig defaults) and core/engine/vision/VisionTrainer.{h,cpp}
(the captioner's training loop and evaluation): 48x48 RGB images in 0..1 (bytes / 255, no mean/std
normalisation, as ImageModels.cpp imagesTensor) through three nn.Conv2d 3x3 (32, 64, 64 channels),
each ReLU + 2x2 max pooling, give a 6x6 grid of 64-d features plus a learned embedding per cell; the
first state is tanh(Linear(mean of the features)), the first context zero; per word (teacher-forced)
an nn.GRUCell(., 128) reads dropout(embedding of the previous word) -- with --input-feeding on,
dropout([embedding; previous context]) (Luong's input feeding) -- the new state attends over the
cells, alpha = softmax((W h) . f / sqrt(F)) (dot, the default) or softmax(v . tanh(W_f f + b + W_h h))
(--attention additive), the context is alpha .
features, and the output layer reads dropout([state; context]). The loss is the cross-entropy summed
over the real target words (the caption and </s>, padding ignored) over the batch's word count, plus,
with --doubly-stochastic L > 0, Xu et al.'s L * sum over cells (1 - sum over the real steps of
alpha)^2, summed over the batch and divided by its size. Adam, clipping at 1.0, dropout 0.1.

Speed mode (no --captions): random images and captions of the scenes' grammar ("a red disk left of a
blue box above a green bar", two or three objects: 7..13 words, 15 words + 4 specials = 19 ids), so
the same shapes and lengths; one epoch, seed 0. --size is the
number of training captions: AttnLab's --size S scenes hold out 10%, so its default 6000 scenes
train on 5400 (this default); compare with --size 0.9 S. Prints one line ending
images_per_sec=<float> for the run (training only, as AttnLab's images_per_sec).

Both modes default to AttnLab's captioner defaults: dot attention, input feeding off, doubly
stochastic 1, batch 16, Adam 3e-3 (--attention additive --input-feeding on --doubly-stochastic 0
--batch 32 is the design before them).

Grounding mode (--captions DIR/captions.tsv, as bench/make_scenes.py writes it: `image<TAB>caption`
lines and DIR/objects.tsv `file, object, colour, shape, top, left, height, width`): trains on the
real scenes and, after every epoch, evaluates the held-out ones as AttnLab's CaptionerTrainer does,
to show that its grounding figures belong to the design rather than to the C++ code; 12 epochs,
seed 1 unless told. The PNGs (8-bit RGB, non-interlaced; anything else is refused) are read by a small reader
here (zlib and the five PNG filters); all must share one square size, a multiple of 8. The captions
are lower-cased and split on white space; the vocabulary (<pad> <s> </s> <unk>, then the training
captions' words by falling frequency, ties in order of appearance) comes from the training split;
captions are cut to 16 words. A seeded shuffle (--seed) holds out 10% of the images; the rest train.
After each epoch, on the held-out scenes (eval mode): the teacher-forced loss of each scene's first
caption (val_loss), and a greedy caption from <s> (at most 16 words, </s> not allowed first, <pad>
and <s> never), each word's 36 attention weights kept, scored by ports of
core/base/vision/CaptionGrounding.cpp groundCaption and core/base/vision/ImageAttention.cpp peakInBox:
  word classes   article ("a", "an", "the"), colour, shape (the colours and shapes of the held-out
                 scenes' objects, as VisionTrainer.cpp evaluate() gathers them), relation (the rest);
  phrases        a colour immediately followed by a shape naming an unused object of that colour and
                 shape (the article just before it belongs to it too); a relation word belongs to the
                 phrases' objects before and after it;
  peak_near      the share of a class's words (that belong to an object) whose attention peaks in a
                 cell whose centre lies within half a cell (kPeakMarginCells) of the object's box;
  peak_inside    ... whose peak cell's centre lies in the box itself;
  phrase         the same for the mean of each phrase's colour and shape maps;
  objects_named  the share of held-out scenes in which every object is named by a colour followed
                 by its shape (each object once).
Prints one JSON line per epoch: {"epoch", "loss" (training cross-entropy per word, without the
penalty, as AttnLab's train_loss), "val_loss", "objects_named", "grounding": {"article" | "colour" |
"shape" | "relation" | "phrase": {"words", "peak_near", "peak_inside"}}, "seconds" (the epoch's
training, as AttnLab's)}; shares rounded to 4 places, null without words.

  reference_captioner.py [--size N] [--batch 16] [--epochs 1] [--threads 1] [--seed 0]
  reference_captioner.py --captions DIR/captions.tsv [--seed 1] [--epochs 12] [--batch 16] [--lr 3e-3]
                         [--input-feeding on|off] [--doubly-stochastic L] [--threads 1]
"""
import argparse, json, math, os, random, struct, sys, time, zlib

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS, UNK = 0, 1, 2, 3
Fe, Hd, E, A = 64, 128, 64, 64  # features, GRU state, word embedding, additive attention
MAX_LENGTH = 16                  # CaptionerConfig::maxLength: words generated at most, captions cut to
PEAK_MARGIN_CELLS = 0.5          # ImageAttention.h kPeakMarginCells


class Captioner(nn.Module):
    def __init__(self, vocabulary, size=48, input_feeding=True, dropout=0.1, attention="dot"):
        super().__init__()
        self.conv1, self.conv2, self.conv3 = nn.Conv2d(3, 32, 3, padding=1), nn.Conv2d(32, 64, 3, padding=1), nn.Conv2d(64, Fe, 3, padding=1)
        self.cells = nn.Parameter(torch.randn((size // 8) ** 2, Fe) * 0.1)
        self.init = nn.Linear(Fe, Hd)
        self.embedding = nn.Embedding(vocabulary, E, padding_idx=PAD)
        self.dot = attention == "dot"
        if self.dot:  # (W h) . f_i / sqrt(F), the cells' features their own keys
            self.query = nn.Linear(Hd, Fe, bias=False)
        else:  # additive: v . tanh(W_f f_i + b + W_h h)
            self.feature_key = nn.Linear(Fe, A)
            self.state_key = nn.Linear(Hd, A, bias=False)
            self.score = nn.Linear(A, 1, bias=False)
        self.input_feeding = input_feeding
        self.gru = nn.GRUCell(E + (Fe if input_feeding else 0), Hd)
        self.output = nn.Linear(Hd + Fe, vocabulary)
        self.drop = nn.Dropout(dropout)

    def encode(self, images):  # [B, 3, S, S] -> features [B, N, F] (cells row-major), keys [B, N, A]
        x = F.max_pool2d(F.relu(self.conv1(images)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.max_pool2d(F.relu(self.conv3(x)), 2)
        features = x.flatten(2).transpose(1, 2) + self.cells
        return features, features if self.dot else self.feature_key(features)

    def attend(self, h, features, keys):  # -> alpha [B, N], context [B, F]
        if self.dot:
            scores = torch.bmm(keys, self.query(h).unsqueeze(2)).squeeze(2) / math.sqrt(Fe)
        else:
            scores = self.score(torch.tanh(keys + self.state_key(h).unsqueeze(1))).squeeze(2)
        alpha = F.softmax(scores, 1)
        return alpha, torch.bmm(alpha.unsqueeze(1), features).squeeze(1)

    def start(self, features):  # the first state and context
        return torch.tanh(self.init(features.mean(1))), features.new_zeros(features.size(0), Fe)

    def read(self, embedded, context):  # what the GRU reads at a step
        return self.drop(torch.cat([embedded, context], 1) if self.input_feeding else embedded)

    def forward(self, images, inputs, with_alpha=False):  # [B, 3, S, S], [B, T] -> logits [B, T, V], alphas [B, T, N]
        features, keys = self.encode(images)
        h, context = self.start(features)
        embedded = self.embedding(inputs)
        outs, alphas = [], []
        for t in range(inputs.size(1)):
            h = self.gru(self.read(embedded[:, t], context), h)
            alpha, context = self.attend(h, features, keys)
            outs.append(torch.cat([h, context], 1))
            if with_alpha:
                alphas.append(alpha)
        return self.output(self.drop(torch.stack(outs, 1))), torch.stack(alphas, 1) if with_alpha else None

    def step(self, previous, h, context, features, keys):  # one word of greedy decoding
        h = self.gru(self.read(self.embedding(previous), context), h)
        alpha, context = self.attend(h, features, keys)
        return self.output(self.drop(torch.cat([h, context], 1))), h, alpha, context


def batch_loss(model, images, inputs, targets, lam):
    """The batch's objective and its cross-entropy per word (what AttnLab reports as the loss)."""
    logits, alphas = model(images, inputs, with_alpha=lam > 0)
    count = int(targets.ne(PAD).sum())
    ce = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=PAD, reduction="sum") / count
    if lam <= 0:
        return ce, ce, count
    real = targets.ne(PAD).float().unsqueeze(2)  # [B, T, 1]: the steps whose target is a word or </s>
    return ce + lam * (1 - (alphas * real).sum(1)).pow(2).sum() / images.size(0), ce, count


def padded(captions):
    """<s> + caption and caption + </s>, padded to the longest + 1."""
    T = max(len(c) for c in captions) + 1
    inputs = torch.tensor([[BOS] + c + [PAD] * (T - 1 - len(c)) for c in captions])
    targets = torch.tensor([c + [EOS] + [PAD] * (T - 1 - len(c)) for c in captions])
    return inputs, targets


# ---- speed mode -------------------------------------------------------------------------------------


def speed(a):
    torch.manual_seed(a.seed)
    random.seed(a.seed)
    words = "a red green blue yellow white disk box bar triangle left right of above below".split()
    ids = {w: i + 4 for i, w in enumerate(words)}  # after <pad> <s> </s> <unk>
    V, S = len(ids) + 4, 48

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
            yield (images[b],) + padded([captions[j] for j in b])

    model = Captioner(V, S, a.input_feeding == "on", attention=a.attention)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    n, last, t0 = 0, 0.0, time.perf_counter()
    for _ in range(a.epochs):
        model.train()
        for im, inputs, targets in batches():
            loss, ce, _ = batch_loss(model, im, inputs, targets, a.doubly_stochastic)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            n += im.size(0)
            last = ce.item()
    dt = time.perf_counter() - t0
    print(f"model=captioner parameters={params} images={n} seconds={dt:.2f} loss={last:.4f} images_per_sec={n / dt:.1f}")


# ---- grounding mode: the data --------------------------------------------------------------------------


def read_png(path):
    """(width, height, bytes of rows of RGB pixels) of an 8-bit RGB non-interlaced PNG; SystemExit
    with one line naming the file for anything else."""
    def refuse(why):
        raise SystemExit(f"{path}: {why}")

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        refuse(f"cannot read the image ({e.strerror})")
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        refuse("not a PNG image")
    pos, header, idat = 8, None, []
    while True:
        if pos + 12 > len(data):
            refuse("damaged PNG (it ends before its IEND chunk)")
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        if pos + 12 + length > len(data):
            refuse(f"damaged PNG (its {kind.decode('latin-1')} chunk is cut short)")
        body = data[pos + 8 : pos + 8 + length]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])[0]:
            refuse(f"damaged PNG (its {kind.decode('latin-1')} chunk fails its CRC)")
        pos += 12 + length
        if kind == b"IHDR":
            if length != 13:
                refuse("damaged PNG (an IHDR chunk of other than 13 bytes)")
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        refuse("damaged PNG (no IHDR chunk)")
    width, height, depth, colour, compression, method, interlace = header
    if depth != 8 or colour != 2 or compression != 0 or method != 0 or interlace != 0:
        refuse(f"only 8-bit RGB non-interlaced PNGs are read (this one: bit depth {depth}, colour type {colour}"
               f"{', interlaced' if interlace else ''})")
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error as e:
        refuse(f"damaged PNG ({e})")
    bpp, stride = 3, width * 3
    if len(raw) != height * (stride + 1):
        refuse(f"damaged PNG ({len(raw)} bytes of image data for {width}x{height} pixels)")
    out, prior = bytearray(height * stride), bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 1:  # Sub
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:  # Up
            for i in range(stride):
                line[i] = (line[i] + prior[i]) & 0xFF
        elif kind == 3:  # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prior[i]) >> 1)) & 0xFF
        elif kind == 4:  # Paeth
            for i in range(stride):
                a, b = (line[i - bpp], prior[i - bpp]) if i >= bpp else (0, 0)
                up = prior[i]
                p = a + up - b
                pa, pb, pc = abs(p - a), abs(p - up), abs(p - b)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else up if pb <= pc else b)) & 0xFF
        elif kind != 0:
            refuse(f"damaged PNG (filter type {kind} on row {y})")
        out[y * stride : (y + 1) * stride] = line
        prior = line
    return width, height, bytes(out)


def read_captions(tsv):
    """As Captions.cpp readCaptionTsv: the images (one per file, however many captions it has), their
    captions (lower-cased words) and, from objects.tsv beside the TSV, their objects."""
    folder = os.path.dirname(tsv)
    index, files, names, captions = {}, [], [], []
    try:
        with open(tsv, encoding="utf-8-sig") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise SystemExit(f"{tsv}: cannot read it ({e.strerror})")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if "\t" not in line:
            raise SystemExit(f"{tsv}:{number}: no tab between image and caption")
        file, caption = line.split("\t")[:2]
        file, words = file.strip(), caption.lower().split()
        if not file or not words:
            raise SystemExit(f"{tsv}:{number}: empty {'image name' if not file else 'caption'}")
        resolved = file if os.path.isabs(file) else os.path.join(folder, file)
        key = os.path.realpath(resolved)
        if key not in index:
            if not os.path.isfile(resolved):
                raise SystemExit(f"{tsv}:{number}: image {file}: no such file")
            index[key] = len(files)
            files.append(resolved)
            names.append(file)
            captions.append([])
        captions[index[key]].append(words)
    if not files:
        raise SystemExit(f"{tsv}: no captioned image")
    objects = [[] for _ in files]
    objects_tsv = os.path.join(folder, "objects.tsv")
    if os.path.isfile(objects_tsv):
        by_file = {}
        with open(objects_tsv, encoding="utf-8-sig") as f:
            for number, line in enumerate(f.read().splitlines(), 1):
                if not line.strip():
                    continue
                r = line.split("\t")
                if len(r) != 8:
                    raise SystemExit(f"{objects_tsv}:{number}: {len(r)} columns, expected 8 "
                                     "(file, object, colour, shape, top, left, height, width)")
                try:
                    k, top, left, height, width = (int(r[i]) for i in (1, 4, 5, 6, 7))
                except ValueError:
                    raise SystemExit(f"{objects_tsv}:{number}: a number that is not one")
                by_file.setdefault(r[0].strip(), []).append((k, {"colour": r[2].strip(), "shape": r[3].strip(),
                                                                  "box": (top, left, height, width)}))
        for i, name in enumerate(names):
            objects[i] = [o for _, o in sorted(by_file.get(name, []), key=lambda ko: ko[0])]  # stable, by the object column
    else:
        print(f"{objects_tsv}: not found; no grounding figures", file=sys.stderr)
    return files, captions, objects


def images_tensor(files):
    size, pixels = None, bytearray()
    for path in files:
        width, height, rgb = read_png(path)
        if size is None:
            size = height
            if width != height or height % 8:
                raise SystemExit(f"{path}: {width}x{height} pixels: the captioner reads square images whose side is a multiple of 8")
        elif (width, height) != (size, size):
            raise SystemExit(f"{path}: {width}x{height} pixels, the first image {size}x{size}: all must be one size")
        pixels += rgb
    # As ImageModels.cpp imagesTensor: bytes [N, H, W, C] -> [N, C, H, W] floats / 255, no normalisation.
    return torch.frombuffer(pixels, dtype=torch.uint8).view(len(files), size, size, 3).permute(0, 3, 1, 2).float().div_(255.0).contiguous(), size


def split(n, seed, fraction=0.1):
    """As VisionTrainer.cpp splitIndices (a seeded shuffle; Python's, not std::mt19937_64's): the
    training and held-out indices, each sorted."""
    order = list(range(n))
    random.Random(seed ^ 0x5EED).shuffle(order)
    h = min(max(int(math.floor(fraction * n + 0.5)), 1), n - 1)
    return sorted(order[h:]), sorted(order[:h])


def build_vocabulary(sentences):
    """As Vocabulary::build: the specials, then every word by falling count, ties in order of appearance."""
    counts, order = {}, []
    for s in sentences:
        for w in s:
            if w in ("<pad>", "<s>", "</s>", "<unk>"):
                continue
            if w not in counts:
                counts[w] = 0
                order.append(w)
            counts[w] += 1
    tokens = ["<pad>", "<s>", "</s>", "<unk>"] + sorted(order, key=lambda w: -counts[w])  # sorted() is stable
    return tokens, {w: i for i, w in enumerate(tokens)}


# ---- grounding mode: the figures (ports of ImageAttention.cpp and CaptionGrounding.cpp) -------------------

ARTICLE, COLOUR, SHAPE, RELATION = "article", "colour", "shape", "relation"
KEYS = [ARTICLE, COLOUR, SHAPE, RELATION, "phrase"]  # groundingKeys()


def peak_in_box(weights, rows, cols, height, width, box, margin_cells=0.0):
    """ImageAttention.cpp peakInBox: the centre of the cell where the weights peak (the first maximum)
    inside the box (margin 0), or inside it grown by margin_cells cells on every side."""
    if rows <= 0 or cols <= 0 or len(weights) != rows * cols:
        return False
    peak = max(range(len(weights)), key=weights.__getitem__)  # the first maximum, as std::max_element
    ch, cw = height / rows, width / cols
    y, x = (peak // cols + 0.5) * ch, (peak % cols + 0.5) * cw
    my, mx = margin_cells * ch, margin_cells * cw
    top, left, h, w = box
    if margin_cells <= 0:
        return top <= y < top + h and left <= x < left + w
    return top - my <= y <= top + h + my and left - mx <= x <= left + w + mx


def ground_caption(tokens, attention, rows, cols, height, width, objects, colours, shapes):
    """CaptionGrounding.cpp groundCaption: {class or "phrase": [words, near, inside]}."""
    n = min(len(tokens), len(attention))
    colours = set(colours) | {o["colour"] for o in objects}
    shapes = set(shapes) | {o["shape"] for o in objects}
    classes = []
    for w in tokens[:n]:
        classes.append(ARTICLE if w in ("a", "an", "the") else COLOUR if w in colours else SHAPE if w in shapes else RELATION)
    belongs = [[] for _ in range(n)]
    # The noun phrases: a colour then a shape naming the same object, each object once.
    phrases, used = [], [False] * len(objects)
    for t in range(1, n):
        if classes[t - 1] != COLOUR or classes[t] != SHAPE:
            continue
        for k, o in enumerate(objects):
            if used[k] or o["colour"] != tokens[t - 1] or o["shape"] != tokens[t]:
                continue
            used[k] = True
            phrases.append((t - 1, t, k))
            belongs[t - 1] = [k]
            belongs[t] = [k]
            if t >= 2 and classes[t - 2] == ARTICLE:
                belongs[t - 2] = [k]
            break
    # A relation word between two phrases belongs to both their objects.
    for t in range(n):
        if classes[t] != RELATION:
            continue
        before = after = None
        for p in phrases:
            if p[1] < t:
                before = p
            if p[0] > t and after is None:
                after = p
        if before is not None:
            belongs[t].append(before[2])
        if after is not None and (before is None or after[2] != before[2]):
            belongs[t].append(after[2])

    def peaks(weights, on):
        near = inside = False
        for k in on:
            box = objects[k]["box"]
            near = near or peak_in_box(weights, rows, cols, height, width, box, PEAK_MARGIN_CELLS)
            inside = inside or peak_in_box(weights, rows, cols, height, width, box)
        return near, inside

    shares = {}

    def add(key, near, inside):
        s = shares.setdefault(key, [0, 0, 0])
        s[0] += 1
        s[1] += near
        s[2] += inside

    for t in range(n):
        if belongs[t]:
            add(classes[t], *peaks(attention[t], belongs[t]))
    for c, s, k in phrases:
        # 0.5f * (a[i] + b[i]) in float, as the C++ (the peak of a tie must fall where it falls there).
        mean = (0.5 * (torch.tensor(attention[c], dtype=torch.float32) + torch.tensor(attention[s], dtype=torch.float32))).tolist()
        add("phrase", *peaks(mean, [k]))
    return shares


def rounded(v):  # as the CLI's rounded(): 4 places, half away from zero (the values are >= 0); None for NaN
    return None if v is None or not math.isfinite(v) else math.floor(v * 10000.0 + 0.5) / 10000.0


@torch.no_grad()
def evaluate(model, held_images, held_captions, held_objects, tokens, ids, size):
    """VisionTrainer.cpp CaptionerTrainer::evaluate: the held-out loss, objects_named and the grounding."""
    model.eval()
    grid = size // 8
    # The teacher-forced loss of each image's first caption (eval mode: padding changes no earlier step).
    first = [[ids.get(w, UNK) for w in c[0]][:MAX_LENGTH] for c in held_captions]
    loss, words = 0.0, 0
    for i in range(0, len(first), 100):
        inputs, targets = padded(first[i : i + 100])
        logits, _ = model(held_images[i : i + 100], inputs)
        loss += F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=PAD, reduction="sum").item()
        words += int(targets.ne(PAD).sum())
    # Greedy captions (ImageModels.cpp ImageCaptioner::caption with beam 1), every image's independent of
    # the others', so decoded a batch at a time; each word keeps the weights that made it.
    captions, attention = [], []
    for i in range(0, held_images.size(0), 100):
        features, keys = model.encode(held_images[i : i + 100])
        h, context = model.start(features)
        B = features.size(0)
        out_ids, out_alpha = [[] for _ in range(B)], [[] for _ in range(B)]
        live = [True] * B
        previous = torch.full((B,), BOS, dtype=torch.long)
        for t in range(MAX_LENGTH):
            logits, h, alpha, context = model.step(previous, h, context, features, keys)
            logp = torch.log_softmax(logits, 1).double()
            logp[:, PAD] = -math.inf
            logp[:, BOS] = -math.inf
            if t == 0:
                logp[:, EOS] = -math.inf  # at least one word
            choice = logp.argmax(1)
            for b in range(B):
                if not live[b]:
                    continue
                token = int(choice[b])
                if token == EOS:
                    live[b] = False
                    continue
                out_ids[b].append(token)
                out_alpha[b].append(alpha[b].tolist())
            if not any(live):
                break
            previous = choice
        captions += [[tokens[j] if j < len(tokens) else "<unk>" for j in c] for c in out_ids]
        attention += out_alpha
    # The colour and shape words: every held-out scene's (evaluate()'s CaptionWords).
    colours = {o["colour"] for objs in held_objects for o in objs}
    shapes = {o["shape"] for objs in held_objects for o in objs}
    totals = {key: [0, 0, 0] for key in KEYS}
    with_objects = named = 0
    for words_, alphas, objects in zip(captions, attention, held_objects):
        if not objects:
            continue
        with_objects += 1
        for key, s in ground_caption(words_, alphas, grid, grid, size, size, objects, colours, shapes).items():
            for j in range(3):
                totals[key][j] += s[j]
        # evaluate()'s `found`: a colour immediately followed by the shape of an unused object of that
        # colour and shape (whatever the word classes), each object once; named when all are found.
        used, found = [False] * len(objects), 0
        for t in range(1, len(words_)):
            for k, o in enumerate(objects):
                if not used[k] and words_[t - 1] == o["colour"] and words_[t] == o["shape"]:
                    used[k] = True
                    found += 1
                    break
        named += found == len(objects)
    grounding = {key: {"words": s[0], "peak_near": rounded(s[1] / s[0]) if s[0] else None,
                       "peak_inside": rounded(s[2] / s[0]) if s[0] else None} for key, s in totals.items()}
    return (loss / words if words else math.nan), (named / with_objects if with_objects else math.nan), grounding


def grounding_run(a):
    torch.manual_seed(a.seed)  # as ImageCaptioner's constructor: the weights' (and here the dropout's) draws
    t0 = time.perf_counter()
    files, captions, objects = read_captions(a.captions)
    if len(files) < 2:
        raise SystemExit(f"{a.captions}: a captioner needs two or more captioned images")
    train, held = split(len(files), a.seed)
    tokens, ids = build_vocabulary([c for i in train for c in captions[i]])
    images, size = images_tensor(files)
    train_images, held_images = images[train], images[held]
    examples = []  # (index into train_images, word ids cut to 16)
    for k, i in enumerate(train):
        for c in captions[i]:
            examples.append((k, [ids.get(w, UNK) for w in c][:MAX_LENGTH]))
    held_captions, held_objects = [captions[i] for i in held], [objects[i] for i in held]
    all_colours = {o["colour"] for objs in objects for o in objs}
    all_shapes = {o["shape"] for objs in objects for o in objs}
    if {o["colour"] for objs in held_objects for o in objs} != all_colours or {o["shape"] for objs in held_objects for o in objs} != all_shapes:
        print("note: the held-out scenes lack some of the data's colours or shapes; the word classes use the "
              "held-out ones, as AttnLab's evaluate() does", file=sys.stderr)

    model = Captioner(len(tokens), size, a.input_feeding == "on", attention=a.attention)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    print(f"captioner (CNN {size // 8}x{size // 8} grid + GRU, {a.attention} attention, input feeding {a.input_feeding}, "
          f"doubly stochastic lambda {a.doubly_stochastic:g}; {params} parameters, {len(tokens)} words) on "
          f"{len(train)} images, validating on {len(held)}; seed {a.seed}, batch {a.batch}, lr {a.lr:g}, "
          f"{a.threads} thread(s); data read in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    rng = random.Random(a.seed)  # the batches' order (AttnLab: std::mt19937_64(seed))
    for epoch in range(1, a.epochs + 1):
        start = time.perf_counter()
        model.train()
        order = list(range(len(examples)))
        rng.shuffle(order)
        loss_sum, seen = 0.0, 0
        for i in range(0, len(order), a.batch):
            members = [examples[j] for j in order[i : i + a.batch]]
            inputs, targets = padded([m[1] for m in members])
            batch_images = train_images[torch.tensor([m[0] for m in members])]
            loss, ce, count = batch_loss(model, batch_images, inputs, targets, a.doubly_stochastic)
            if not math.isfinite(loss.item()):
                raise SystemExit(f"training diverged at epoch {epoch}, batch {i // a.batch + 1}")
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            loss_sum += ce.item() * count
            seen += count
        seconds = time.perf_counter() - start
        val_loss, objects_named, grounding = evaluate(model, held_images, held_captions, held_objects, tokens, ids, size)
        print(json.dumps({"epoch": epoch, "loss": rounded(loss_sum / seen), "val_loss": rounded(val_loss),
                          "objects_named": rounded(objects_named), "grounding": grounding,
                          "seconds": round(seconds, 2)}), flush=True)
    print(f"total {time.perf_counter() - t0:.1f} s", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--captions", help="DIR/captions.tsv: the grounding mode (default: the speed mode on random data)")
    ap.add_argument("--size", type=int, help="speed mode: training captions (default 5400)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--epochs", type=int, help="default 1 (speed), 12 (grounding)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, help="default 0 (speed), 1 (grounding)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--input-feeding", choices=["on", "off"], default="off")
    ap.add_argument("--attention", choices=["dot", "additive"], default="dot")
    ap.add_argument("--doubly-stochastic", type=float, metavar="L", default=1.0)
    a = ap.parse_args()
    grounding = a.captions is not None
    if grounding and a.size is not None:
        ap.error("--size applies to the speed mode (without --captions)")
    for name, speed_default, grounding_default in [("size", 5400, None), ("epochs", 1, 12), ("seed", 0, 1)]:
        if getattr(a, name) is None:
            setattr(a, name, grounding_default if grounding else speed_default)
    if a.batch < 1 or a.epochs < 1 or a.threads < 1 or (not grounding and a.size < 1):
        ap.error("--size, --batch, --epochs and --threads must be positive")
    if a.doubly_stochastic < 0 or not a.lr > 0:
        ap.error("--doubly-stochastic must be 0 (off) or positive, --lr positive")
    torch.set_num_threads(a.threads)
    grounding_run(a) if grounding else speed(a)


if __name__ == "__main__":
    main()
