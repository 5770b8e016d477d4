#include "window/Tasks.h"

namespace attnlab {

std::vector<TaskInfo> Tasks::all() {
    return {
        {QStringLiteral("translation"), tr("Translation"),
         tr("Sequence to sequence: a GRU encoder-decoder with classic attention, or a Transformer, translating "
            "a parallel corpus.")},
        {QStringLiteral("classify"), tr("Text classification"),
         tr("A GRU with attention pooling, or a Transformer, labels texts; the explanation lab asks whether its "
            "attention explains the decision.")},
        {QStringLiteral("images"), tr("Images"),
         tr("A vision Transformer classifies images and an image captioner describes them; both show where in "
            "the image they look.")},
    };
}

}  // namespace attnlab
