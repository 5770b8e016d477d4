#!/usr/bin/env python3
"""Scenes from generators the captioner was not tuned on, for measuring whether each word's map sits
on the object it names (docs/vision.md, "Scenes from other generators").

Writes DIR/images/00001.png ..., DIR/captions.tsv (image<TAB>caption, what
`attnlab-cli train --task caption --captions` reads) and DIR/objects.tsv (file, object, colour,
shape, top, left, height, width: what `attnlab-cli look` reads beside images/).

  make_scenes.py DIR [--count N] [--seed S] [--size 48] [--objects 2|MIN-MAX] [--radius R|MIN-MAX]
                     [--noise F] [--relation placement|exact] [--order random|fixed]

  --radius    object radius in pixels (default 7; MIN-MAX draws one per object)
  --noise     the background's noise (standard deviation on a dark background, 0..1; default 0.08)
  --relation  placement (default): the relation is chosen first and the second object placed on
              that side, anywhere along the other axis, so "left of" may read "above" too;
              exact: the relation named is the only one that holds (the boxes overlap on the other axis)
  --order     random (default): the objects are named in a random order; fixed: left to right

Shapes: disk, box, wedge (a triangle, point up or down); colours: red, green, blue, yellow. Plain Python (no
third-party module): the PNGs are written with zlib.
"""
import argparse
import os
import random
import struct
import zlib

COLOURS = {"red": (0.85, 0.15, 0.12), "green": (0.15, 0.75, 0.2), "blue": (0.2, 0.3, 0.9), "yellow": (0.9, 0.85, 0.15)}
SHAPES = ["disk", "box", "wedge"]


def write_png(path, pixels, size):
    raw = bytearray()
    for y in range(size):
        raw.append(0)
        for x in range(size):
            r, g, b = pixels[y * size + x]
            raw += bytes((int(max(0, min(1, r)) * 255 + 0.5), int(max(0, min(1, g)) * 255 + 0.5),
                          int(max(0, min(1, b)) * 255 + 0.5)))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def inside(shape, dx, dy, r, orientation):
    if shape == "disk":
        return dx * dx + dy * dy <= r * r
    if shape == "box":
        return abs(dx) <= r * 0.85 and abs(dy) <= r * 0.85
    # wedge: an isosceles triangle filling the box, its point up or down (orientation[1])
    dy = dy * orientation[1]
    return -r <= dy <= r and abs(dx) <= (dy + r) / 2


def span(text, name):
    lo, _, hi = text.partition("-")
    lo = float(lo)
    hi = float(hi) if hi else lo
    if hi < lo:
        raise SystemExit(f"--{name}: MIN is above MAX in '{text}'")
    return lo, hi


def relation_of(a, b):
    """The relations of box a to box b that hold (a left of b, ...)."""
    out = []
    if a["left"] + a["width"] <= b["left"]:
        out.append("left of")
    if b["left"] + b["width"] <= a["left"]:
        out.append("right of")
    if a["top"] + a["height"] <= b["top"]:
        out.append("above")
    if b["top"] + b["height"] <= a["top"]:
        out.append("below")
    return out


def place(rng, size, r, others, want=None, anchor=None, exact=False, tries=400):
    """A centre for an object of radius r clear of the others by 2 pixels; with want/anchor, on that
    side of the anchor (and, exact, overlapping it on the other axis)."""
    for _ in range(tries):
        cx = rng.uniform(r + 1, size - r - 2)
        cy = rng.uniform(r + 1, size - r - 2)
        box = {"top": int(cy - r), "left": int(cx - r), "height": int(2 * r + 1), "width": int(2 * r + 1)}
        if any(not (box["left"] + box["width"] + 2 <= o["left"] or o["left"] + o["width"] + 2 <= box["left"]
                    or box["top"] + box["height"] + 2 <= o["top"] or o["top"] + o["height"] + 2 <= box["top"])
               for o in others):
            continue
        if want is not None:
            holds = relation_of(box, anchor)
            if want not in holds:
                continue
            if exact and len(holds) != 1:
                continue
        return cx, cy, box
    return None


def scene(rng, args):
    size = args.size
    lo, hi = span(args.objects, "objects")
    count = rng.randint(int(lo), int(hi))
    rlo, rhi = span(args.radius, "radius")
    for _ in range(1000):
        objects = []
        ok = True
        for k in range(count):
            r = rng.uniform(rlo, rhi)
            want = anchor = None
            if k > 0:
                anchor = objects[-1]["box"]
                want = rng.choice(["left of", "right of", "above", "below"])
            got = place(rng, size, r, [o["box"] for o in objects], want, anchor, args.relation == "exact")
            if got is None:
                ok = False
                break
            cx, cy, box = got
            objects.append({"cx": cx, "cy": cy, "r": r, "box": box, "relation": want,
                            "colour": rng.choice(sorted(COLOURS)), "shape": rng.choice(SHAPES),
                            "orientation": (rng.choice([-1, 1]), rng.choice([-1, 1]))})
        if ok:
            break
    else:
        raise SystemExit("could not place the objects: use fewer or smaller ones")
    pixels = []
    for y in range(size):
        for x in range(size):
            base = 0.08 + rng.gauss(0, args.noise)
            colour = (base, base, base)
            for o in objects:
                if inside(o["shape"], x - o["cx"], y - o["cy"], o["r"], o["orientation"]):
                    shade = rng.gauss(0, args.noise * 0.5)
                    colour = tuple(c + shade for c in COLOURS[o["colour"]])
            pixels.append(colour)
    # The caption: each object related to the one named before it (as placed); the order is the
    # placing order (random) or left to right (fixed, relations recomputed).
    if args.order == "fixed":
        objects.sort(key=lambda o: o["cx"])
    words = []
    for k, o in enumerate(objects):
        if k > 0:
            if args.order == "fixed" or o["relation"] is None:
                holds = relation_of(objects[k - 1]["box"], o["box"])
                rel = holds[0] if holds else "near"
            else:
                # placed on side `relation` of the previous object: the previous is the opposite of it
                rel = {"left of": "right of", "right of": "left of", "above": "below", "below": "above"}[o["relation"]]
            words.append(rel)
        words += ["a", o["colour"], o["shape"]]
    return pixels, objects, " ".join(words)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir")
    p.add_argument("--count", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", type=int, default=48)
    p.add_argument("--objects", default="2")
    p.add_argument("--radius", default="7")
    p.add_argument("--noise", type=float, default=0.08)
    p.add_argument("--relation", choices=["placement", "exact"], default="placement")
    p.add_argument("--order", choices=["random", "fixed"], default="random")
    args = p.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(os.path.join(args.dir, "images"), exist_ok=True)
    with open(os.path.join(args.dir, "captions.tsv"), "w") as captions, \
         open(os.path.join(args.dir, "objects.tsv"), "w") as objects_tsv:
        for i in range(args.count):
            pixels, objects, caption = scene(rng, args)
            name = f"images/{i + 1:05d}.png"
            write_png(os.path.join(args.dir, name), pixels, args.size)
            captions.write(f"{name}\t{caption}\n")
            for k, o in enumerate(objects):
                b = o["box"]
                objects_tsv.write(f"{name}\t{k}\t{o['colour']}\t{o['shape']}\t{b['top']}\t{b['left']}\t{b['height']}\t{b['width']}\n")


if __name__ == "__main__":
    main()
