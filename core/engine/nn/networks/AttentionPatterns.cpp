#include "engine/nn/networks/AttentionPatterns.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/nn/kernels/Random.h"

namespace attnlab::nn {

using torch::Tensor;

PatternSpec patternSpec(const ModelConfig& config) {
    PatternSpec spec;
    spec.pattern = config.pattern;
    spec.window = config.localWindow;
    spec.chunk = patternChunk(config);
    return spec;
}

PatternSpec patternSpec(AttentionPattern pattern, int window, int chunk, int64_t length) {
    PatternSpec spec;
    spec.pattern = pattern;
    spec.window = window;
    spec.chunk = chunk > 0 ? chunk
                           : std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(std::max<int64_t>(1, length))))));
    return spec;
}

KeyIndex patternKeyIndex(const PatternSpec& spec, int64_t Tq, int64_t Tk, bool causal, int64_t queryOffset) {
    const int64_t W = std::max(0, spec.window), s = std::max(1, spec.chunk);
    KeyIndex out;
    if (spec.pattern == AttentionPattern::Chunked) out.summaries = (Tk + s - 1) / s;
    std::vector<std::vector<int64_t>> rows(static_cast<std::size_t>(Tq));
    std::size_t widest = 1;
    for (int64_t i = 0; i < Tq; ++i) {
        const int64_t p = queryOffset + i;
        const int64_t last = causal ? std::min(p, Tk - 1) : Tk - 1;  // the latest key allowed
        auto& row = rows[static_cast<std::size_t>(i)];
        switch (spec.pattern) {
        case AttentionPattern::Local:
            for (int64_t j = std::max<int64_t>(0, p - W); j <= std::min(last, p + W); ++j) row.push_back(j);
            break;
        case AttentionPattern::Strided: {
            for (int64_t j = std::max<int64_t>(0, p - W); j <= std::min(last, p + W); ++j) row.push_back(j);
            // Every s-th key counted from the query, outside the band (those are in it already).
            const int64_t first = ((p % s) + s) % s;
            for (int64_t j = first; j <= last; j += s)
                if (j < p - W || j > p + W) row.push_back(j);
            std::sort(row.begin(), row.end());
            break;
        }
        case AttentionPattern::Chunked: {
            const int64_t c = p >= 0 ? p / s : -1;
            for (int64_t j = std::max<int64_t>(0, c * s); j <= std::min(last, c * s + s - 1); ++j) row.push_back(j);
            for (int64_t other = 0; other < out.summaries; ++other)
                if (other != c && (!causal || other < c)) row.push_back(Tk + other);
            break;
        }
        default:
            for (int64_t j = 0; j <= last; ++j) row.push_back(j);
            break;
        }
        widest = std::max(widest, row.size());
    }
    const int64_t M = static_cast<int64_t>(widest);
    out.index = torch::zeros({Tq, M}, torch::kLong);
    out.valid = torch::zeros({Tq, M}, torch::kBool);
    int64_t* index = out.index.data_ptr<int64_t>();
    bool* valid = out.valid.data_ptr<bool>();
    for (int64_t i = 0; i < Tq; ++i) {
        const auto& row = rows[static_cast<std::size_t>(i)];
        for (std::size_t m = 0; m < row.size(); ++m) {
            index[i * M + static_cast<int64_t>(m)] = row[m];
            valid[i * M + static_cast<int64_t>(m)] = true;
        }
    }
    return out;
}

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// softmax over the last dimension with `blocked` (broadcastable, true = not attended) at 0;
// a row with nothing to attend to is all 0.
Tensor maskedSoftmax(const Tensor& scores, const Tensor& blocked) {
    const Tensor open = blocked.logical_not().any(-1, true);  // [.., 1]
    Tensor s = scores.masked_fill(blocked, kNegInf).masked_fill(open.logical_not(), 0.0);
    return torch::softmax(s, -1) * open.to(scores.scalar_type());
}

// Keys and values [B, H, Tk, dk] to [B, H, Tk + chunks, dk] with every chunk's mean (over its
// unpadded keys); keyPad likewise ([Bp, Tk + chunks], a chunk with no unpadded key is padding).
// keep [Bp, Tk] (1 = a real key) and count [Bp, chunks] are returned for the map.
struct Summaries {
    Tensor keys, values, pad, keep, count;
};

