#include "views/image/ImageHeadsView.h"

#include "render/FigureWriter.h"
#include "views/image/ImageCanvas.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <numeric>

namespace attnlab {

namespace {

constexpr int kCellSide = 110;
constexpr int kLargeSide = 380;

}  // namespace

ImageHeadsView::ImageHeadsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    message_ = new QLabel;
    message_->setWordWrap(true);
    layout->addWidget(message_);
    auto* row = new QHBoxLayout;
    gridHost_ = new QWidget;
    grid_ = new QGridLayout(gridHost_);
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setSpacing(6);
    row->addWidget(gridHost_, 0, Qt::AlignTop);
    auto* right = new QVBoxLayout;
    largeTitle_ = new QLabel;
    large_ = new ImageCanvas(kLargeSide);
    large_->setObjectName(QStringLiteral("imageHeadLarge"));
    right->addWidget(largeTitle_);
    right->addWidget(large_, 0, Qt::AlignTop | Qt::AlignLeft);
    right->addStretch(1);
    row->addLayout(right, 1);
    layout->addLayout(row, 1);
    clearView();
}

QString ImageHeadsView::viewTitle() const { return tr("Heads"); }

QString ImageHeadsView::viewToolTip() const {
    return tr("Every layer's and head's attention from the class token over the patches of the image shown.");
}

std::vector<float> ImageHeadsView::clsRow(const AttentionMap& head) {
    std::vector<float> row;
    if (head.rows < 1 || head.cols < 2 || head.weights.size() < static_cast<std::size_t>(head.cols)) return row;
    row.assign(head.weights.begin() + 1, head.weights.begin() + head.cols);  // row 0 ([CLS]) without [CLS] itself
    const double total = std::accumulate(row.begin(), row.end(), 0.0);
    if (total > 0)
        for (float& w : row) w = static_cast<float>(w / total);
    return row;
}

void ImageHeadsView::clearView() {
    result_.reset();
    for (auto* c : cells_) c->deleteLater();
    for (auto* l : labels_) l->deleteLater();
    cells_.clear();
    labels_.clear();
    large_->clear();
    largeTitle_->clear();
    message_->setText(tr("Train or open a ViT and look at an image: each of its heads appears here."));
}

void ImageHeadsView::modelAvailable(bool available) {
    if (!available) clearView();
}

void ImageHeadsView::setNoHeads(const QString& why) {
    clearView();
    message_->setText(why);
}

void ImageHeadsView::applyColormap(ColormapId id) {
    style_.colormap = id;
    if (result_) rebuild();
}

int ImageHeadsView::layers() const { return result_ ? static_cast<int>(result_->encoder.size()) : 0; }

int ImageHeadsView::headsPerLayer() const {
    return result_ && !result_->encoder.empty() ? static_cast<int>(result_->encoder.front().size()) : 0;
}

QString ImageHeadsView::messageText() const { return message_->text(); }

void ImageHeadsView::setClassification(const Image& image, const ImageClassification& c) {
    const bool sameShape = result_ && result_->encoder.size() == c.encoder.size() &&
                           (c.encoder.empty() || result_->encoder.front().size() == c.encoder.front().size());
    image_ = image;
    result_ = c;
    if (!sameShape) {
        layer_ = 0;
        head_ = 0;
    }
    message_->setText(tr("%1 (p = %2): each head's attention from the class token over the patches, rows = layers, "
                         "columns = heads. Click one to enlarge it.")
                          .arg(QString::fromStdString(c.label))
                          .arg(c.labelIndex >= 0 && c.labelIndex < static_cast<int>(c.probabilities.size())
                                   ? c.probabilities[static_cast<std::size_t>(c.labelIndex)]
                                   : 0.0,
                               0, 'f', 3));
    rebuild();
}

void ImageHeadsView::rebuild() {
    if (!result_) return;
    const ImageClassification& c = *result_;
    const int L = layers(), H = headsPerLayer();
    if (static_cast<int>(cells_.size()) != L * H) {
        for (auto* cell : cells_) cell->deleteLater();
        for (auto* l : labels_) l->deleteLater();
        cells_.clear();
        labels_.clear();
        for (int h = 0; h < H; ++h) {
            auto* label = new QLabel(tr("head %1").arg(h + 1));
            label->setAlignment(Qt::AlignCenter);
            grid_->addWidget(label, 0, h + 1);
            labels_.push_back(label);
        }
        for (int l = 0; l < L; ++l) {
            auto* label = new QLabel(tr("layer %1").arg(l + 1));
            grid_->addWidget(label, l + 1, 0);
            labels_.push_back(label);
            for (int h = 0; h < H; ++h) {
                auto* cell = new ImageCanvas(kCellSide);
                cell->setObjectName(QStringLiteral("imageHead_%1_%2").arg(l).arg(h));
                cell->setToolTip(tr("Layer %1, head %2: click to enlarge").arg(l + 1).arg(h + 1));
                connect(cell, &ImageCanvas::clicked, this, [this, l, h](int) { enlarge(l, h); });
                grid_->addWidget(cell, l + 1, h + 1);
                cells_.push_back(cell);
            }
        }
    }
    for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
            ImageCanvas* cell = cells_[static_cast<std::size_t>(l * H + h)];
            cell->setPicture(overlayImage(image_, clsRow(c.encoder[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)]),
                                          c.gridRows, c.gridCols, style_, kCellSide),
                             c.gridRows, c.gridCols);
        }
    redrawLarge();
}

void ImageHeadsView::enlarge(int layer, int head) {
    if (layer < 0 || layer >= layers() || head < 0 || head >= headsPerLayer()) return;
    layer_ = layer;
    head_ = head;
    redrawLarge();
}

void ImageHeadsView::redrawLarge() {
    if (!result_ || layer_ >= layers() || head_ >= headsPerLayer()) return;
    const ImageClassification& c = *result_;
    largeTitle_->setText(tr("<b>Layer %1, head %2</b>").arg(layer_ + 1).arg(head_ + 1));
    large_->setPicture(overlayImage(image_, clsRow(c.encoder[static_cast<std::size_t>(layer_)][static_cast<std::size_t>(head_)]),
                                    c.gridRows, c.gridCols, style_, kLargeSide),
                       c.gridRows, c.gridCols);
}

bool ImageHeadsView::exportView(const QString& path, double scale, QString* error) const {
    if (!result_) return fail(error, tr("Look at an image with a ViT first"));
    if (isMatrixPath(path)) return fail(error, tr("The heads are exported as PNG, SVG or PDF"));
    std::vector<std::vector<float>> maps;
    QStringList labels;
    for (int l = 0; l < layers(); ++l)
        for (int h = 0; h < headsPerLayer(); ++h) {
            maps.push_back(clsRow(result_->encoder[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)]));
            labels << tr("layer %1, head %2").arg(l + 1).arg(h + 1);
        }
    return FigureWriter::report(
        FigureWriter::write(path, imageAttentionStrip(image_, maps, labels, result_->gridRows, result_->gridCols, style_), scale),
        error);
}

}  // namespace attnlab
