#pragma once
// The explanation lab for images: what a ViT's attention says beside what the attribution methods
// say, one number per patch each, how far they agree, and a deletion test of which of them is
// faithful to the model. A plain value type and the model-free parts of the computation (the
// model's part is ImageClassifier::explain, engine/vision/ImageModels.h).
//
// The methods (every map a distribution over the patches, row-major, summing to 1):
//   rollout              attention rollout (Abnar & Zuidema 2020), [CLS]'s row over the patches
//   gradient             ||d logit_c / d x||_2 over each patch's pixels (and channels)
//   grad_x_input         |sum over the patch of x * d logit_c / d x|
//   integrated_gradients |sum over the patch of (x - x') * mean over the path of d logit_c / d x|
//                        (Sundararajan et al. 2017; baseline x' the black image, trapezoid rule)
//   grad_rollout         Chefer et al. (2021): R = I, then per layer R += mean_h[(dlogit_c/dA * A)^+] R;
//                        [CLS]'s row over the patches
// Each map is its raw per-patch number's magnitude, renormalised (all zero stays all zero).
//
// The deletion test (Samek et al. 2017): the patches are replaced by the image's mean colour one
// at a time, in the order a method ranks them (most important first), and the probability of the
// predicted class is read after each; a random order is the baseline. The area over the curve,
// AOPC = 1/(N+1) sum_{k=0..N} (p_0 - p_k), is larger for a method that finds what the model uses.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "Captions.h"  // SceneObject
#include "ImageData.h"

namespace attnlab {

// The ViT's five methods, in the order the views and the CLI show them.
const std::vector<std::string>& imageExplanationMethods();
// A captioner's word (ImageCaptioner::explainWord): "attention" (the word's weights over the grid
// cells), "gradient", "grad_x_input", "integrated_gradients", each per cell instead of per patch.
const std::vector<std::string>& captionExplanationMethods();

struct DeletionCurves {
    std::vector<double> fractions;                        // k / N for k = 0..N patches removed
    std::map<std::string, std::vector<double>> probability;  // per method and "random": p_k
    std::map<std::string, double> areaOverCurve;         // AOPC per method and "random"
};

struct ImageExplanation {
    int classIndex = 0;                    // a captioner's word: its id in the vocabulary
    std::string label;                     // the class, or the word
    double probability = 0;                // of the class, or of the word given the image and the words before it
    std::vector<std::string> caption;      // a captioner's greedy caption (empty for a ViT)
    int wordIndex = -1;                    // the word explained, an index into caption
    int imageHeight = 0, imageWidth = 0;   // the model's input size
    int gridRows = 0, gridCols = 0;        // patches (a captioner's grid cells)
    std::map<std::string, std::vector<double>> maps;  // method -> distribution over the patches
    std::map<std::string, std::vector<double>> raw;   // method -> the signed per-patch numbers before it
    // Kendall's tau-b between every two methods' maps, both ways round (tau[a][b] == tau[b][a]).
    std::map<std::string, std::map<std::string, double>> kendallTau;
    double igAttributionSum = 0;    // sum over every pixel of the integrated gradients
    double igOutputDifference = 0;  // logit_c(image) - logit_c(black)
    int igSteps = 0;
    DeletionCurves deletion;
    // With a box (a glyph's mark): each method's mass on it, and the box's share of the image.
    std::map<std::string, double> massInBox;
    double boxShare = 0;
    bool hasBox = false;
    std::string boxObject;  // a captioner's word: the object whose box it is ("red disk"); else empty
};

// The methods `ex` has, in display order (rollout, attention, the gradient methods, grad_rollout).
std::vector<std::string> methodsOf(const ImageExplanation& ex);

// |igAttributionSum - igOutputDifference| / max(|igOutputDifference|, 1e-6): how far integrated
// gradients are from complete (0 = exactly).
double igCompletenessError(const ImageExplanation& ex);

// |values| renormalised to sum to 1 (all zeros, or anything not finite, gives all zeros).
std::vector<double> magnitudeDistribution(const std::vector<double>& values);

// Fills kendallTau over every pair of maps present.
void imageRankAgreement(ImageExplanation& ex);

// The box of the object a captioner's explained word names (its shape after its colour, its colour
// before its shape, or the article before them: namedObject), in the objects' pixels, its name
// put in ex.boxObject; nothing for another word.
std::optional<Box> namedObjectBox(ImageExplanation& ex, const std::vector<SceneObject>& objects);

// Fills massInBox, boxShare and hasBox for a box at the model's input size.
void measureOnBox(ImageExplanation& ex, const Box& box);

// The patches from the most to the least important (ties: the lower index first).
std::vector<int> rankPatches(const std::vector<double>& map);

// The image with the listed patches (of a rows x cols grid, row-major) filled with `fill` (one
// value per channel). The image's side must be divisible by rows and cols.
Image withPatchesReplaced(const Image& image, int rows, int cols, const std::vector<int>& patches,
                          const std::vector<std::uint8_t>& fill);
// The image's mean value per channel, rounded.
std::vector<std::uint8_t> meanColour(const Image& image);

// AOPC of one curve p_0..p_N.
double areaOverCurve(const std::vector<double>& curve);

// The probability of the class for each image (the model, batched).
using ClassProbability = std::function<std::vector<double>(const std::vector<Image>&)>;

// The deletion test of `maps` on an image at the model's input size: one curve per map, and the
// mean of `randomOrders` random orders (from `seed`) as "random". Throws ConfigError for an image
// not divisible into the grid or a map of the wrong size.
DeletionCurves deletionTest(const Image& image, int rows, int cols, const std::map<std::string, std::vector<double>>& maps,
                            const ClassProbability& probability, int randomOrders = 5, std::uint64_t seed = 1);

// The deletion test and the agreement over a set of images: the mean curve and AOPC per method,
// the mean tau per pair (over the images where it is finite), integrated gradients' completeness,
// and, over the images with a box, each method's mean mass on it beside the box's mean share.
struct ImageExplanationSummary {
    int images = 0, withBoxes = 0;
    DeletionCurves deletion;
    std::map<std::string, std::map<std::string, double>> meanTau;
    double meanIgError = 0, maxIgError = 0;
    std::map<std::string, double> meanMassInBox;
    double meanBoxShare = 0;
};
// The explanations must share one grid. Throws ConfigError for none, or grids that differ.
ImageExplanationSummary summarise(const std::vector<ImageExplanation>& explanations);

}  // namespace attnlab
