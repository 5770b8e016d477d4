#include "views/image/ImageView.h"
#include "views/image/ImageCanvas.h"
#include "widgets/ProbabilityTable.h"
#include "widgets/WidgetStyle.h"
#include "base/vision/ImageAttention.h"
#include "base/vision/ImageFiles.h"
#include <QHeaderView>
#include <QCheckBox>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <numeric>

namespace attnlab {

namespace {

constexpr int kShownClasses = 5;
constexpr int kCanvasSide = 384;  // the overlay is composited at this size and drawn crisp
constexpr qint64 kMaxImageFile = 64 * 1024 * 1024;

void renormalise(std::vector<float>& v) {
    double sum = 0;
    for (float x : v) sum += std::max(0.0f, x);
    if (sum > 0)
        for (float& x : v) x = static_cast<float>(std::max(0.0f, x) / sum);
}

int argmax(const std::vector<float>& v) {
    return v.empty() ? -1 : static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

QIcon thumbnail(const Image& image) {
    return QIcon(QPixmap::fromImage(overlayImage(image, {}, 0, 0, OverlayStyle(), 56)));
}

}  // namespace

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
    setAcceptDrops(true);
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    open_ = new QPushButton(tr("Open Image…"));
    open_->setObjectName(QStringLiteral("openImage"));
    open_->setToolTip(tr("A PNG or JPEG file; you can also drop one on this view."));
    name_ = new QLabel;
    error_ = new QLabel;
    error_->setObjectName(QStringLiteral("imageError"));
    error_->setStyleSheet(QStringLiteral("color: #b00020"));
    error_->hide();
    top->addWidget(open_);
    top->addWidget(name_);
    top->addWidget(error_, 1);
    top->addStretch(0);
    layout->addLayout(top);
    placeholder_ = makePlaceholderLabel();
    placeholder_->setText(tr("Train a model (Run > Start, F5) or open one: where it looks in the image appears "
                             "here, and changes as it learns."));
    layout->addWidget(placeholder_);
    wordsRow_ = new QWidget;
    wordsRow_->setObjectName(QStringLiteral("captionWords"));
    auto* wordsLayout = new QHBoxLayout(wordsRow_);
    wordsLayout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(wordsRow_);
    mapLabel_ = new QLabel;
    mapLabel_->setObjectName(QStringLiteral("captionMapLabel"));
    mapLabel_->setWordWrap(true);
    mapLabel_->setToolTip(tr("The decoder reads the word it wrote last, then asks over the cells: this map is the "
                             "attention of the step that wrote the chosen word, read together with the decoder's "
                             "state to choose it."));
    layout->addWidget(mapLabel_);