Summaries withSummaries(const Tensor& k, const Tensor& v, const Tensor& keyPad, int64_t C, int64_t chunks) {
    const int64_t B = k.size(0), H = k.size(1), Tk = k.size(2), dk = k.size(3), L = chunks * C;
    Summaries s;
    s.keep = keyPad.defined() ? keyPad.logical_not().to(k.scalar_type())
                              : torch::ones({1, Tk}, k.options());  // [Bp, Tk]
    const int64_t Bp = s.keep.size(0);
    namespace F = torch::nn::functional;
    const Tensor keepL = F::pad(s.keep, F::PadFuncOptions({0, L - Tk})).view({Bp, 1, chunks, C, 1});
    s.count = keepL.sum(3);  // [Bp, 1, chunks, 1]
    const Tensor denominator = s.count.clamp_min(1.0);
    auto mean = [&](const Tensor& x) {
        return (F::pad(x, F::PadFuncOptions({0, 0, 0, L - Tk})).view({B, H, chunks, C, dk}) * keepL).sum(3) /
               denominator;  // [B, H, chunks, dk]
    };
    s.keys = torch::cat({k, mean(k)}, 2);
    s.values = torch::cat({v, mean(v)}, 2);
    const Tensor summaryPad = s.count.view({Bp, chunks}).eq(0);
    s.pad = torch::cat({keyPad.defined() ? keyPad.to(torch::kBool) : torch::zeros({1, Tk}, torch::kBool), summaryPad}, 1);
    if (s.pad.size(0) == 1 && Bp > 1) s.pad = s.pad.expand({Bp, Tk + chunks});
    s.count = s.count.view({Bp, chunks});
    return s;
}

// The map [B, H, Tq, Tk] of weights w [B, H, Tq, M] over keys index [Tq, M] (chunk summaries at
// Tk + c: spread over their chunk's real keys, 1/count each).
Tensor spreadMap(const Tensor& w, const Tensor& index, int64_t Tk, int64_t chunks, int64_t C,
                 const Summaries& summaries) {
    torch::NoGradGuard noGrad;
    const int64_t B = w.size(0), H = w.size(1), Tq = w.size(2), M = w.size(3);
    Tensor map = torch::zeros({B, H, Tq, Tk + chunks}, w.options());
    map.scatter_add_(-1, index.view({1, 1, Tq, M}).expand({B, H, Tq, M}), w.detach());
    if (chunks > 0) {
        const Tensor chunkOf = torch::arange(Tk, torch::kLong).div(C, "floor");
        const Tensor share = summaries.keep / summaries.count.index_select(1, chunkOf).clamp_min(1.0);  // [Bp, Tk]
        const Tensor summaryWeights = map.narrow(-1, Tk, chunks);  // [B, H, Tq, chunks]
        map = map.narrow(-1, 0, Tk) + summaryWeights.index_select(-1, chunkOf) * share.view({share.size(0), 1, 1, Tk});
    }
    return map.contiguous();
}

