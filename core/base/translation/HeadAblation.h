#pragma once
// Which attention heads of a Transformer are switched off (head ablation, Michel et al. 2019):
// plain values, no LibTorch. A head is a kind (encoder self-, decoder self- or cross-attention),
// a layer and a head; the front ends count layers and heads from 1 (docs/ARCHITECTURE.md,
// section 9), these structs from 0.
//
// The text form, what `translate --ablate` and `heads` read and print, is a comma-separated list
// of KIND:LAYER:HEAD entries, each part a number (from 1), a name or `*` for all:
//   "cross:*:*"            every cross-attention head
//   "encoder:1:2,decoder:2:*"  the first encoder layer's second head and every head of the
//                          second decoder layer
//   "*:1:1"                head 1 of layer 1 of every kind
#include <optional>
#include <string>
#include <vector>

#include "base/AttentionMap.h"

namespace attnlab {

// One head, counted from 0.
struct HeadId {
    MapKind kind = MapKind::Cross;
    int layer = 0;
    int head = 0;
};
bool operator==(const HeadId& a, const HeadId& b);
bool operator!=(const HeadId& a, const HeadId& b);
bool operator<(const HeadId& a, const HeadId& b);  // encoder, decoder, cross; then layer, head

// "cross:1:2": the text form of one head, counted from 1.
std::string toString(const HeadId& head);

// One entry of a spec as typed; an empty optional is `*`. Layer and head from 0.
struct HeadPattern {
    std::optional<MapKind> kind;
    std::optional<int> layer;
    std::optional<int> head;
    std::string text;  // the entry as typed, for messages
};

struct HeadAblation {
    std::vector<HeadPattern> patterns;
    bool empty() const { return patterns.empty(); }
};

// The kinds in the order every listing uses: encoder self-, decoder self-, cross-attention.
inline constexpr MapKind kHeadKinds[] = {MapKind::Encoder, MapKind::Decoder, MapKind::Cross};

// Parses "KIND:LAYER:HEAD[,...]" (KIND encoder, decoder, cross or *; LAYER and HEAD numbers from
// 1 or *). Throws ConfigError naming `flag` and the bad entry:
// "--ablate: 'cross:0:1' is not KIND:LAYER:HEAD (layers count from 1)". An empty text is an error.
HeadAblation parseHeadAblation(const std::string& text, const std::string& flag = "--ablate");

// The heads a spec selects in a model of `layers` layers with `heads` heads in each of the three
// kinds, sorted, each once. Throws ConfigError naming `flag` and the entry when a layer or head
// lies beyond the model ("--ablate: layer 3 in 'cross:3:1' is beyond the model's 2 layers").
std::vector<HeadId> resolveHeads(const HeadAblation& ablation, int layers, int heads,
                                 const std::string& flag = "--ablate");

// Every head of such a model, in the order above (3 x layers x heads).
std::vector<HeadId> allHeads(int layers, int heads);

}  // namespace attnlab