    auto* middle = new QHBoxLayout;
    canvas_ = new ImageCanvas(kCanvasSide);
    canvas_->setObjectName(QStringLiteral("imageCanvas"));
    middle->addWidget(canvas_, 3);
    auto* side = new QVBoxLayout;
    label_ = new QLabel;
    label_->setTextFormat(Qt::RichText);
    label_->setWordWrap(true);
    scaleFont(label_, 1.5);
    side->addWidget(label_);
    probabilities_ = ProbabilityTable::make();
    probabilities_->setMaximumWidth(340);
    side->addWidget(probabilities_);
    inBoxTitle_ = new QLabel(tr("<b>In the objects' boxes</b>: each word's share of attention; ● its peak"));
    inBoxTitle_->setWordWrap(true);
    inBoxTitle_->setToolTip(tr("Each word's class, and whether its attention peaks on its own object: a colour or "
                               "shape word's (and the article before them) is the object the phrase names; a "
                               "relation word's, either object it stands between. Then the share of the word's "
                               "attention inside each object's box (uniform attention would give the box's share "
                               "of the image). ● marks the object where the word's attention peaks: the peak "
                               "cell's centre inside the box or within half a cell of it."));
    side->addWidget(inBoxTitle_);
    inBox_ = new QTableWidget;
    inBox_->setObjectName(QStringLiteral("inBoxTable"));
    inBox_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    inBox_->setSelectionBehavior(QAbstractItemView::SelectRows);
    inBox_->setSelectionMode(QAbstractItemView::SingleSelection);
    inBox_->verticalHeader()->setVisible(false);
    inBox_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    inBox_->setMaximumWidth(340);
    side->addWidget(inBox_);
    inBoxSummary_ = new QLabel;
    inBoxSummary_->setObjectName(QStringLiteral("inBoxSummary"));
    inBoxSummary_->setWordWrap(true);
    side->addWidget(inBoxSummary_);
    auto* controls = new QHBoxLayout;
    selector_ = new QComboBox;
    selector_->setObjectName(QStringLiteral("imageSelection"));
    selector_->setToolTip(tr("The rollout multiplies every layer's head-averaged attention (with the residual); a "
                             "layer's [CLS] row is what the classifying token reads there."));
    selector_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    selector_->setMinimumContentsLength(16);  // the list shows every entry in full
    opacity_ = new QSlider(Qt::Horizontal);
    opacity_->setRange(0, 100);
    opacity_->setValue(60);
    opacity_->setToolTip(tr("How strongly the attention covers the image."));
    smooth_ = new QCheckBox(tr("Smooth (bilinear)"));
    smooth_->setChecked(true);
    smooth_->setToolTip(tr("Off: each patch is one crisp square of its weight."));
    colormap_ = new QComboBox;
    for (ColormapId id : Colormap::all()) colormap_->addItem(Colormap::nameOf(id), static_cast<int>(id));
    colormap_->setCurrentIndex(colormap_->findData(static_cast<int>(ColormapId::Magma)));
    opacity_->setMinimumWidth(80);  // usable on a 1024-pixel projector too
    opacity_->setMaximumWidth(140);
    showLabel_ = new QLabel(tr("Show:"));
    controls->addWidget(showLabel_);
    controls->addWidget(selector_);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Opacity:")));
    controls->addWidget(opacity_);
    controls->addWidget(smooth_);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Colours:")));
    controls->addWidget(colormap_);
    controls->addStretch(1);
    layout->insertLayout(layout->indexOf(wordsRow_), controls);
    hoverTitle_ = new QLabel(tr("<b>Attended by</b>: which patches look at the one under the mouse"));
    hoverTitle_->setWordWrap(true);
    side->addWidget(hoverTitle_);
    attendedBy_ = new ImageCanvas(128);
    attendedBy_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    attendedBy_->setFixedSize(128, 128);
    side->addWidget(attendedBy_);
    hoverStatus_ = new QLabel;
    hoverStatus_->setObjectName(QStringLiteral("hoverStatus"));
    hoverStatus_->setWordWrap(true);
    side->addWidget(hoverStatus_);
    side->addStretch(1);
    middle->addLayout(side, 2);
    layout->addLayout(middle, 1);

    stripTitle_ = new QLabel(tr("<b>Every word</b>: where the captioner looked while writing it"));
    layout->addWidget(stripTitle_);
    strip_ = new FigureCanvas;
    // The strip is as wide as the caption is long: it scrolls sideways in its own row, so that the
    // view keeps the window's width (a 1024-pixel projector).
    stripArea_ = new QScrollArea;
    stripArea_->setObjectName(QStringLiteral("captionStripArea"));
    stripArea_->setWidget(strip_);
    stripArea_->setFrameShape(QFrame::NoFrame);
    stripArea_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    stripArea_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    layout->addWidget(stripArea_);
    layout->addWidget(new QLabel(tr("<b>Dataset</b>: pick an image to look at")));
    browser_ = new QListWidget;
    browser_->setObjectName(QStringLiteral("imageBrowser"));
    browser_->setViewMode(QListView::IconMode);
    browser_->setFlow(QListView::LeftToRight);
    browser_->setWrapping(false);
    browser_->setIconSize(QSize(56, 56));
    browser_->setFixedHeight(96);
    browser_->setMovement(QListView::Static);
    layout->addWidget(browser_);

