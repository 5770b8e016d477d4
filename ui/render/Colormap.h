#pragma once
// Colour maps for attention heatmaps. The perceptually uniform maps (viridis, magma, cividis) use
// matplotlib's 256-entry tables, bone and grey are sampled from matplotlib's segment data, and a
// value maps to an entry the way matplotlib does (floor(t * 256)), so an exported image can be
// compared with a matplotlib plot colour for colour. One diverging map (matplotlib's RdBu_r) is for
// signed values such as positional encodings, drawn on a range centred on 0; it is not offered for
// attention weights (all(), names(), fromName()), which are read by lightness.
#include <QRgb>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>
#include <vector>

namespace attnlab {

enum class ColormapId { Viridis, Magma, Cividis, Bone, Grey, RdBuR };

class Colormap {
public:
    static constexpr int kSize = 256;
    using Table = std::array<QRgb, kSize>;

    explicit Colormap(ColormapId id = ColormapId::Viridis);

    ColormapId id() const { return id_; }
    QString name() const { return nameOf(id_); }

    // t is clamped to [0, 1]; NaN maps to the low end.
    QRgb color(double t) const { return (*table_)[indexFor(t)]; }
    QRgb at(int index) const;
    // Fully opaque entries (alpha 255), lowest value first: the lookup table painters use.
    const Table& table() const { return *table_; }

    static int indexFor(double t);
    static QRgb color(ColormapId id, double t) { return Colormap(id).color(t); }

    static std::vector<ColormapId> all();        // the sequential maps, for attention weights
    static std::vector<ColormapId> diverging();  // for signed values: light at the centre, dark at both ends
    static QStringList names();  // lower-case, in the order of all()
    static QString nameOf(ColormapId id);
    // Case-insensitive; accepts "gray" for grey. std::nullopt for an unknown name.
    static std::optional<ColormapId> fromName(const QString& name);

    friend bool operator==(const Colormap& a, const Colormap& b) { return a.id_ == b.id_; }
    friend bool operator!=(const Colormap& a, const Colormap& b) { return a.id_ != b.id_; }

private:
    ColormapId id_;
    const Table* table_;
};

}  // namespace attnlab
