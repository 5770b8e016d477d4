"""What the Hugging Face folder tests (test_hf_gpt2.py, test_hf_bert.py) share: the safetensors
container written as Hugging Face writes it, and the check that each broken folder gets one line and
exit 4 from attnlab-cli."""
import json
import struct

from checks import check, run_all


def write_safetensors(torch, path, tensors, dtype_of=lambda name, t: "F32"):
    """The container (8-byte little-endian header length, JSON header padded to 8 bytes, raw bytes);
    each tensor stored as dtype_of(name, tensor): F32, F16, BF16 or I64."""
    header, chunks, offset = {}, [], 0
    for name, t in tensors.items():
        kind = dtype_of(name, t)
        t = t.contiguous()
        if kind == "F32":
            data = t.float().numpy().tobytes()
        elif kind == "F16":
            data = t.half().numpy().tobytes()
        elif kind == "BF16":
            data = t.bfloat16().view(torch.int16).numpy().tobytes()
        else:
            data = t.numpy().tobytes()
        header[name] = {"dtype": kind, "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as out:
        out.write(struct.pack("<Q", len(text)))
        out.write(text)
        for c in chunks:
            out.write(c)


def check_broken_folders(cli, broken):
    """broken: (name, folder, file, word); each must give exit 4 and one line naming file and word."""
    results = run_all([[cli, "attend", "--model", path, "--text", "hi", "--json"] for _, path, _, _ in broken])
    for (name, _, file, word), r in zip(broken, results):
        err = r.stderr.decode("utf-8", "replace").strip()
        check("broken folder (%s): exit 4, one line naming %s and %s" % (name, file, word),
              r.returncode == 4 and len(err.splitlines()) == 1 and file in err and word in err,
              "exit %d: %s" % (r.returncode, err))