    connect(open_, &QPushButton::clicked, this, &ImageView::chooseFile);
    connect(selector_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    connect(opacity_, &QSlider::valueChanged, this, [this] { redraw(); });
    connect(smooth_, &QCheckBox::toggled, this, [this] { redraw(); });
    connect(colormap_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    connect(canvas_, &ImageCanvas::hovered, this, &ImageView::hoverCell);
    connect(browser_, &QListWidget::currentRowChanged, this, &ImageView::selectDatasetImage);
    connect(inBox_, &QTableWidget::cellClicked, this, [this](int row, int) { selectWord(row); });
    clearView();
}

QString ImageView::viewTitle() const { return tr("Image"); }

QString ImageView::viewToolTip() const {
    return tr("An image with the model's attention over it: a ViT's rollout, layers and heads, or a captioner's "
              "attention word by word.");
}

OverlayStyle ImageView::style() const {
    OverlayStyle s;
    s.opacity = opacity_->value() / 100.0;
    s.smooth = smooth_->isChecked();
    s.colormap = static_cast<ColormapId>(colormap_->currentData().toInt());
    return s;
}

void ImageView::clearView() {
    classification_.reset();
    captioning_.reset();
    shown_.clear();
    hoverRow_.clear();
    hoverColumn_.clear();
    hovered_ = -1;
    word_ = 0;
    label_->clear();
    probabilities_->setRowCount(0);
    error_->hide();
    rebuildSelector();
    rebuildWords();
    redraw();
}

void ImageView::modelAvailable(bool available) {
    if (!available) clearView();
}

void ImageView::applyColormap(ColormapId id) {
    const int index = colormap_->findData(static_cast<int>(id));
    if (index >= 0) colormap_->setCurrentIndex(index);
}

void ImageView::setImage(const Image& image, const QString& name, std::vector<SceneObject> objects,
                         std::optional<Box> box) {
    image_ = image;
    objects_ = std::move(objects);
    box_ = box;
    imageName_ = name;
    name_->setText(name);
    error_->hide();
    // The answers were for the previous image: keep the model's kind, drop its numbers.
    classification_.reset();
    captioning_.reset();
    rebuildWords();
    redraw();
    Q_EMIT imageChosen(image_);
}

bool ImageView::openImageFile(const QString& path) {
    const QString file = QFileInfo(path).fileName();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        setFailed(tr("%1: cannot be read (%2)").arg(file, f.errorString()));
        return false;
    }
    if (f.size() > kMaxImageFile) {
        setFailed(tr("%1: larger than 64 MiB, not opened").arg(file));
        return false;
    }
    const QByteArray bytes = f.readAll();
    try {
        // In colour, whatever the dataset shown: the model converts it to its own channels when it
        // looks (a grey ViT averages them), and a colour scene stays a colour scene for a captioner
        // opened over a grey dataset.
        Image image = decodeImage(std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                  file.toStdString(), 3);
        lastDirectory_ = QFileInfo(path).absolutePath();
        // A scene written with its objects (DIR/images/NAME beside DIR/objects.tsv, as `datasets
        // --write scenes` and other generators write them): its words are scored against them.
        std::vector<SceneObject> objects;
        const auto [tsv, name] = objectsFileFor(QFileInfo(path).absoluteFilePath().toStdString());
        if (!tsv.empty()) objects = readSceneObjects(tsv, name);
        setImage(image, file, std::move(objects));
        return true;
    } catch (const std::exception& e) {
        setFailed(QString::fromStdString(e.what()).section(QLatin1Char('\n'), 0, 0));
        return false;
    }
}

void ImageView::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Image"), lastDirectory_,
                                                      tr("Images (*.png *.jpg *.jpeg);;All files (*)"));
    if (!path.isEmpty()) openImageFile(path);
}

void ImageView::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile() &&
        !urls.front().toLocalFile().endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive))
        event->acceptProposedAction();
}

void ImageView::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1) return;
    openImageFile(urls.front().toLocalFile());
    event->acceptProposedAction();
}

void ImageView::setDataset(std::shared_ptr<const ImageDataset> images) {
    images_ = std::move(images);
    captions_.reset();
    fillBrowser();
}

