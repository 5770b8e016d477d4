#pragma once
// How far two importance scores over the same words agree, as the attention-as-explanation
// studies measure it (Jain & Wallace 2019: Kendall tau; Spearman's rho beside it), and the
// classifier's macro F1.
#include <vector>

namespace attnlab {

// Kendall's tau-b (ties in either list handled as in tau-b). NaN when the lists differ in
// length, are shorter than 2, or one of them is constant.
double kendallTau(const std::vector<double>& a, const std::vector<double>& b);

// Spearman's rho: Pearson's correlation of the ranks, tied values getting their mean rank.
// NaN in the same cases as kendallTau.
double spearmanRho(const std::vector<double>& a, const std::vector<double>& b);

// Ranks 1..n, ties sharing their mean rank.
std::vector<double> averageRanks(const std::vector<double>& values);

// Macro-averaged F1 over `classes` classes from predicted and true class indices; a class
// with no true and no predicted example is left out of the average.
double macroF1(const std::vector<int>& predicted, const std::vector<int>& truth, int classes);

}  // namespace attnlab
