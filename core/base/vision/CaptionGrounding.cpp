#include "CaptionGrounding.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <set>

#include "base/vision/ImageAttention.h"

namespace attnlab {

const char* wordClassName(CaptionWordClass c) {
    switch (c) {
        case CaptionWordClass::Article: return "article";
        case CaptionWordClass::Colour: return "colour";
        case CaptionWordClass::Shape: return "shape";
        case CaptionWordClass::Relation: break;
    }
    return "relation";
}

double GroundingShare::nearShare() const {
    return words ? static_cast<double>(near) / words : std::numeric_limits<double>::quiet_NaN();
}

double GroundingShare::insideShare() const {
    return words ? static_cast<double>(inside) / words : std::numeric_limits<double>::quiet_NaN();
}

void CaptionWords::add(const std::vector<SceneObject>& objects) {
    for (const SceneObject& o : objects) {
        colours.insert(o.colour);
        shapes.insert(o.shape);
    }
}

const std::vector<std::string>& groundingKeys() {
    static const std::vector<std::string> keys{"article", "colour", "shape", "relation", "phrase"};
    return keys;
}

CaptionGrounding groundCaption(const std::vector<std::string>& tokens, const std::vector<std::vector<float>>& attention,
                               int rows, int cols, int height, int width, const std::vector<SceneObject>& objects,
                               const CaptionWords& vocabulary) {
    CaptionGrounding g;
    const std::size_t n = std::min(tokens.size(), attention.size());
    g.words.resize(n);
    CaptionWords known = vocabulary;
    known.add(objects);
    const std::set<std::string>& colours = known.colours;
    const std::set<std::string>& shapes = known.shapes;
    for (std::size_t t = 0; t < n; ++t) {
        const std::string& w = tokens[t];
        GroundedWord& word = g.words[t];
        if (w == "a" || w == "an" || w == "the") word.wordClass = CaptionWordClass::Article;
        else if (colours.count(w)) word.wordClass = CaptionWordClass::Colour;
        else if (shapes.count(w)) word.wordClass = CaptionWordClass::Shape;
        else word.wordClass = CaptionWordClass::Relation;
    }

    // The noun phrases: a colour then a shape naming the same object, each object once.
    struct Phrase {
        std::size_t colour, shape;
        int object;
    };
    std::vector<Phrase> phrases;
    std::vector<bool> used(objects.size(), false);
    for (std::size_t t = 1; t < n; ++t) {
        if (g.words[t - 1].wordClass != CaptionWordClass::Colour || g.words[t].wordClass != CaptionWordClass::Shape) continue;
        for (std::size_t k = 0; k < objects.size(); ++k) {
            if (used[k] || objects[k].colour != tokens[t - 1] || objects[k].shape != tokens[t]) continue;
            used[k] = true;
            phrases.push_back({t - 1, t, static_cast<int>(k)});
            g.words[t - 1].objects = {static_cast<int>(k)};
            g.words[t].objects = {static_cast<int>(k)};
            if (t >= 2 && g.words[t - 2].wordClass == CaptionWordClass::Article) g.words[t - 2].objects = {static_cast<int>(k)};
            break;
        }
    }
    g.objectsNamed = static_cast<int>(phrases.size());

    // A relation word between two phrases belongs to both their objects.
    for (std::size_t t = 0; t < n; ++t) {
        if (g.words[t].wordClass != CaptionWordClass::Relation) continue;
        const Phrase* before = nullptr;
        const Phrase* after = nullptr;
        for (const Phrase& p : phrases) {
            if (p.shape < t) before = &p;
            if (p.colour > t && after == nullptr) after = &p;
        }
        if (before) g.words[t].objects.push_back(before->object);
        if (after && (!before || after->object != before->object)) g.words[t].objects.push_back(after->object);
    }

    auto peaks = [&](const std::vector<float>& map, const std::vector<int>& on, bool& isNear, bool& isInside) {
        isNear = isInside = false;
        for (int k : on) {
            const Box& box = objects[static_cast<std::size_t>(k)].box;
            isNear = isNear || peakInBox(map, rows, cols, height, width, box, kPeakMarginCells);
            isInside = isInside || peakInBox(map, rows, cols, height, width, box);
        }
    };
    for (std::size_t t = 0; t < n; ++t) {
        GroundedWord& word = g.words[t];
        if (word.objects.empty()) continue;
        peaks(attention[t], word.objects, word.peakNear, word.peakInside);
        g.shares[wordClassName(word.wordClass)].add(word.peakNear, word.peakInside);
    }
    for (const Phrase& p : phrases) {
        const std::vector<float>& a = attention[p.colour];
        const std::vector<float>& b = attention[p.shape];
        std::vector<float> mean(a.size());
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) mean[i] = 0.5f * (a[i] + b[i]);
        bool isNear = false, isInside = false;
        peaks(mean, {p.object}, isNear, isInside);
        g.shares["phrase"].add(isNear, isInside);
    }
    return g;
}

}  // namespace attnlab