void ImageView::setDataset(std::shared_ptr<const CaptionDataset> captions) {
    captions_ = std::move(captions);
    images_.reset();
    words_ = {};
    if (captions_)
        for (const auto& objects : captions_->objects) words_.add(objects);
    fillBrowser();
}

void ImageView::fillBrowser() {
    const QSignalBlocker quiet(browser_);
    browser_->clear();
    const std::vector<Image>* list = images_ ? &images_->images : captions_ ? &captions_->images : nullptr;
    if (!list) return;
    const int n = std::min(static_cast<int>(list->size()), kBrowserImages);
    for (int i = 0; i < n; ++i) {
        auto* item = new QListWidgetItem(thumbnail((*list)[static_cast<std::size_t>(i)]), QString());
        QString tip = tr("Image %1").arg(i + 1);
        if (images_ && i < static_cast<int>(images_->labels.size())) {
            const int label = images_->labels[static_cast<std::size_t>(i)];
            if (label >= 0 && label < static_cast<int>(images_->classes.size()))
                tip += QStringLiteral(": ") + QString::fromStdString(images_->classes[static_cast<std::size_t>(label)]);
        } else if (captions_ && i < static_cast<int>(captions_->captions.size()) &&
                   !captions_->captions[static_cast<std::size_t>(i)].empty()) {
            tip += QStringLiteral(": ") + QString::fromStdString(captions_->captions[static_cast<std::size_t>(i)].front());
        }
        item->setToolTip(tip);
        browser_->addItem(item);
    }
}

void ImageView::selectDatasetImage(int index) {
    const std::vector<Image>* list = images_ ? &images_->images : captions_ ? &captions_->images : nullptr;
    if (!list || index < 0 || index >= static_cast<int>(list->size())) return;
    if (browser_->currentRow() != index && index < browser_->count()) {
        const QSignalBlocker quiet(browser_);
        browser_->setCurrentRow(index);
    }
    const QString source = QString::fromStdString(images_ ? images_->name : captions_->name);
    std::vector<SceneObject> objects;
    if (captions_ && index < static_cast<int>(captions_->objects.size())) objects = captions_->objects[static_cast<std::size_t>(index)];
    std::optional<Box> box;
    if (images_ && index < static_cast<int>(images_->boxes.size())) box = images_->boxes[static_cast<std::size_t>(index)];
    setImage((*list)[static_cast<std::size_t>(index)], tr("%1, image %2").arg(source).arg(index + 1), std::move(objects),
             box);
}

void ImageView::setFailed(const QString& message) {
    error_->setText(message);
    error_->setToolTip(message);
    error_->show();
}

QString ImageView::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

void ImageView::setClassification(const ImageClassification& c) {
    const bool sameShape = classification_ && classification_->encoder.size() == c.encoder.size() &&
                           (c.encoder.empty() || classification_->encoder.front().size() == c.encoder.front().size());
    classification_ = c;
    captioning_.reset();
    error_->hide();
    const double p = ProbabilityTable::of(c.probabilities, c.labelIndex);
    label_->setText(tr("<b>%1</b> &nbsp; p = %2").arg(QString::fromStdString(c.label).toHtmlEscaped()).arg(p, 0, 'f', 3));
    ProbabilityTable::show(probabilities_, c.probabilities, classes_, kShownClasses);  // most probable first
    if (!sameShape) rebuildSelector();
    rebuildWords();
    redraw();
}

void ImageView::setCaptioning(const Captioning& c) {
    const bool keepWord = captioning_ && captioning_->tokens == c.tokens;
    captioning_ = c;
    classification_.reset();
    error_->hide();
    if (!keepWord) word_ = 0;
    label_->setText(QStringLiteral("<b>%1</b>").arg(
        QString::fromStdString(std::accumulate(c.tokens.begin(), c.tokens.end(), std::string(),
                                               [](const std::string& a, const std::string& b) {
                                                   return a.empty() ? b : a + ' ' + b;
                                               }))
            .toHtmlEscaped()));
    probabilities_->setRowCount(0);
    rebuildSelector();
    rebuildWords();
    redraw();
}

