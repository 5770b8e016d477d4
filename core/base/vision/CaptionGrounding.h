#pragma once
// Where each word of a caption looked, against the objects of a scene whose boxes are known: the
// measure of whether a captioner's maps mean what a learner reads into them, per word class, so
// that it cannot be carried by one class alone (a model that finds the object while writing the
// colour and looks elsewhere for the shape scores on one and fails the other).
//
// Word classes, from the data's own words (any generator's: the colours and shapes of its objects,
// over every scene given, so that a wrong colour is still a colour):
//   colour   a word that is the colour of an object
//   shape    a word that is the shape of an object
//   article  "a", "an", "the"
//   relation anything else ("left", "of", "above", ...)
// A noun phrase is a colour followed by a shape that name the same object ("red disk"): its colour
// and shape words belong to that object, the article just before it too. A relation word belongs
// to the two objects it stands between (the phrases before and after it). Words of a phrase that
// names no object of the scene ("red box" when the box is blue) belong to none.
//
// A word's peak is near its object when the cell where its attention peaks has its centre inside
// the object's box or within half a cell of it (peakInBox, kPeakMarginCells), inside when the
// centre is in the box itself; for a relation word, either of its two objects. The phrase's map is
// the mean of its colour and shape words' maps.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/vision/Captions.h"

namespace attnlab {

enum class CaptionWordClass { Article, Colour, Shape, Relation };
const char* wordClassName(CaptionWordClass c);  // "article", "colour", "shape", "relation"

struct GroundedWord {
    CaptionWordClass wordClass = CaptionWordClass::Relation;
    std::vector<int> objects;  // the objects the word belongs to (empty: none)
    bool peakNear = false;     // on one of them (within half a cell)
    bool peakInside = false;
};

// Of the words of one class that belong to an object: how many, and how many peaked near / inside it.
struct GroundingShare {
    int words = 0;
    int near = 0;
    int inside = 0;
    void add(bool isNear, bool isInside) {
        ++words;
        near += isNear;
        inside += isInside;
    }
    void add(const GroundingShare& o) {
        words += o.words;
        near += o.near;
        inside += o.inside;
    }
    double nearShare() const;    // NaN without words
    double insideShare() const;  // NaN without words
};

struct CaptionGrounding {
    std::vector<GroundedWord> words;  // one per caption token
    // Per class name ("article", "colour", "shape", "relation") and "phrase" (the noun phrases).
    std::map<std::string, GroundingShare> shares;
    int objectsNamed = 0;  // objects named by a noun phrase (each once)
};

// The colour and shape words of a set of scenes.
struct CaptionWords {
    std::set<std::string> colours, shapes;
    void add(const std::vector<SceneObject>& objects);
};

// `attention[t]` is word t's map over a rows x cols grid of an image of height x width pixels; the
// boxes are in that image's pixels; `words` holds at least the scene's own colours and shapes.
// Tokens past the attention's end are ignored.
CaptionGrounding groundCaption(const std::vector<std::string>& tokens, const std::vector<std::vector<float>>& attention,
                               int rows, int cols, int height, int width, const std::vector<SceneObject>& objects,
                               const CaptionWords& words);

// The shares' keys in the order they are reported.
const std::vector<std::string>& groundingKeys();

}  // namespace attnlab
