// Greedy and beam-search decoding over the Seq2SeqNet step interface.
#include <limits>

#include "ModelImpl.h"

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

std::vector<std::int64_t> beamSearch(nn::Seq2SeqNet& net, const torch::Tensor& src, const torch::Tensor& srcLen,
                                     int beam, int64_t maxSteps, double* logProbability) {
    struct Hypothesis {
        std::vector<std::int64_t> tokens;
        double score = 0.0;
    };
    auto state = net.start(src, srcLen);
    std::vector<Hypothesis> alive{Hypothesis{}};
    std::vector<Hypothesis> finished;
    torch::Tensor prev = torch::full({1}, Vocabulary::kBos, torch::kLong);
    // Finished hypotheses are compared by mean log-probability per token, so that
    // beam search does not simply prefer short outputs.
    auto normalized = [](const Hypothesis& h) { return h.score / static_cast<double>(h.tokens.size() + 1); };

    for (int64_t t = 0; t < maxSteps && !alive.empty(); ++t) {
        torch::Tensor logp = net.step(*state, prev);  // [alive, V]
        const int64_t V = logp.size(1);
        torch::Tensor scores = logp + torch::tensor([&] {
                                          std::vector<double> s;
                                          for (auto& h : alive) s.push_back(h.score);
                                          return s;
                                      }(), torch::kDouble).to(torch::kFloat).unsqueeze(1);
        const int64_t k = std::min<int64_t>(beam, scores.numel());
        auto [topScores, topIndex] = scores.view({-1}).topk(k);
        std::vector<Hypothesis> nextAlive;
        std::vector<std::int64_t> keepRows, nextTokens;
        auto topS = topScores.accessor<float, 1>();
        auto topI = topIndex.accessor<int64_t, 1>();
        for (int64_t i = 0; i < k; ++i) {
            const int64_t row = topI[i] / V, token = topI[i] % V;
            Hypothesis h{alive[row].tokens, topS[i]};
            if (token == Vocabulary::kEos) {
                finished.push_back(std::move(h));
            } else {
                h.tokens.push_back(token);
                nextAlive.push_back(std::move(h));
                keepRows.push_back(row);
                nextTokens.push_back(token);
            }
        }
        if (static_cast<int>(finished.size()) >= beam) break;
        alive = std::move(nextAlive);
        if (alive.empty()) break;
        net.reorder(*state, torch::tensor(keepRows, torch::kLong));
        prev = torch::tensor(nextTokens, torch::kLong);
    }
    // Out of steps: unfinished hypotheses compete too.
    for (auto& h : alive) finished.push_back(std::move(h));
    const Hypothesis* best = nullptr;
    for (const auto& h : finished)
        if (!best || normalized(h) > normalized(*best)) best = &h;
    if (logProbability) *logProbability = best ? best->score : 0.0;
    return best ? best->tokens : std::vector<std::int64_t>{};
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