int ImageView::wordCount() const { return captioning_ ? static_cast<int>(captioning_->tokens.size()) : 0; }

void ImageView::rebuildWords() {
    for (QToolButton* b : wordsRow_->findChildren<QToolButton*>()) delete b;
    auto* layout = static_cast<QHBoxLayout*>(wordsRow_->layout());
    while (layout->count() > 0) delete layout->takeAt(0);
    wordsRow_->setVisible(captioning_.has_value());
    rebuildInBox();
    if (!captioning_) return;
    for (int i = 0; i < static_cast<int>(captioning_->tokens.size()); ++i) {
        auto* b = new QToolButton;
        b->setText(QString::fromStdString(captioning_->tokens[static_cast<std::size_t>(i)]));
        b->setCheckable(true);
        b->setChecked(i == word_);
        b->setAutoRaise(true);
        scaleFont(b, 1.3);
        b->setToolTip(tr("Show where the captioner looked while writing this word"));
        connect(b, &QToolButton::clicked, this, [this, i] { selectWord(i); });
        layout->addWidget(b);
    }
    layout->addStretch(1);
}


namespace {

QString wordClassText(CaptionWordClass c) {
    switch (c) {
        case CaptionWordClass::Article: return ImageView::tr("article");
        case CaptionWordClass::Colour: return ImageView::tr("colour");
        case CaptionWordClass::Shape: return ImageView::tr("shape");
        case CaptionWordClass::Relation: break;
    }
    return ImageView::tr("relation");
}

}  // namespace

void ImageView::rebuildInBox() {
    const bool show = captioning_.has_value() && !objects_.empty();
    inBoxTitle_->setVisible(show);
    inBox_->setVisible(show);
    inBoxSummary_->setVisible(show);
    inBox_->clear();
    inBox_->setRowCount(0);
    inBox_->setColumnCount(0);
    inBoxSummary_->clear();
    grounding_.reset();
    if (!show) return;
    const Captioning& c = *captioning_;
    std::vector<Box> boxes;
    std::vector<SceneObject> scaled = objects_;  // in the model's pixels, as its maps are
    QStringList headers{tr("Word"), tr("Class"), tr("Own object")};
    constexpr int kFirstObject = 3;
    for (std::size_t k = 0; k < objects_.size(); ++k) {
        scaled[k].box = scaleBox(objects_[k].box, image_.height, image_.width, c.imageHeight, c.imageWidth);
        boxes.push_back(scaled[k].box);
        headers << QString::fromStdString(objects_[k].colour + " " + objects_[k].shape);
    }
    grounding_ = groundCaption(c.tokens, c.attention, c.gridRows, c.gridCols, c.imageHeight, c.imageWidth, scaled, words_);
    inBox_->setColumnCount(static_cast<int>(headers.size()));
    inBox_->setHorizontalHeaderLabels(headers);
    inBox_->setRowCount(static_cast<int>(c.tokens.size()));
    for (std::size_t t = 0; t < c.tokens.size() && t < c.attention.size(); ++t) {
        const std::vector<BoxAttention> on =
            attentionOnBoxes(c.attention[t], c.gridRows, c.gridCols, c.imageHeight, c.imageWidth, boxes);
        const int row = static_cast<int>(t);
        const QString word = QString::fromStdString(c.tokens[t]);
        inBox_->setItem(row, 0, new QTableWidgetItem(word));
        const GroundedWord* g = t < grounding_->words.size() ? &grounding_->words[t] : nullptr;
        inBox_->setItem(row, 1, new QTableWidgetItem(g ? wordClassText(g->wordClass) : QString()));
        auto* own = new QTableWidgetItem(!g || g->objects.empty() ? QStringLiteral("–") : g->peakNear ? tr("yes") : tr("no"));
        own->setTextAlignment(Qt::AlignCenter);
        own->setToolTip(!g || g->objects.empty()
                            ? tr("\"%1\" belongs to no object of this scene").arg(word)
                            : g->peakNear ? tr("\"%1\" peaks on the object it belongs to").arg(word)
                                          : tr("\"%1\" peaks away from the object it belongs to").arg(word));
        inBox_->setItem(row, 2, own);
        for (std::size_t k = 0; k < on.size(); ++k) {
            auto* item = new QTableWidgetItem((on[k].peakNear ? QStringLiteral("● ") : QString()) +
                                              QString::number(on[k].mass, 'f', 2));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(tr("%1 of the attention of \"%2\" is in the box of the %3 (uniform: %4)%5")
                                 .arg(QString::number(on[k].mass, 'f', 3), word,
                                      headers[static_cast<int>(k) + kFirstObject], QString::number(on[k].share, 'f', 3),
                                      on[k].peakNear ? tr("; its peak is there") : QString()));
            if (on[k].peakNear) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            inBox_->setItem(row, static_cast<int>(k) + kFirstObject, item);
        }
    }
    if (grounding_->objectsNamed == 0) {
        inBoxSummary_->setText(tr("The caption names none of the objects."));
        return;
    }
    QStringList parts;
    const std::pair<const char*, QString> classes[] = {{"shape", tr("shape words")},
                                                       {"colour", tr("colour words")},
                                                       {"article", tr("articles")},
                                                       {"relation", tr("relation words")},
                                                       {"phrase", tr("phrases (colour + shape)")}};
    for (const auto& [key, name] : classes) {
        const auto it = grounding_->shares.find(key);
        if (it == grounding_->shares.end() || it->second.words == 0) continue;
        parts << tr("%1 %2 of %3").arg(name).arg(it->second.near).arg(it->second.words);
    }
    inBoxSummary_->setText(tr("Peaks on the word's own object: %1").arg(parts.join(QStringLiteral(" · "))));
}

