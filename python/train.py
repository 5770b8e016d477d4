#!/usr/bin/env python3
"""Fine-tune an AttnLab model in PyTorch (or, with --from-scratch, train it anew), on one
process or several, and save the result as an AttnLab checkpoint.

    python3 train.py --model M.safetensors --corpus F.tsv --epochs N --out OUT.safetensors
                     [--processes N] [--from-scratch] [--batch 32] [--lr 0.001] [--clip 1.0]
                     [--seed 1] [--max-steps N] [--threads 1] [--timeout 600]

The corpus is UTF-8 TSV (source<TAB>target, extra columns ignored), tokenized with the
model's own tokenizer and vocabularies (unknown tokens become <unk>; the vocabularies do
not grow). Training is AttnLab's: teacher forcing, cross-entropy over the target tokens
(padding ignored, mean per token), Adam, gradient norm clipping, batches shuffled every
epoch.

--processes N starts N workers on this machine (torch.multiprocessing.spawn) that train
together with DistributedDataParallel over gloo on 127.0.0.1. A worker started by any
other launcher that sets MASTER_ADDR, MASTER_PORT, RANK and WORLD_SIZE joins that group
instead. Each epoch's batches are dealt out to the workers (each takes every N-th batch,
all the same number); their gradients are averaged. Rank 0 prints one JSON line per epoch
and saves the model (atomically) after every epoch and at the end.

Exit codes as attnlab-cli's: 0 ok, 1 failure, 2 usage, 3 bad corpus, 4 bad model file,
130 interrupted (rank 0 saves first). Errors are one line on stderr starting with "error:".
"""

import argparse
import datetime
import json
import os
import random
import socket
import sys
import time


def _prefer_fast_blas_kernels():
    # Debian's OpenBLAS 0.3.21 does not know recent CPUs and falls back to slow SSE3 kernels;
    # it picks them when it loads (with torch), so the choice is made here, before. As
    # attnlab-cli does (preferFastBlasKernels), only on a CPU with AVX2 and FMA.
    if "OPENBLAS_CORETYPE" in os.environ:
        return
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = line.split()
                    if "avx2" in flags and "fma" in flags:
                        os.environ["OPENBLAS_CORETYPE"] = "Haswell"
                    return
    except OSError:
        pass


_prefer_fast_blas_kernels()

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attnlab  # noqa: E402

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_BAD_DATA, EXIT_BAD_MODEL, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130
MAX_CORPUS_BYTES = 1 << 30


class Failure(Exception):
    def __init__(self, message, code=EXIT_FAILURE):
        super().__init__(message)
        self.code = code


def usage(message):
    raise Failure(message + " (see train.py --help)", EXIT_USAGE)


# ---------------------------------------------------------------------------------------
# The corpus, read as AttnLab reads a TSV file (core/base/translation/Corpus.cpp).

def read_tsv(path):
    """[(source, target)] of a TSV file; blank lines and pairs with an empty side skipped."""
    def bad(line, reason):
        raise Failure("%s:%d: %s" % (path, line, reason) if line else "%s: %s" % (path, reason), EXIT_BAD_DATA)
    try:
        if os.path.isdir(path):
            bad(0, "is a directory")
        if os.path.getsize(path) > MAX_CORPUS_BYTES:
            bad(0, "file is too large (the limit is %d MiB)" % (MAX_CORPUS_BYTES >> 20))
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        bad(0, "no such file")
    except OSError as e:
        bad(0, "cannot read: %s" % (e.strerror or e))
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        bad(1, "looks like UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8")
    if data[:2] == b"\x1f\x8b":
        bad(1, "looks gzip-compressed; decompress it first")
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    pairs, extra = [], 0
    for number, raw in enumerate(lines, 1):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if b"\0" in raw:
            bad(number, "NUL byte at byte %d (is this a binary file?)" % (raw.index(b"\0") + 1))
        if b"\r" in raw:
            bad(number, "carriage return inside the line at byte %d (only LF or CRLF line ends are supported)"
                % (raw.index(b"\r") + 1))
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad(number, "invalid UTF-8 at byte %d (0x%02X); the file must be UTF-8" % (e.start + 1, raw[e.start]))
        if not any(not attnlab.is_whitespace(ord(c)) for c in line):
            continue  # blank
        columns = line.split("\t")
        if len(columns) < 2:
            bad(number, "no tab between source and target")
        if len(columns) > 2:
            extra += 1
        source, target = trim(columns[0]), trim(columns[1])
        if source and target:
            pairs.append((source, target))
    if extra:
        print("warning: %s: extra columns ignored on %d lines" % (path, extra), file=sys.stderr)
    if not pairs:
        bad(0, "no usable sentence pair")
    return pairs