// Self-attention (Tq = Tk, from position 0) of local and chunked in blocks, the keys a block of
// queries shares scored at once (no per-query copy of the keys): local in query blocks of W + 1
// against their 3W + 1 neighbouring keys, chunked chunk by chunk against its own chunk, then every
// query against the chunk summaries. Scores [B, H, T, S]; slots outside the pattern masked.
Tensor blockedAttention(const PatternSpec& spec, const Tensor& q, const Tensor& k, const Tensor& v,
                        const Tensor& keyPad, bool causal, double dropout, bool training, Tensor* mapOut) {
    namespace F = torch::nn::functional;
    const int64_t B = q.size(0), H = q.size(1), T = q.size(2), dk = q.size(3);
    const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
    // local and strided: a band in blocks; strided adds every s-th key by residue class.
    const bool local = spec.pattern != AttentionPattern::Chunked;
    const bool strided = spec.pattern == AttentionPattern::Strided;
    const int64_t W = std::max(0, spec.window), stride = std::max(1, spec.chunk);
    // query block; a chunk longer than the sequence is the sequence (one chunk, one summary), so a
    // chunk of 5000 over 96 positions costs what 96 does instead of padding to 5000
    const int64_t b = local ? W + 1 : std::min<int64_t>(std::max(1, spec.chunk), std::max<int64_t>(1, T));
    const int64_t blocks = (T + b - 1) / b, L = blocks * b;
    const int64_t width = local ? b + 2 * W : b;  // keys of a block
    const int64_t chunks = local ? 0 : blocks;
    const int64_t rows = strided ? (T + stride - 1) / stride : 0, Ls = rows * stride;  // positions a·s + r
    const int64_t S = width + chunks + rows;
    // Which key each slot holds, and whether the pattern allows it (padding aside).
    Tensor index = torch::zeros({T, S}, torch::kLong), valid = torch::zeros({T, S}, torch::kBool);
    {
        int64_t* ix = index.data_ptr<int64_t>();
        bool* ok = valid.data_ptr<bool>();
        for (int64_t p = 0; p < T; ++p) {
            const int64_t block = p / b, first = local ? block * b - W : block * b;
            for (int64_t m = 0; m < width; ++m) {
                const int64_t j = first + m;
                const bool allowed = j >= 0 && j < T && (!causal || j <= p) && (!local || std::abs(p - j) <= W);
                ix[p * S + m] = allowed ? j : 0;
                ok[p * S + m] = allowed;
            }
            for (int64_t c = 0; c < chunks; ++c) {
                const bool allowed = c != block && (!causal || c < block);
                ix[p * S + width + c] = T + c;
                ok[p * S + width + c] = allowed;
            }
            for (int64_t a = 0; a < rows; ++a) {  // the keys of p's residue class outside the band
                const int64_t j = a * stride + p % stride;
                const bool allowed = j < T && std::abs(p - j) > W && (!causal || j <= p);
                ix[p * S + width + a] = allowed ? j : 0;
                ok[p * S + width + a] = allowed;
            }
        }
    }
    auto padTo = [&](const Tensor& x, int64_t before, int64_t after) {  // along positions (dim 2)
        return F::pad(x, F::PadFuncOptions({0, 0, before, after}));
    };
    const Tensor qb = padTo(q, 0, L - T).view({B, H, blocks, b, dk});
    Tensor kw, vw;  // [B, H, blocks, width, dk]
    Summaries summaries;
    if (local) {
        kw = padTo(k, W, L - T + W).unfold(2, width, b).transpose(-2, -1);
        vw = padTo(v, W, L - T + W).unfold(2, width, b).transpose(-2, -1);
    } else {
        kw = padTo(k, 0, L - T).view({B, H, blocks, b, dk});
        vw = padTo(v, 0, L - T).view({B, H, blocks, b, dk});
        // The chunk means straight from the blocks (withSummaries' numbers, fewer copies): the
        // zeros padding the last chunk add nothing; padded keys are weighed out.
        summaries.keep = keyPad.defined() ? keyPad.logical_not().to(k.scalar_type()) : torch::ones({1, T}, k.options());
        const int64_t Bp = summaries.keep.size(0);
        const Tensor keepL = F::pad(summaries.keep, F::PadFuncOptions({0, L - T})).view({Bp, 1, blocks, b, 1});
        const Tensor count = keepL.sum(3);  // [Bp, 1, chunks, 1]
        auto mean = [&](const Tensor& x) { return (keyPad.defined() ? (x * keepL).sum(3) : x.sum(3)) / count.clamp_min(1.0); };
        summaries.keys = mean(kw);  // [B, H, chunks, dk]
        summaries.values = mean(vw);
        summaries.count = count.view({Bp, chunks});
        summaries.pad = torch::cat({keyPad.defined() ? keyPad.to(torch::kBool) : torch::zeros({1, T}, torch::kBool),
                                    summaries.count.eq(0)}, 1);
    }
    Tensor scores = torch::matmul(qb, kw.transpose(-2, -1)).view({B, H, L, width}).narrow(2, 0, T) * scale;
    Tensor keys, values;
    if (chunks > 0) {
        keys = summaries.keys;  // [B, H, chunks, dk]
        values = summaries.values;
        scores = torch::cat({scores, torch::matmul(q, keys.transpose(-2, -1)) * scale}, -1);  // [B, H, T, S]
    }
    // Residue classes: [B, H, s, rows, dk], class r holding positions r, s + r, 2s + r, ...
    auto byResidue = [&](const Tensor& x) {
        return padTo(x, 0, Ls - T).view({B, H, rows, stride, dk}).transpose(2, 3);
    };
    Tensor valuesByResidue;
    if (strided) {
        valuesByResidue = byResidue(v);
        const Tensor classScores = torch::matmul(byResidue(q), byResidue(k).transpose(-2, -1)) * scale;  // [B,H,s,R,R]
        scores = torch::cat({scores, classScores.transpose(2, 3).reshape({B, H, Ls, rows}).narrow(2, 0, T)}, -1);
    }
    Tensor blocked = valid.logical_not().view({1, 1, T, S});
    const Tensor pad = chunks > 0 ? summaries.pad : keyPad.defined() ? keyPad.to(torch::kBool) : Tensor();
    if (pad.defined())
        blocked = blocked.logical_or(pad.index_select(1, index.view({T * S})).view({pad.size(0), 1, T, S}));
    const Tensor w = maskedSoftmax(scores, blocked);
    const Tensor wd = applyDropout(w, dropout, training);
    Tensor heads = torch::matmul(padTo(wd.narrow(-1, 0, width), 0, L - T).view({B, H, blocks, b, width}), vw)
                       .view({B, H, L, dk})
                       .narrow(2, 0, T);
    if (chunks > 0) heads = heads + torch::matmul(wd.narrow(-1, width, chunks), values);
    if (strided) {
        const Tensor classWeights =
            padTo(wd.narrow(-1, width, rows), 0, Ls - T).view({B, H, rows, stride, rows}).transpose(2, 3);
        heads = heads + torch::matmul(classWeights, valuesByResidue).transpose(2, 3).reshape({B, H, Ls, dk}).narrow(2, 0, T);
    }
    if (mapOut) *mapOut = spreadMap(w, index, T, chunks, b, summaries);
    return heads;
}