QString ImageView::mapLabel() const { return mapLabel_->isHidden() ? QString() : mapLabel_->text(); }

QString ImageView::inBoxSummary() const { return inBoxSummary_->isHidden() ? QString() : inBoxSummary_->text(); }

void ImageView::selectWord(int index) {
    if (!captioning_ || index < 0 || index >= wordCount()) return;
    word_ = index;
    const QList<QToolButton*> buttons = wordsRow_->findChildren<QToolButton*>();
    for (int i = 0; i < buttons.size(); ++i) buttons[i]->setChecked(i == word_);
    redraw();
}

int ImageView::selectionCount() const { return selector_->count(); }

void ImageView::setSelection(int index) {
    if (index >= 0 && index < selector_->count()) selector_->setCurrentIndex(index);
}

void ImageView::rebuildSelector() {
    const QSignalBlocker quiet(selector_);
    const QPoint previous = selector_->count() > 0 ? selector_->currentData().toPoint() : QPoint(-1, -1);
    selector_->clear();
    const bool vit = classification_.has_value();
    selector_->setEnabled(vit);
    selector_->setVisible(!captioning_);  // a captioner's choice is its words
    showLabel_->setVisible(!captioning_);
    if (!vit) return;
    selector_->addItem(tr("Rollout"), QPoint(-1, -1));
    const int layers = static_cast<int>(classification_->encoder.size());
    for (int l = 0; l < layers; ++l)
        selector_->addItem(tr("Layer %1, heads averaged ([CLS] row)").arg(l + 1), QPoint(l, -1));
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < static_cast<int>(classification_->encoder[static_cast<std::size_t>(l)].size()); ++h)
            selector_->addItem(tr("Layer %1, head %2").arg(l + 1).arg(h + 1), QPoint(l, h));
    const int again = selector_->findData(previous);
    selector_->setCurrentIndex(again >= 0 ? again : 0);
}