def trim(s):
    begin, end = 0, len(s)
    while begin < end and attnlab.is_whitespace(ord(s[begin])):
        begin += 1
    while end > begin and attnlab.is_whitespace(ord(s[end - 1])):
        end -= 1
    return s[begin:end]


def encode_corpus(model, pairs):
    """Token ids (each ending with </s>) of the pairs that fit the model; (encoded, skipped)."""
    limit = model.config.max_length - 1
    encoded, too_long = [], 0
    unknown = total = 0
    for source, target in pairs:
        s, t = model.tokenize(source), model.tokenize(target)
        if not s or not t:
            continue
        if len(s) > limit or len(t) > limit:
            too_long += 1
            continue
        src = model.source_vocab.encode(s) + [attnlab.EOS]
        tgt = model.target_vocab.encode(t) + [attnlab.EOS]
        unknown += src.count(attnlab.UNK) + tgt.count(attnlab.UNK)
        total += len(src) + len(tgt)
        encoded.append((src, tgt))
    return encoded, too_long, (unknown / total if total else 0.0)


def batch_tensors(encoded, indices):
    """Padded tensors of a batch, sorted by source length (longest first) as AttnLab's batches."""
    rows = sorted((encoded[i] for i in indices), key=lambda p: -len(p[0]))
    S = max(len(s) for s, _ in rows)
    T = max(len(t) for _, t in rows)
    src = torch.tensor([s + [attnlab.PAD] * (S - len(s)) for s, _ in rows], dtype=torch.long)
    tgt = torch.tensor([t + [attnlab.PAD] * (T - len(t)) for _, t in rows], dtype=torch.long)
    src_len = torch.tensor([len(s) for s, _ in rows], dtype=torch.long)
    tgt_in = torch.cat([torch.full((len(rows), 1), attnlab.BOS, dtype=torch.long), tgt[:, :-1]], 1)
    return src, src_len, tgt, tgt_in