Tensor sparseAttention(const PatternSpec& spec, const Tensor& q, const Tensor& k, const Tensor& v,
                       const Tensor& keyPad, bool causal, int64_t offset, double dropout, bool training,
                       Tensor* mapOut) {
    const int64_t B = q.size(0), H = q.size(1), Tq = q.size(2), dk = q.size(3), Tk = k.size(2);
    const KeyIndex ki = patternKeyIndex(spec, Tq, Tk, causal, offset);
    const int64_t M = ki.index.size(1);
    Tensor keys = k, values = v, pad = keyPad.defined() ? keyPad.to(torch::kBool) : Tensor();
    Summaries summaries;
    if (ki.summaries > 0) {
        summaries = withSummaries(k, v, keyPad, spec.chunk, ki.summaries);
        keys = summaries.keys;
        values = summaries.values;
        pad = summaries.pad;
    }
    const Tensor flat = ki.index.view({Tq * M});
    const Tensor kg = keys.index_select(2, flat).view({B, H, Tq, M, dk});
    const Tensor vg = values.index_select(2, flat).view({B, H, Tq, M, dk});
    const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
    const Tensor scores = (q.unsqueeze(3) * kg).sum(-1) * scale;  // [B, H, Tq, M]
    Tensor blocked = ki.valid.logical_not().view({1, 1, Tq, M});
    if (pad.defined()) blocked = blocked.logical_or(pad.index_select(1, flat).view({pad.size(0), 1, Tq, M}));
    const Tensor w = maskedSoftmax(scores, blocked);
    const Tensor wd = applyDropout(w, dropout, training);
    const Tensor heads = (wd.unsqueeze(-1) * vg).sum(3);  // [B, H, Tq, dk]
    if (mapOut) *mapOut = spreadMap(w, ki.index, Tk, ki.summaries, spec.chunk, summaries);
    return heads;
}

// A causal query at offset or later sees every key (a decoding step).
bool queryOffsetSeesAll(int64_t offset, int64_t Tk) { return offset >= Tk - 1; }