std::vector<float> ImageView::selectedMap(int* size) const {
    *size = 0;
    if (!classification_ || classification_->encoder.empty()) return {};
    const QPoint choice = selector_->currentData().toPoint();
    const auto& layers = classification_->encoder;
    const int layer = choice.x() >= 0 && choice.x() < static_cast<int>(layers.size()) ? choice.x()
                                                                                       : static_cast<int>(layers.size()) - 1;
    const auto& heads = layers[static_cast<std::size_t>(layer)];
    if (heads.empty()) return {};
    const int n = heads.front().rows;
    if (n <= 1 || heads.front().cols != n) return {};
    std::vector<float> out(static_cast<std::size_t>(n) * n, 0.0f);
    if (choice.y() >= 0 && choice.y() < static_cast<int>(heads.size())) {
        const AttentionMap& m = heads[static_cast<std::size_t>(choice.y())];
        if (m.weights.size() != out.size()) return {};
        out = m.weights;
    } else {  // heads averaged
        for (const AttentionMap& m : heads) {
            if (m.weights.size() != out.size()) return {};
            for (std::size_t i = 0; i < out.size(); ++i) out[i] += m.weights[i] / static_cast<float>(heads.size());
        }
    }
    *size = n;
    return out;
}

void ImageView::hoverCell(int cell) {
    hovered_ = cell;
    redraw();
}

QString ImageView::hoverStatus() const { return hoverStatus_->text(); }

void ImageView::redraw() {
    shown_.clear();
    hoverRow_.clear();
    hoverColumn_.clear();
    int rows = 0, cols = 0;
    const bool hasImage = !image_.pixels.empty();
    placeholder_->setVisible(!classification_ && !captioning_);
    const bool vit = classification_.has_value();
    probabilities_->setVisible(vit);
    hoverTitle_->setVisible(vit);
    attendedBy_->setVisible(vit);
    stripTitle_->setVisible(captioning_.has_value());
    stripArea_->setVisible(captioning_.has_value());
    mapLabel_->setVisible(captioning_.has_value() && word_ >= 0 && word_ < wordCount());
    if (vit) {
        const ImageClassification& c = *classification_;
        rows = c.gridRows;
        cols = c.gridCols;
        const int patches = rows * cols;
        const QPoint choice = selector_->currentData().toPoint();
        int n = 0;
        const std::vector<float> map = selectedMap(&n);
        if (choice.x() < 0) {
            shown_ = c.rollout;
        } else if (choice.y() < 0 && choice.x() < static_cast<int>(c.clsRows.size())) {
            shown_ = c.clsRows[static_cast<std::size_t>(choice.x())];
        } else if (n == patches + 1) {
            shown_.assign(map.begin() + 1, map.begin() + n);  // [CLS]'s row over the patches
            renormalise(shown_);
        }
        if (hovered_ >= 0 && hovered_ < patches && n == patches + 1) {
            const std::size_t token = static_cast<std::size_t>(hovered_) + 1;
            hoverRow_.assign(map.begin() + static_cast<std::ptrdiff_t>(token * n + 1),
                             map.begin() + static_cast<std::ptrdiff_t>(token * n + n));
            renormalise(hoverRow_);
            for (int q = 1; q < n; ++q) hoverColumn_.push_back(map[static_cast<std::size_t>(q) * n + token]);
            shown_ = hoverRow_;
        }
        attendedBy_->setPicture(overlayImage(image_, hoverColumn_, rows, cols, style(), 128), rows, cols);
        attendedBy_->setMarked(hoverColumn_.empty() ? -1 : hovered_);
    } else if (captioning_) {
        const Captioning& c = *captioning_;
        rows = c.gridRows;
        cols = c.gridCols;
        if (word_ >= 0 && word_ < static_cast<int>(c.attention.size())) shown_ = c.attention[static_cast<std::size_t>(word_)];
        if (word_ >= 0 && word_ < wordCount())
            mapLabel_->setText(tr("<b>While writing “%1”</b> (word %2 of %3): where the captioner looked to choose it")
                                   .arg(QString::fromStdString(c.tokens[static_cast<std::size_t>(word_)]).toHtmlEscaped())
                                   .arg(word_ + 1)
                                   .arg(wordCount()));
        QStringList words;
        for (const std::string& t : c.tokens) words << QString::fromStdString(t);
        strip_->setFigure(imageAttentionStrip(image_, c.attention, words, rows, cols, style(), 120));
        stripArea_->setFixedHeight(strip_->height() + stripArea_->horizontalScrollBar()->sizeHint().height() + 2);
    }
    if (!captioning_) strip_->clear();
    std::vector<ImageCanvas::Outline> outlines;
    int highlighted = -1;
    if (captioning_ && !objects_.empty() && image_.height > 0 && image_.width > 0) {
        for (const SceneObject& o : objects_)
            outlines.push_back({QRectF(static_cast<double>(o.box.left) / image_.width, static_cast<double>(o.box.top) / image_.height,
                                       static_cast<double>(o.box.width) / image_.width, static_cast<double>(o.box.height) / image_.height),
                                QString::fromStdString(o.colour + " " + o.shape)});
        if (word_ >= 0 && word_ < wordCount()) highlighted = namedObject(captioning_->tokens, static_cast<std::size_t>(word_), objects_);
        if (word_ < inBox_->rowCount() && inBox_->currentRow() != word_) {
            const QSignalBlocker quiet(inBox_);
            inBox_->selectRow(word_);
        }
    }
    canvas_->setOutlines(std::move(outlines), highlighted);
    if (hasImage)
        canvas_->setPicture(overlayImage(image_, shown_, rows, cols, style(), kCanvasSide), rows, cols);
    else
        canvas_->clear();
    canvas_->setMarked(hovered_ >= 0 && hovered_ < rows * cols ? hovered_ : -1);
    updateHoverStatus();
}

