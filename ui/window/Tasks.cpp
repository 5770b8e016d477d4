#include "window/Tasks.h"

namespace attnlab {

std::vector<TaskInfo> Tasks::all() {
    return {
        {QStringLiteral("translation"), tr("Translation"),
         tr("Sequence to sequence: a GRU encoder-decoder with classic attention, or a Transformer, translating "
            "a parallel corpus.")},
    };
}

}  // namespace attnlab