def epoch_batches(count, batch_size, rng, rank, world):
    """This worker's batches of one epoch: the same shuffle on every worker, every world-th
    batch from `rank` on, the same number for every worker."""
    order = list(range(count))
    rng.shuffle(order)
    batches = [order[i:i + batch_size] for i in range(0, count, batch_size)]
    per_worker = max(1, len(batches) // world)
    return [batches[(rank + k * world) % len(batches)] for k in range(per_worker)]


# ---------------------------------------------------------------------------------------

def load_model(path):
    try:
        return attnlab.load(path)
    except attnlab.ModelFileError as e:
        raise Failure(str(e), EXIT_BAD_MODEL) from None


def prepare(args):
    """Model and encoded corpus; every check that can fail before training."""
    model = load_model(args.model)
    pairs = read_tsv(args.corpus)
    encoded, too_long, unknown = encode_corpus(model, pairs)
    if not encoded:
        raise Failure("%s: every pair is longer than the model's maximum of %d tokens"
                      % (args.corpus, model.config.max_length - 1) if too_long else
                      "%s: no usable sentence pair" % args.corpus, EXIT_BAD_DATA)
    return model, encoded, too_long, unknown


def train(rank, world, args, init_method=None):
    """One worker's training; rank 0 reports and saves. Returns the exit code."""
    torch.set_num_threads(args.threads)
    if world > 1:
        dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=args.timeout))
    try:
        model, encoded, too_long, unknown = prepare(args)
        if rank == 0:
            if too_long:
                print("warning: skipped %d pairs longer than %d tokens" % (too_long, model.config.max_length - 1),
                      file=sys.stderr)
            if unknown > 0.05:
                print("warning: %.0f%% of the corpus' tokens are not in the model's vocabularies (they train "
                      "as <unk>)" % (100 * unknown), file=sys.stderr)
        previous_epochs = 0
        if args.from_scratch:
            model.reinitialize(args.seed)  # the same weights on every worker (DDP broadcasts rank 0's anyway)
        else:
            try:
                previous_epochs = int(model.metadata.get("epochs_trained", "0"))
            except ValueError:
                previous_epochs = 0
        net = model.net
        net.train()
        torch.manual_seed(args.seed * 1000003 + rank)  # dropout: each worker its own masks
        ddp = (torch.nn.parallel.DistributedDataParallel(net, broadcast_buffers=False)  # the only buffer: positions
               if world > 1 else net)
        params = list(net.parameters())
        optimizer = torch.optim.Adam(params, lr=args.lr)
        rng = random.Random(args.seed)
        if rank == 0:
            print("training %s (%d parameters) on %d pairs with %d process%s"
                  % (model.config.architecture + ("" if model.config.architecture == "transformer"
                                                  else " + " + model.config.attention),
                     sum(p.numel() for p in params), len(encoded), world, "" if world == 1 else "es"),
                  file=sys.stderr)

        saved_at = [None]

        def save(epochs_done):
            if rank == 0 and saved_at[0] != steps:
                model.save(args.out, {"epochs_trained": str(previous_epochs + epochs_done)})
                saved_at[0] = steps

        steps = 0
        epochs_done = 0
        try:
            for epoch in range(1, args.epochs + 1):
                start = time.monotonic()
                loss_sum, batches = 0.0, 0
                for indices in epoch_batches(len(encoded), args.batch, rng, rank, world):
                    if args.max_steps and steps >= args.max_steps:
                        break
                    src, src_len, tgt, tgt_in = batch_tensors(encoded, indices)
                    optimizer.zero_grad(set_to_none=True)
                    logits = ddp(src, src_len, tgt_in)
                    loss = F.cross_entropy(logits.reshape(-1, logits.size(2)), tgt.reshape(-1),
                                           ignore_index=attnlab.PAD)
                    loss.backward()
                    for p in params:  # as AttnLab: a parameter the batch did not reach still steps
                        if p.grad is None:
                            p.grad = torch.zeros_like(p)
                    if args.clip > 0:
                        norm = torch.nn.utils.clip_grad_norm_(params, args.clip)
                    else:
                        norm = torch.sqrt(sum((p.grad.double() ** 2).sum() for p in params))
                    # Gradients are averaged over the workers, so every worker sees the same norm.
                    if not torch.isfinite(norm):
                        save(epochs_done)
                        raise Failure("training diverged at epoch %d, batch %d: %s is not finite; the last good "
                                      "weights are kept (saved to %s)"
                                      % (epoch, batches + 1, "the loss" if not torch.isfinite(loss) else "a gradient",
                                         args.out))
                    optimizer.step()
                    steps += 1
                    batches += 1
                    loss_sum += loss.item()
                totals = torch.tensor([loss_sum, float(batches)], dtype=torch.float64)
                if world > 1:
                    dist.all_reduce(totals)
                if totals[1] == 0:
                    break  # --max-steps reached
                epochs_done = epoch
                if rank == 0:
                    print(json.dumps({"epoch": epoch, "train_loss": round(float(totals[0] / totals[1]), 4),
                                      "steps": steps, "processes": world,
                                      "seconds": round(time.monotonic() - start, 2)}), flush=True)
                save(epochs_done)
        except KeyboardInterrupt:
            save(epochs_done)
            if rank == 0:
                print("interrupted: model saved to %s" % args.out, file=sys.stderr)
            return EXIT_INTERRUPTED
        save(epochs_done)
        if world > 1:
            dist.barrier()
        if rank == 0:
            print("saved %s" % args.out, file=sys.stderr)
        return EXIT_OK
    finally:
        if world > 1 and dist.is_initialized():
            dist.destroy_process_group()


def _spawned(rank, world, args, init_method):
    """Entry point of a worker started by --processes (torch.multiprocessing.spawn)."""
    try:
        code = train(rank, world, args, init_method)
    except Failure as e:
        print("error: %s" % e, file=sys.stderr, flush=True)
        code = e.code
    except Exception as e:  # one line, as everywhere else
        print("error: worker %d: %s" % (rank, " ".join(str(e).split()) or type(e).__name__),
              file=sys.stderr, flush=True)
        code = EXIT_FAILURE
    if code:
        sys.exit(code)