void ImageView::updateHoverStatus() {
    const int rows = classification_ ? classification_->gridRows : captioning_ ? captioning_->gridRows : 0;
    const int cols = classification_ ? classification_->gridCols : captioning_ ? captioning_->gridCols : 0;
    if (hovered_ < 0 || hovered_ >= rows * cols || cols <= 0) {
        hoverStatus_->setText(classification_ ? tr("Hover a patch: what it attends to is drawn on the image, what "
                                                   "attends to it above.")
                                              : QString());
        return;
    }
    const int r = hovered_ / cols + 1, c = hovered_ % cols + 1;
    if (classification_ && !hoverRow_.empty()) {
        const int to = argmax(hoverRow_), from = argmax(hoverColumn_);
        hoverStatus_->setText(tr("Patch (row %1, column %2) looks most at patch (row %3, column %4), %5 of its "
                                 "attention; the patch looking at it most is (row %6, column %7).")
                                  .arg(r)
                                  .arg(c)
                                  .arg(to / cols + 1)
                                  .arg(to % cols + 1)
                                  .arg(hoverRow_[static_cast<std::size_t>(to)], 0, 'f', 2)
                                  .arg(from / cols + 1)
                                  .arg(from % cols + 1));
    } else if (!shown_.empty() && static_cast<int>(shown_.size()) == rows * cols) {
        hoverStatus_->setText(tr("Cell (row %1, column %2): weight %3")
                                  .arg(r)
                                  .arg(c)
                                  .arg(shown_[static_cast<std::size_t>(hovered_)], 0, 'f', 3));
    } else {
        hoverStatus_->clear();
    }
}

bool ImageView::exportView(const QString& path, double scale, QString* error) const {
    if (!classification_ && !captioning_) return fail(error, tr("Look at an image with a model first"));
    if (isMatrixPath(path)) return fail(error, tr("The Image view is exported as PNG, SVG or PDF"));
    if (captioning_) {
        const Captioning& c = *captioning_;
        QStringList words;
        for (const std::string& t : c.tokens) words << QString::fromStdString(t);
        return FigureWriter::report(
            FigureWriter::write(path, imageAttentionStrip(image_, c.attention, words, c.gridRows, c.gridCols, style()),
                                scale),
            error);
    }
    const ImageClassification& c = *classification_;
    const double p = ProbabilityTable::of(c.probabilities, c.labelIndex);
    const QString caption =
        tr("%1 (p = %2) · %3").arg(QString::fromStdString(c.label)).arg(p, 0, 'f', 3).arg(selector_->currentText());
    return FigureWriter::report(
        FigureWriter::write(path, imageAttentionFigure(image_, shown_, c.gridRows, c.gridCols, style(), caption), scale),
        error);
}

}  // namespace attnlab
