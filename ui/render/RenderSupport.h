#pragma once
// Internal to render/: the constants and helpers HeatmapRenderer.cpp (data, layout, hit-testing,
// export) and HeatmapPainting.cpp (drawing) share. Not part of the library's interface.
#include <QFont>
#include <QPaintEngine>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attnlab::render_detail {

inline constexpr qreal kTickLength = 3.0;
inline constexpr qreal kLabelGap = 4.0;
inline constexpr qreal kMinLabelCap = 60.0;
inline constexpr qreal kMaxLabelWidth = 240.0;  // longer tokens are elided
inline constexpr qreal kLabelShare = 0.4;       // labels may take this much of the width (or height)

inline const QStringList& fallbackFamilies() {
    // Latin first, then CJK so that Chinese/Japanese/Korean tokens never render as boxes.
    static const QStringList families = {
        QStringLiteral("DejaVu Sans"),        QStringLiteral("Noto Sans"),        QStringLiteral("Noto Sans CJK SC"),
        QStringLiteral("Noto Sans CJK JP"),   QStringLiteral("Noto Sans CJK KR"), QStringLiteral("WenQuanYi Micro Hei"),
        QStringLiteral("Source Han Sans SC"), QStringLiteral("Microsoft YaHei"),  QStringLiteral("PingFang SC"),
        QStringLiteral("Segoe UI"),           QStringLiteral("Helvetica"),        QStringLiteral("Arial"),
    };
    return families;
}

inline QFont scaledFont(const QFont& font, double factor, bool bold) {
    QFont out = font;
    out.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    out.setBold(bold);
    return out;
}

inline QFont titleFontFor(const QFont& font) { return scaledFont(font, 1.2, true); }

// Ticks at 1, 2, 2.5 or 5 times a power of ten, at most maxTicks of them inside [low, high].
inline std::vector<double> niceTicks(double low, double high, int maxTicks, int* decimals) {
    std::vector<double> ticks;
    *decimals = 0;
    const double span = high - low;
    if (!(span > 0.0) || !std::isfinite(span)) {
        ticks.push_back(low);
        return ticks;
    }
    maxTicks = std::max(2, maxTicks);
    const double rough = span / (maxTicks - 1);
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double step = 10.0 * magnitude;
    for (double factor : {1.0, 2.0, 2.5, 5.0}) {
        if (rough <= factor * magnitude * (1.0 + 1e-9)) {
            step = factor * magnitude;
            break;
        }
    }
    *decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    if (std::abs(step / std::pow(10.0, -*decimals) - 2.5) < 1e-6) {
        ++*decimals;  // 0.25 needs one more digit than 0.2
    }
    const double first = std::ceil(low / step - 1e-9) * step;
    for (double v = first; v <= high + step * 1e-9 && ticks.size() < 50; v += step) {
        ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return ticks;
}

inline bool isVectorDevice(const QPainter& painter) {
    const QPaintEngine* engine = painter.paintEngine();
    if (engine == nullptr) {
        return false;
    }
    switch (engine->type()) {
    case QPaintEngine::Pdf:
    case QPaintEngine::SVG:
    case QPaintEngine::Picture:
        return true;
    default:
        return false;
    }
}

inline double srgbToLinear(int channel) {
    const double c = channel / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}


}  // namespace attnlab::render_detail
