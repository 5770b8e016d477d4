// Greedy, beam-search and sampling decoding over the Seq2SeqNet step interface.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "base/translation/Sampling.h"
#include "engine/detail/ModelImpl.h"

namespace attnlab {

torch::Tensor greedyDecode(nn::Seq2SeqNet& net, const torch::Tensor& src, const torch::Tensor& srcLen,
                           int64_t maxSteps) {
    const int64_t B = src.size(0);
    auto state = net.start(src, srcLen);
    torch::Tensor prev = torch::full({B}, Vocabulary::kBos, torch::kLong);
    torch::Tensor done = torch::zeros({B}, torch::kBool);
    std::vector<torch::Tensor> out;
    for (int64_t t = 0; t < maxSteps; ++t) {
        torch::Tensor next = net.step(*state, prev).argmax(1);  // [B]
        next = next.masked_fill(done, Vocabulary::kPad);
        out.push_back(next);
        done = done.logical_or(next.eq(Vocabulary::kEos));
        if (done.all().item<bool>()) break;
        prev = next.masked_fill(done, Vocabulary::kEos);  // finished rows keep a harmless input
    }
    if (out.empty()) return torch::zeros({B, 0}, torch::kLong);
    return torch::stack(out, 1);
}

namespace {

// The attention rows `rows[t]` of every step t < rows.size(), as forward's capture lays
// them out: kind -> [1, L, H, T, Tk]. Steps whose keys are fewer than the longest
// (decoder self-attention over the prefix so far) are padded with zeros, the weight
// the causal mask gives the future.
nn::Captured gatherSteps(const std::vector<nn::StepCapture>& steps, const std::vector<std::int64_t>& rows) {
    nn::Captured out;
    const auto T = static_cast<std::int64_t>(rows.size());
    if (T == 0) return out;
    for (const auto& [kind, first] : steps.front()) {
        int64_t keys = 0;
        for (int64_t t = 0; t < T; ++t) keys = std::max(keys, steps[t].at(kind).size(3));
        std::vector<torch::Tensor> picked;  // [L, H, Tk_t] each
        picked.reserve(rows.size());
        for (int64_t t = 0; t < T; ++t) {
            torch::Tensor w = steps[t].at(kind).select(0, rows[t]);
            if (w.size(2) < keys) w = torch::constant_pad_nd(w, {0, keys - w.size(2)});
            picked.push_back(w);
        }
        out[kind] = torch::stack(picked, 2).unsqueeze(0);  // [1, L, H, T, Tk]
    }
    return out;
}

}  // namespace

namespace {

// Step `row`'s cross-attention over the source, the last layer's heads averaged (a StepCapture's
// [alive, L, H, S]); empty without a capture.
std::vector<float> crossRow(const nn::StepCapture& capture, int64_t row) {
    auto found = capture.find(MapKind::Cross);
    if (found == capture.end()) return {};
    torch::Tensor w = found->second.select(0, row);  // [L, H, S]
    w = w.select(0, w.size(0) - 1).mean(0).to(torch::kFloat).contiguous();
    return std::vector<float>(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
}

}  // namespace

std::vector<std::int64_t> beamSearch(nn::Seq2SeqNet& net, const torch::Tensor& src, const torch::Tensor& srcLen,
                                     int beam, int64_t maxSteps, double* logProbability, nn::Captured* capture,
                                     std::vector<BeamNode>* tree, const Vocabulary* target) {
    struct Hypothesis {
        std::vector<std::int64_t> tokens;
        double score = 0.0;
        std::vector<std::int64_t> rows;  // its row in each step's captured attention
        int node = -1;                   // its last node in *tree
    };
    auto state = net.start(src, srcLen, capture);
    // Each step's attention stays a tensor [alive, L, H, Tk] until the best hypothesis
    // is known; only its rows are gathered, once, at the end.
    std::vector<nn::StepCapture> steps;
    std::vector<Hypothesis> alive{Hypothesis{}};
    std::vector<Hypothesis> finished;
    torch::Tensor prev = torch::full({1}, Vocabulary::kBos, torch::kLong);
    // Finished hypotheses are compared by mean log-probability per token, so that
    // beam search does not simply prefer short outputs.
    auto normalized = [](const Hypothesis& h) { return h.score / static_cast<double>(h.tokens.size() + 1); };

    for (int64_t t = 0; t < maxSteps && !alive.empty(); ++t) {
        nn::StepCapture stepCapture;
        torch::Tensor logp = net.step(*state, prev, capture ? &stepCapture : nullptr);  // [alive, V]
        if (capture) steps.push_back(std::move(stepCapture));
        const int64_t V = logp.size(1);
        // The k best continuations, scored in float as a tensor sum would be, picked on the
        // host: a few thousand numbers at most, not worth half a dozen tensor operations.
        torch::Tensor flat = logp.contiguous();
        const float* lp = flat.data_ptr<float>();
        std::vector<float> scores(static_cast<std::size_t>(flat.numel()));
        for (std::size_t row = 0; row < alive.size(); ++row) {
            const auto base = static_cast<float>(alive[row].score);
            for (int64_t v = 0; v < V; ++v) scores[row * V + v] = base + lp[row * V + v];
        }
        const int64_t k = std::min<int64_t>(beam, flat.numel());
        std::vector<int64_t> top(scores.size());
        for (std::size_t i = 0; i < top.size(); ++i) top[i] = static_cast<int64_t>(i);
        std::partial_sort(top.begin(), top.begin() + k, top.end(), [&](int64_t a, int64_t b) {
            return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
        });
        std::vector<Hypothesis> nextAlive;
        std::vector<std::int64_t> keepRows, nextTokens;
        for (int64_t i = 0; i < k; ++i) {
            const int64_t row = top[i] / V, token = top[i] % V;
            Hypothesis h{alive[row].tokens, scores[top[i]], {}, -1};
            if (capture) {
                h.rows = alive[row].rows;
                h.rows.push_back(row);
            }
            if (tree) {
                BeamNode node;
                node.parent = alive[row].node;
                node.step = static_cast<int>(t);
                node.token = target ? target->token(token) : std::to_string(token);
                node.tokenProbability = std::exp(lp[row * V + token]);
                node.score = scores[top[i]];
                node.finished = token == Vocabulary::kEos;
                if (capture) node.attention = crossRow(steps.back(), row);
                h.node = static_cast<int>(tree->size());
                tree->push_back(std::move(node));
            }
            if (token == Vocabulary::kEos) {
                finished.push_back(std::move(h));
            } else {
                h.tokens.push_back(token);
                nextAlive.push_back(std::move(h));
                keepRows.push_back(row);
                nextTokens.push_back(token);
            }
        }
        alive = std::move(nextAlive);
        // Enough finished hypotheses: they alone compete (the ones still open are unfinished).
        if (static_cast<int>(finished.size()) >= beam) alive.clear();
        if (alive.empty()) break;
        bool sameRows = static_cast<int64_t>(keepRows.size()) == logp.size(0);  // greedy: always
        for (std::size_t i = 0; sameRows && i < keepRows.size(); ++i) sameRows = keepRows[i] == static_cast<int64_t>(i);
        if (!sameRows) net.reorder(*state, torch::tensor(keepRows, torch::kLong));
        prev = torch::tensor(nextTokens, torch::kLong);
    }
    // Out of steps: unfinished hypotheses compete too.
    for (auto& h : alive) finished.push_back(std::move(h));
    const Hypothesis* best = nullptr;
    for (const auto& h : finished)
        if (!best || normalized(h) > normalized(*best)) best = &h;
    if (logProbability) *logProbability = best ? best->score : 0.0;
    if (tree && best)
        for (int n = best->node; n >= 0; n = (*tree)[static_cast<std::size_t>(n)].parent)
            (*tree)[static_cast<std::size_t>(n)].best = true;
    if (capture && best) {
        // The step that produced </s> is not part of the output (forward over the
        // output has one query per output token).
        std::vector<std::int64_t> rows(best->rows.begin(), best->rows.begin() + best->tokens.size());
        for (auto& [kind, maps] : gatherSteps(steps, rows)) (*capture)[kind] = std::move(maps);
    }
    return best ? best->tokens : std::vector<std::int64_t>{};
}

std::vector<std::int64_t> sampleDecode(nn::Seq2SeqNet& net, const torch::Tensor& src, const torch::Tensor& srcLen,
                                       const DecodeOptions& options, int64_t maxSteps, const Vocabulary& target,
                                       double* logProbability, std::vector<DecodingStep>* steps,
                                       nn::Captured* capture, KeyValueCache* cache) {
    auto state = net.start(src, srcLen, capture);
    // One generator of our own per sample: the draws depend on the seed alone, not on LibTorch's
    // global generator or the number of threads.
    std::mt19937_64 rng(options.seed);
    std::vector<nn::StepCapture> stepCaptures;
    std::vector<std::int64_t> tokens;
    float score = 0.0f;  // accumulated in float, as beamSearch does, so that greedy's equals it
    torch::Tensor prev = torch::full({1}, Vocabulary::kBos, torch::kLong);
    for (int64_t t = 0; t < maxSteps; ++t) {
        nn::StepCapture stepCapture;
        torch::Tensor logp = net.step(*state, prev, capture ? &stepCapture : nullptr).contiguous();  // [1, V]
        if (capture) stepCaptures.push_back(std::move(stepCapture));
        const float* lp = logp.data_ptr<float>();
        const std::vector<double> logits(lp, lp + logp.size(1));
        const std::vector<double> p = temperatureSoftmax(logits, options.temperature);
        const SamplingCut cut = cutDistribution(p, options.topK, options.topP);
        const std::size_t token = drawFromCut(cut, p, unitDraw(rng));
        score = score + lp[token];
        if (steps) {
            DecodingStep step;
            const std::size_t shown =
                std::min(cut.order.size(), static_cast<std::size_t>(std::max(options.candidates, 0)));
            for (std::size_t i = 0; i < shown; ++i) {
                const std::size_t id = cut.order[i];
                step.candidates.push_back(TokenCandidate{target.token(static_cast<std::int64_t>(id)),
                                                         static_cast<float>(p[id]), i < cut.kept});
            }
            step.keptCount = static_cast<int>(cut.kept);
            step.keptMass = static_cast<float>(cut.keptMass);
            step.chosen = target.token(static_cast<std::int64_t>(token));
            step.chosenProbability = static_cast<float>(p[token]);
            steps->push_back(std::move(step));
        }
        if (static_cast<std::int64_t>(token) == Vocabulary::kEos) break;
        tokens.push_back(static_cast<std::int64_t>(token));
        prev = torch::full({1}, static_cast<std::int64_t>(token), torch::kLong);
    }
    if (logProbability) *logProbability = score;
    if (cache) *cache = keyValueCache(net.selfAttentionCache(*state), tokens, target);
    if (capture && !tokens.empty()) {
        // One row per step (batch 1); the step that drew </s> is not part of the output.
        const std::vector<std::int64_t> rows(tokens.size(), 0);
        for (auto& [kind, maps] : gatherSteps(stepCaptures, rows)) (*capture)[kind] = std::move(maps);
    }
    return tokens;
}

KeyValueCache keyValueCache(const std::vector<std::pair<torch::Tensor, torch::Tensor>>& layers,
                            const std::vector<std::int64_t>& outputs, const Vocabulary& target) {
    KeyValueCache cache;
    if (layers.empty()) return cache;
    const torch::Tensor& first = layers.front().first;  // [1, H, t, dk]
    cache.layers = static_cast<int>(layers.size());
    cache.heads = static_cast<int>(first.size(1));
    cache.headDim = static_cast<int>(first.size(3));
    const auto rows = first.size(2);
    cache.tokens.push_back(target.token(Vocabulary::kBos));
    for (int64_t i = 1; i < rows; ++i) cache.tokens.push_back(target.token(outputs.at(static_cast<std::size_t>(i - 1))));
    for (const auto& [keys, values] : layers) {
        const torch::Tensor k = keys.select(0, 0).to(torch::kFloat).contiguous();
        const torch::Tensor v = values.select(0, 0).to(torch::kFloat).contiguous();
        cache.keys.insert(cache.keys.end(), k.data_ptr<float>(), k.data_ptr<float>() + k.numel());
        cache.values.insert(cache.values.end(), v.data_ptr<float>(), v.data_ptr<float>() + v.numel());
    }
    return cache;
}

AttentionMap toAttentionMap(const torch::Tensor& matrix) {
    torch::Tensor m = matrix.to(torch::kFloat).contiguous();
    AttentionMap map;
    map.rows = static_cast<int>(m.size(0));
    map.cols = static_cast<int>(m.size(1));
    map.weights.assign(m.data_ptr<float>(), m.data_ptr<float>() + m.numel());
    return map;
}

}  // namespace attnlab