def free_loopback_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="train.py", description="Fine-tune or retrain an AttnLab model in PyTorch and save it for AttnLab.")
    p.add_argument("--model", required=True, help="AttnLab checkpoint to start from (.safetensors)")
    p.add_argument("--corpus", required=True, help="UTF-8 TSV corpus, source<TAB>target")
    p.add_argument("--epochs", type=int, required=True, help="epochs (1..100000)")
    p.add_argument("--out", required=True, help="where to save the trained model (.safetensors)")
    p.add_argument("--processes", type=int, default=0,
                   help="start this many workers on this machine (DistributedDataParallel, gloo, 127.0.0.1)")
    p.add_argument("--from-scratch", action="store_true",
                   help="new weights (the model's config, vocabularies and tokenizer are kept)")
    p.add_argument("--batch", type=int, default=32, help="pairs per batch and worker (default 32)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate (default 0.001)")
    p.add_argument("--clip", type=float, default=1.0, help="maximum gradient norm, 0 = none (default 1.0)")
    p.add_argument("--seed", type=int, default=1, help="shuffling, dropout and --from-scratch weights (default 1)")
    p.add_argument("--max-steps", type=int, default=0, help="stop after this many batches per worker (0 = no limit)")
    p.add_argument("--threads", type=int, default=1, help="PyTorch threads per worker (default 1)")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds a worker waits for the others (joining, each gradient exchange; default 600)")

    def error(message):
        raise Failure(message + " (see train.py --help)", EXIT_USAGE)

    p.error = error
    args = p.parse_args(argv)
    for name, value, lo, hi in (("--epochs", args.epochs, 1, 100000), ("--batch", args.batch, 1, 4096),
                                ("--processes", args.processes, 0, 64), ("--threads", args.threads, 1, 64),
                                ("--max-steps", args.max_steps, 0, 1 << 40)):
        if not lo <= value <= hi:
            usage("%s must be between %d and %d, got %d" % (name, lo, hi, value))
    if not 0 < args.lr <= 10:
        usage("--lr must be in (0, 10]")
    if not 0 <= args.clip <= 1e6:
        usage("--clip must be between 0 and 1000000")
    if not 1 <= args.timeout <= 86400:
        usage("--timeout must be between 1 and 86400 seconds")
    return args


def main(argv):
    try:
        args = parse_args(argv)
        launched = "RANK" in os.environ and "WORLD_SIZE" in os.environ
        if launched and args.processes > 1:
            usage("--processes starts its own workers; a launcher already set RANK and WORLD_SIZE")
        if launched:
            try:
                rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
            except ValueError:
                usage("RANK and WORLD_SIZE must be integers")
            if not 0 <= rank < world:
                usage("RANK %d is not below WORLD_SIZE %d" % (rank, world))
            if world > 1:
                for key in ("MASTER_ADDR", "MASTER_PORT"):
                    if not os.environ.get(key):
                        usage("%s is not set (a launcher sets MASTER_ADDR, MASTER_PORT, RANK and WORLD_SIZE)" % key)
                if os.environ["MASTER_ADDR"] in ("127.0.0.1", "localhost", "::1"):
                    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
            return train(rank, world, args, "env://")
        if args.processes > 1:
            prepare(args)  # fail here, once, with the right exit code, rather than in every worker
            import torch.multiprocessing as mp
            port = free_loopback_port()
            os.environ["MASTER_ADDR"] = "127.0.0.1"
            os.environ["MASTER_PORT"] = str(port)
            os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")  # loopback only
            try:
                mp.spawn(_spawned, args=(args.processes, args, "tcp://127.0.0.1:%d" % port),
                         nprocs=args.processes, join=True)
            except mp.ProcessExitedException as e:
                return e.exit_code if e.exit_code and e.exit_code > 0 else EXIT_FAILURE
            except mp.ProcessRaisedException as e:
                print("error: a worker failed: %s" % str(e).strip().splitlines()[-1], file=sys.stderr)
                return EXIT_FAILURE
            return EXIT_OK
        return train(0, 1, args)
    except Failure as e:
        print("error: %s" % e, file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as e:
        print("error: %s" % e, file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
