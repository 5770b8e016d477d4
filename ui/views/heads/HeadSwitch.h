#pragma once
// What the views with a live head switch (HeadsView, ClassifyView, ForecastHeadsView) do on a click.
#include "base/translation/HeadAblation.h"

#include <algorithm>
#include <vector>

namespace attnlab {

// `off` with `head` switched: added if it was on, removed (on again) if it was off.
inline std::vector<HeadId> withHeadToggled(std::vector<HeadId> off, const HeadId& head) {
    const auto found = std::find(off.begin(), off.end(), head);
    if (found != off.end())
        off.erase(found);
    else
        off.push_back(head);
    return off;
}

}  // namespace attnlab