Tensor linearAttention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& keyPad, bool causal,
                       int64_t offset, Tensor* mapOut) {
    const int64_t Tq = q.size(2), Tk = k.size(2);
    const Tensor fq = torch::elu(q) + 1.0;  // [B, H, Tq, dk]
    Tensor fk = torch::elu(k) + 1.0;        // [B, H, Tk, dk]
    if (keyPad.defined()) fk = fk * keyPad.logical_not().to(fk.scalar_type()).view({keyPad.size(0), 1, Tk, 1});
    // Query i sees keys 0 .. last(i): all of them, or (causal) those at positions <= its own.
    const bool allSeeAll = !causal || queryOffsetSeesAll(offset, Tk);
    Tensor numerator, denominator;
    if (allSeeAll) {
        const Tensor kv = torch::matmul(fk.transpose(-2, -1), v);  // [B, H, dk, dk]
        const Tensor z = fk.sum(2, true);                           // [B, H, 1, dk]
        numerator = torch::matmul(fq, kv);
        denominator = (fq * z).sum(-1, true);
    } else {
        // Running sums over positions: S_j = Σ_{j' <= j} phi(k_j') v_j'ᵀ, z_j = Σ phi(k_j').
        const Tensor kv = torch::cumsum(fk.unsqueeze(-1) * v.unsqueeze(-2), 2);  // [B, H, Tk, dk, dk]
        const Tensor z = torch::cumsum(fk, 2);                                   // [B, H, Tk, dk]
        const Tensor last = (torch::arange(Tq, torch::kLong) + offset).clamp(0, Tk - 1);
        numerator = (fq.unsqueeze(-1) * kv.index_select(2, last)).sum(-2);  // [B, H, Tq, dk]
        denominator = (fq * z.index_select(2, last)).sum(-1, true);
    }
    const Tensor heads = numerator / denominator.clamp_min(1e-12);
    if (mapOut) {
        torch::NoGradGuard noGrad;
        Tensor a = torch::matmul(fq.detach(), fk.detach().transpose(-2, -1));  // [B, H, Tq, Tk]
        if (causal) {
            const Tensor qpos = (torch::arange(Tq, torch::kLong) + offset).unsqueeze(1);
            a = a.masked_fill(torch::arange(Tk, torch::kLong).unsqueeze(0).gt(qpos), 0.0);
        }
        *mapOut = (a / a.sum(-1, true).clamp_min(1e-12)).contiguous();
    }
    return heads;
}

Tensor denseAttention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& keyPad, bool causal,
                      int64_t offset, double dropout, bool training, Tensor* mapOut) {
    const int64_t Tq = q.size(2), Tk = k.size(2);
    const Tensor scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(q.size(3)));
    Tensor blocked = torch::zeros({1, 1, Tq, Tk}, torch::kBool);
    if (keyPad.defined()) blocked = blocked.logical_or(keyPad.to(torch::kBool).view({keyPad.size(0), 1, 1, Tk}));
    if (causal) {
        const Tensor qpos = (torch::arange(Tq, torch::kLong) + offset).unsqueeze(1);
        blocked = blocked.logical_or(torch::arange(Tk, torch::kLong).unsqueeze(0).gt(qpos).view({1, 1, Tq, Tk}));
    }
    const Tensor w = maskedSoftmax(scores, blocked);
    if (mapOut) *mapOut = w.detach();
    return torch::matmul(applyDropout(w, dropout, training), v);
}

}  // namespace

Tensor patternAttention(const PatternSpec& spec, const Tensor& q, const Tensor& k, const Tensor& v,
                        const Tensor& keyPadMask, bool causal, int64_t queryOffset, double dropout, bool training,
                        Tensor* mapOut) {
    switch (spec.pattern) {
    case AttentionPattern::Local:
    case AttentionPattern::Strided:
    case AttentionPattern::Chunked:
        if (queryOffset == 0 && q.size(2) == k.size(2))
            return blockedAttention(spec, q, k, v, keyPadMask, causal, dropout, training, mapOut);
        return sparseAttention(spec, q, k, v, keyPadMask, causal, queryOffset, dropout, training, mapOut);
    case AttentionPattern::Linear: return linearAttention(q, k, v, keyPadMask, causal, queryOffset, mapOut);
    case AttentionPattern::Full: break;
    }
    return denseAttention(q, k, v, keyPadMask, causal, queryOffset, dropout, training, mapOut);
}

}  // namespace attnlab::nn
