#include "views/timeline/TimelineView.h"

#include "widgets/AttentionPanel.h"
#include "widgets/HeatmapWidget.h"

#include "widgets/FigureDialog.h"
#include "render/HeatmapRenderer.h"
#include "widgets/WidgetStyle.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QStandardPaths>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

// Every panel (and every frame of a sequence) uses one cell size, so that frames compare and a video
// does not zoom as the output's length changes. The newest map sets it (its longest side gets about
// `extent` pixels): an untrained model's output runs to the maximum length, and sizing every panel for
// that would shrink the trained maps that matter. Panels are as large as the largest map needs, up to
// 1.5 times the newest one's size; a larger map is drawn smaller within that.
constexpr double kPanelExtent = 280.0;
constexpr double kFrameExtent = 480.0;

struct PanelScale {
    double cell = 12.0;
    QSize size;
};

PanelScale panelScale(const std::vector<HeatmapRenderer>& renderers, double extent, double low, double high,
                      QSize minimum) {
    PanelScale scale;
    scale.size = minimum;
    const auto newest = std::find_if(renderers.rbegin(), renderers.rend(),
                                     [](const HeatmapRenderer& r) { return !r.isEmpty(); });
    if (newest == renderers.rend()) return scale;
    scale.cell = std::clamp(std::floor(extent / std::max(newest->rows(), newest->columns())), low, high);
    const QSize cap = newest->preferredSize(scale.cell) * 1.5;
    for (const HeatmapRenderer& r : renderers)
        if (!r.isEmpty()) scale.size = scale.size.expandedTo(r.preferredSize(scale.cell).boundedTo(cap));
    return scale;
}

// Where a renderer draws inside its panel: its own size at the common cell size, top-centred, so that
// the cells of every panel are the same size and the titles line up.
QRectF placed(const HeatmapRenderer& renderer, const QRectF& panel, double cell) {
    if (renderer.isEmpty()) return panel;
    const QSizeF size = QSizeF(renderer.preferredSize(cell)).boundedTo(panel.size());
    return QRectF(QPointF(panel.left() + (panel.width() - size.width()) / 2, panel.top()), size);
}

void setError(QString* error, const QString& message) {
    if (error) *error = message;
}

QString joined(const std::vector<std::string>& tokens) {
    QStringList list;
    for (const auto& t : tokens) list << QString::fromStdString(t);
    return list.join(QLatin1Char(' '));
}

// The source as the user typed it: without the end mark the model appends.
QString sourceText(const std::vector<std::string>& tokens) {
    QStringList list;
    for (const auto& t : tokens) list << QString::fromStdString(t);
    if (!list.isEmpty() && list.back() == QLatin1String("</s>")) list.removeLast();
    return list.join(QLatin1Char(' '));
}

QString lastDirectory() {
    return QSettings()
        .value(QStringLiteral("lastDirectory"), QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
        .toString();
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(10);

    auto* top = new QHBoxLayout;
    sentence_ = new QLabel;
    sentence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sentence_->setWordWrap(true);  // a long sentence must not widen the window
    scaleFont(sentence_, 1.3);
    status_ = new QLabel;
    status_->setForegroundRole(QPalette::PlaceholderText);
    exportGrid_ = new QToolButton;
    exportGrid_->setText(tr("Export Grid…"));
    exportGrid_->setToolTip(tr("Save evenly spaced snapshots side by side in one image, with one colour bar"));
    exportFrames_ = new QToolButton;
    exportFrames_->setText(tr("Export Frames…"));
    exportFrames_->setToolTip(tr("Save every snapshot as a numbered PNG (name_001.png, …) into a folder, "
                                 "e.g. to make a video"));
    top->addWidget(sentence_, 1);
    top->addWidget(status_);
    top->addWidget(exportGrid_);
    top->addWidget(exportFrames_);
    layout->addLayout(top);

    attention_ = new AttentionPanel;
    // One absolute scale for every frame: a weight of 0.5 has the same colour at epoch 1 and 20.
    attention_->heatmap()->setFixedScale(true);
    layout->addWidget(attention_, 1);

    auto* bar = new QHBoxLayout;
    playButton_ = new QToolButton;
    playButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    playButton_->setToolTip(tr("Play the snapshots in order (Space when the slider has focus)"));
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setToolTip(tr("Scrub through training: each step is one probe update"));
    slider_->setPageStep(10);
    position_ = new QLabel;
    position_->setMinimumWidth(260);
    speed_ = new QComboBox;
    for (int fps : {2, 5, 10, 20}) speed_->addItem(tr("%1 frames/s").arg(fps), fps);
    speed_->setCurrentIndex(speed_->findData(fps_));
    speed_->setToolTip(tr("Playback speed"));
    bar->addWidget(playButton_);
    bar->addWidget(slider_, 1);
    bar->addWidget(position_);
    bar->addWidget(speed_);
    layout->addLayout(bar);

    connect(&playTimer_, &QTimer::timeout, this, &TimelineView::advance);
    connect(playButton_, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    connect(slider_, &QSlider::valueChanged, this, &TimelineView::setCurrentIndex);
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this] { setFramesPerSecond(speed_->currentData().toInt()); });
    connect(exportGrid_, &QToolButton::clicked, this, &TimelineView::exportGridDialog);
    connect(exportFrames_, &QToolButton::clicked, this, &TimelineView::exportSequenceDialog);
    clear();
}

// ---- recording -------------------------------------------------------------------------------------

std::int64_t TimelineView::bytesOf(const Snapshot& s) {
    std::int64_t bytes = static_cast<std::int64_t>(sizeof(Snapshot));
    for (const auto& layer : s.cross)
        for (const auto& head : layer) bytes += static_cast<std::int64_t>(head.weights.size() * sizeof(float));
    for (const auto& t : s.sourceTokens) bytes += static_cast<std::int64_t>(t.size() + sizeof(std::string));
    for (const auto& t : s.outputTokens) bytes += static_cast<std::int64_t>(t.size() + sizeof(std::string));
    return bytes;
}

void TimelineView::thin() {
    // Keep the snapshots on the doubled stride: still evenly spaced, half as many.
    if (stride_ >= (1 << 29)) return;
    stride_ *= 2;
    const auto off = [this](const Snapshot& s) { return s.arrival % stride_ != 0; };
    for (const Snapshot& s : snapshots_)
        if (off(s)) bytes_ -= bytesOf(s);
    snapshots_.erase(std::remove_if(snapshots_.begin(), snapshots_.end(), off), snapshots_.end());
}

void TimelineView::addSnapshot(const ProbeResult& result) {
    if (result.loadedModel) return;
    Snapshot s;
    s.epoch = result.epoch;
    s.batches = result.batches;
    s.arrival = arrivals_++;
    s.sourceTokens = result.translation.sourceTokens;
    s.outputTokens = result.translation.outputTokens;
    if (const auto found = result.translation.attention.find(MapKind::Cross); found != result.translation.attention.end())
        s.cross = found->second;
    const std::int64_t size = bytesOf(s);

    const bool following = current_ < 0 || current_ == snapshotCount() - 1;
    const std::int64_t shown = current_ >= 0 ? snapshots_[static_cast<std::size_t>(current_)].arrival : -1;
    // The newest result is always kept as the last frame, but only stays once a newer one arrives if
    // it falls on the stride.
    if (!snapshots_.empty() && snapshots_.back().arrival % stride_ != 0) {
        bytes_ -= bytesOf(snapshots_.back());
        snapshots_.pop_back();
    }
    while (snapshotCount() >= maxSnapshots_ || (bytes_ + size > kMaxSnapshotBytes && snapshotCount() >= 4)) {
        const int before = snapshotCount();
        thin();
        if (snapshotCount() == before && stride_ >= (1 << 29)) break;
    }
    snapshots_.push_back(std::move(s));
    bytes_ += size;

    int index = snapshotCount() - 1;
    if (!following) {
        // Stay on the frame being looked at, or the next one kept if it was thinned away.
        const auto it = std::lower_bound(snapshots_.begin(), snapshots_.end(), shown,
                                         [](const Snapshot& a, std::int64_t arrival) { return a.arrival < arrival; });
        index = static_cast<int>(std::min<std::ptrdiff_t>(it - snapshots_.begin(), snapshotCount() - 1));
    }
    const bool changed = index != current_ || following;
    current_ = index;
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, snapshotCount() - 1);
        slider_->setValue(current_);
    }
    if (changed) showCurrent();
    updateControls();
    if (changed) Q_EMIT currentIndexChanged(current_);
}

void TimelineView::clear() {
    pause();
    snapshots_.clear();
    arrivals_ = 0;
    bytes_ = 0;
    stride_ = 1;
    current_ = -1;
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, 0);
        slider_->setValue(0);
    }
    status_->clear();
    showCurrent();
    updateControls();
}

void TimelineView::setBatchesPerEpoch(int batches) {
    batchesPerEpoch_ = std::max(0, batches);
    updateControls();
}

void TimelineView::setMaxSnapshots(int count) {
    maxSnapshots_ = std::max(4, count);
    if (snapshotCount() <= maxSnapshots_) return;
    const std::int64_t shown = current_ >= 0 ? snapshots_[static_cast<std::size_t>(current_)].arrival : -1;
    const bool following = current_ == snapshotCount() - 1;
    Snapshot newest = snapshots_.back();
    snapshots_.pop_back();
    bytes_ -= bytesOf(newest);
    while (snapshotCount() >= maxSnapshots_) thin();
    bytes_ += bytesOf(newest);
    snapshots_.push_back(std::move(newest));
    const auto it = std::lower_bound(snapshots_.begin(), snapshots_.end(), shown,
                                     [](const Snapshot& a, std::int64_t arrival) { return a.arrival < arrival; });
    current_ = following ? snapshotCount() - 1
                         : static_cast<int>(std::min<std::ptrdiff_t>(it - snapshots_.begin(), snapshotCount() - 1));
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, snapshotCount() - 1);
        slider_->setValue(current_);
    }
    showCurrent();
    updateControls();
}

// ---- navigation ------------------------------------------------------------------------------------

void TimelineView::setCurrentIndex(int index) {
    if (snapshots_.empty()) return;
    index = std::clamp(index, 0, snapshotCount() - 1);
    if (index == current_) return;
    current_ = index;
    if (slider_->value() != index) {
        const QSignalBlocker blocker(slider_);
        slider_->setValue(index);
    }
    showCurrent();
    updateControls();
    Q_EMIT currentIndexChanged(current_);
}

void TimelineView::play() {
    if (snapshotCount() < 2) return;
    if (current_ >= snapshotCount() - 1) setCurrentIndex(0);
    playTimer_.start(1000 / std::max(1, fps_));
    updateControls();
}

void TimelineView::pause() {
    playTimer_.stop();
    updateControls();
}

void TimelineView::advance() {
    if (current_ < snapshotCount() - 1) {
        setCurrentIndex(current_ + 1);
    }
    if (current_ >= snapshotCount() - 1) pause();  // stops on the last frame (new ones may still come)
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    // The slider leaves Space to its parent; the Play button has focus handling of its own.
    if (event->key() == Qt::Key_Space && event->modifiers() == Qt::NoModifier) {
        isPlaying() ? pause() : play();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void TimelineView::setFramesPerSecond(int fps) {
    fps_ = std::clamp(fps, 1, 60);
    const int index = speed_->findData(fps_);
    if (index >= 0 && index != speed_->currentIndex()) {
        const QSignalBlocker blocker(speed_);
        speed_->setCurrentIndex(index);
    }
    if (isPlaying()) playTimer_.start(1000 / fps_);
}

QString TimelineView::frameLabel(int index) const {
    if (index < 0 || index >= snapshotCount()) return QString();
    const Snapshot& s = snapshot(index);
    if (s.batches <= 0) return tr("before training");
    if (batchesPerEpoch_ > 0) {
        // The probe after an epoch's last batch counts that epoch as done: it is that epoch's last batch.
        const int epoch =
            s.epoch > 0 && s.batches <= static_cast<std::int64_t>(s.epoch) * batchesPerEpoch_ ? s.epoch : s.epoch + 1;
        const std::int64_t batch = s.batches - static_cast<std::int64_t>(epoch - 1) * batchesPerEpoch_;
        return tr("epoch %1 · batch %2").arg(epoch).arg(batch);
    }
    return tr("batch %1 · %2 epochs done").arg(s.batches).arg(s.epoch);
}

void TimelineView::showCurrent() {
    if (current_ < 0 || snapshots_.empty()) {
        sentence_->setText(tr("No snapshots yet"));
        attention_->setTranslation(Translation{});
        attention_->showMessage(tr("Start training: each time the probe sentence is translated (see Live Probe for "
                                   "how often), its attention is recorded here. Then scrub or play through "
                                   "training to see the alignment form."));
        return;
    }
    const Snapshot& s = snapshot(current_);
    Translation t;
    t.sourceTokens = s.sourceTokens;
    t.outputTokens = s.outputTokens;
    if (!s.cross.empty()) t.attention[MapKind::Cross] = s.cross;
    attention_->setTranslation(t);
    const QString output = s.outputTokens.empty() ? tr("(empty output)") : joined(s.outputTokens);
    sentence_->setText(QStringLiteral("%1  \u2192  %2").arg(sourceText(s.sourceTokens), output));
}

void TimelineView::updateControls() {
    const int count = snapshotCount();
    slider_->setEnabled(count > 1);
    playButton_->setEnabled(count > 1);
    exportGrid_->setEnabled(count > 0);
    exportFrames_->setEnabled(count > 0);
    const bool playing = isPlaying();
    playButton_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    playButton_->setText(playing ? tr("Pause") : tr("Play"));
    if (count == 0) {
        position_->setText(tr("no snapshots"));
    } else {
        position_->setText(tr("%1  (%2 of %3)").arg(frameLabel(current_)).arg(current_ + 1).arg(count));
    }
}

void TimelineView::setColormap(ColormapId id) {
    colormap_ = id;
    attention_->heatmap()->setColormap(id);
}

// ---- maps and exports ------------------------------------------------------------------------------

AttentionMap TimelineView::mapAt(int index) const {
    if (index < 0 || index >= snapshotCount()) return {};
    const LayeredAttention& layers = snapshot(index).cross;
    if (layers.empty()) return {};
    int l = attention_->layer();
    if (l < 0 || l >= static_cast<int>(layers.size())) l = static_cast<int>(layers.size()) - 1;
    const auto& heads = layers[static_cast<std::size_t>(l)];
    if (heads.empty()) return {};
    const int h = attention_->head();
    return h >= 0 && h < static_cast<int>(heads.size()) ? heads[static_cast<std::size_t>(h)]
                                                          : AttentionPanel::meanOfHeads(heads);
}

QList<int> TimelineView::evenlySpaced(int count) const {
    QList<int> indices;
    const int n = snapshotCount();
    if (n == 0 || count <= 0) return indices;
    if (count >= n) {
        for (int i = 0; i < n; ++i) indices << i;
        return indices;
    }
    if (count == 1) return {n - 1};
    for (int k = 0; k < count; ++k) {
        const int i = static_cast<int>(std::lround(static_cast<double>(k) * (n - 1) / (count - 1)));
        if (indices.isEmpty() || indices.back() != i) indices << i;
    }
    return indices;
}

HeatmapOptions TimelineView::panelOptions() const {
    HeatmapOptions options;
    options.colormap = colormap_;
    options.scale = ScaleMode::Unit;
    options.showColorBar = false;  // the figure has one for all panels
    options.showLabels = true;
    return options;
}

QString TimelineView::selectionText() const {
    int layers = 0;
    int heads = 0;
    for (const Snapshot& s : snapshots_) {
        layers = std::max(layers, static_cast<int>(s.cross.size()));
        for (const auto& l : s.cross) heads = std::max(heads, static_cast<int>(l.size()));
    }
    if (layers <= 1 && heads <= 1) return tr("cross-attention");
    const int layer = attention_->layer() >= 0 ? attention_->layer() : layers - 1;
    return attention_->head() >= 0 ? tr("cross-attention, layer %1, head %2").arg(layer + 1).arg(attention_->head() + 1)
                                   : tr("cross-attention, layer %1, mean of %2 heads").arg(layer + 1).arg(heads);
}

std::vector<HeatmapRenderer> TimelineView::panelRenderers(const QList<int>& frames) const {
    std::vector<HeatmapRenderer> panels;
    for (int i : frames) {
        HeatmapOptions options = panelOptions();
        options.title = frameLabel(i);
        panels.emplace_back(options);
        const Snapshot& s = snapshot(i);
        panels.back().setMap(mapAt(i), s.outputTokens, s.sourceTokens);
    }
    return panels;
}

QSize TimelineView::defaultPanelSize(const QList<int>& frames) const {
    return panelScale(panelRenderers(frames), kPanelExtent, 12.0, 24.0, QSize(160, 140)).size;
}

QSize TimelineView::figureSize(int frames, int columns, QSize panel) {
    if (frames <= 0 || panel.isEmpty()) return {};
    columns = std::clamp(columns, 1, frames);
    const int rows = (frames + columns - 1) / columns;
    return QSize(2 * kFigureMargin + columns * panel.width() + (columns - 1) * kFigureGap + kFigureColorBar,
                 2 * kFigureMargin + kFigureHeader + rows * panel.height() + (rows - 1) * kFigureGap);
}

bool TimelineView::exportSmallMultiples(const QString& path, int frames, int columns, QString* error, double scale,
                                        QSize panel) const {
    const auto format = FigureWriter::formatForPath(path);
    if (!format || !FigureWriter::isImage(*format)) {
        setError(error, tr("cannot export '%1': the grid is written as PNG, SVG or PDF").arg(path));
        return false;
    }
    const QList<int> chosen = evenlySpaced(frames);
    if (chosen.isEmpty()) {
        setError(error, tr("cannot export '%1': there are no snapshots yet; start training first").arg(path));
        return false;
    }
    const std::vector<HeatmapRenderer> panels = panelRenderers(chosen);
    const double cell = panelScale(panels, kPanelExtent, 12.0, 24.0, QSize(160, 140)).cell;
    if (std::all_of(panels.begin(), panels.end(), [](const HeatmapRenderer& r) { return r.isEmpty(); })) {
        setError(error, tr("cannot export '%1': the snapshots have no attention to draw").arg(path));
        return false;
    }
    if (panel.isEmpty()) panel = defaultPanelSize(chosen);
    const int count = static_cast<int>(chosen.size());
    columns = std::clamp(columns, 1, count);
    const QSize size = figureSize(count, columns, panel);
    const QString title = tr("“%1”: %2 during training")
                              .arg(sourceText(snapshot(chosen.back()).sourceTokens), selectionText());
    const Colormap colormap(colormap_);
    Figure figure;
    figure.size = size;
    figure.title = title;
    figure.paint = [&](QPainter& painter, const QRectF& target) {
        painter.save();
        painter.translate(target.topLeft());
        const QFont font = HeatmapRenderer::defaultFont();
        QFont titleFont = font;
        titleFont.setPixelSize(16);
        titleFont.setBold(true);
        const QColor text(0x1a, 0x1a, 0x1a);
        painter.setPen(text);
        painter.setFont(titleFont);
        const QRectF header(kFigureMargin, kFigureMargin, size.width() - 2 * kFigureMargin, kFigureHeader);
        painter.drawText(header, Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetricsF(titleFont).elidedText(title, Qt::ElideRight, header.width()));
        const qreal top = kFigureMargin + kFigureHeader;
        for (int k = 0; k < count; ++k) {
            const int row = k / columns;
            const int column = k % columns;
            const QRectF box(kFigureMargin + column * (panel.width() + kFigureGap),
                             top + row * (panel.height() + kFigureGap), panel.width(), panel.height());
            const HeatmapRenderer& renderer = panels[static_cast<std::size_t>(k)];
            renderer.paint(painter, placed(renderer, box, cell));
        }
        const int rows = (count + columns - 1) / columns;
        const qreal gridRight = kFigureMargin + columns * panel.width() + (columns - 1) * kFigureGap;
        const qreal gridHeight = rows * panel.height() + (rows - 1) * kFigureGap;
        const qreal line = QFontMetricsF(font).height();
        // Tick labels hang half a line above and below the bar; at most 320 px tall, centred on the grid.
        const qreal barHeight = std::min<qreal>(320.0, gridHeight - 2 * line);
        const QRectF bar(gridRight + 16, top + (gridHeight - barHeight) / 2, 14, barHeight);
        HeatmapRenderer::paintColorBar(painter, bar, colormap, 0.0, 1.0, font, text);
        painter.restore();
    };
    return FigureWriter::report(FigureWriter::write(path, figure, scale), error);
}

bool TimelineView::exportSequence(const QString& directory, const QString& baseName, QStringList* written,
                                  QString* error, double scale) const {
    if (snapshots_.empty()) {
        setError(error, tr("cannot export into '%1': there are no snapshots yet; start training first").arg(directory));
        return false;
    }
    const QString base = baseName.trimmed().isEmpty() ? QStringLiteral("timeline") : baseName.trimmed();
    if (base.contains(QLatin1Char('/')) || base.contains(QLatin1Char('\\'))) {
        setError(error, tr("cannot export: the file name '%1' must not contain a folder separator").arg(base));
        return false;
    }
    QDir dir(directory);
    if (!dir.exists() && !dir.mkpath(QStringLiteral("."))) {
        setError(error, tr("cannot create the folder '%1'").arg(directory));
        return false;
    }
    const int count = snapshotCount();
    const int digits = std::max(3, static_cast<int>(QString::number(count).size()));
    const QString selection = selectionText();
    std::vector<HeatmapRenderer> frames;
    for (int i = 0; i < count; ++i) {
        HeatmapOptions options = panelOptions();
        options.showColorBar = true;
        options.title = tr("%1 · %2").arg(frameLabel(i), selection);
        options.rowAxisTitle = tr("output");
        options.columnAxisTitle = tr("source");
        frames.emplace_back(options);
        frames.back().setMap(mapAt(i), snapshot(i).outputTokens, snapshot(i).sourceTokens);
    }
    // One image size and one cell size for all: a video needs the first, and the second keeps the map
    // from zooming in and out as the output's length changes.
    const PanelScale frameScale = panelScale(frames, kFrameExtent, 12.0, 40.0, QSize(360, 240));
    const double cell = frameScale.cell;
    const QSize size = frameScale.size;
    for (int i = 0; i < count; ++i) {
        const QString path =
            dir.filePath(QStringLiteral("%1_%2.png").arg(base).arg(i + 1, digits, 10, QLatin1Char('0')));
        const HeatmapRenderer& frame = frames[static_cast<std::size_t>(i)];
        Figure figure;
        figure.size = size;
        figure.title = frame.options().title;
        figure.paint = [&frame, cell](QPainter& painter, const QRectF& target) {
            frame.paint(painter, placed(frame, target, cell));
        };
        if (!FigureWriter::report(FigureWriter::write(path, figure, scale), error)) return false;
        if (written) *written << path;
    }
    return true;
}

void TimelineView::exportGridDialog() {
    if (snapshots_.empty()) return;
    bool ok = false;
    const int frames = QInputDialog::getInt(this, tr("Export Grid"), tr("Snapshots in the grid (evenly spaced):"),
                                            std::min(12, snapshotCount()), 1, std::min(100, snapshotCount()), 1, &ok);
    if (!ok) return;
    const QString path =
        askFigurePath(this, tr("Export Grid"), QDir(lastDirectory()).filePath(QStringLiteral("timeline.png")));
    if (path.isEmpty()) return;
    const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(frames))));
    QString error;
    if (exportSmallMultiples(path, frames, columns, &error, 2.0)) {
        status_->setText(tr("Saved %1").arg(QFileInfo(path).fileName()));
    } else {
        QMessageBox::warning(this, tr("Export Failed"), error);
    }
}

void TimelineView::exportSequenceDialog() {
    if (snapshots_.empty()) return;
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Export Frames Into"), lastDirectory());
    if (directory.isEmpty()) return;
    bool ok = false;
    const QString base = QInputDialog::getText(this, tr("Export Frames"),
                                               tr("File names (name_001.png, name_002.png, …):"), QLineEdit::Normal,
                                               QStringLiteral("timeline"), &ok);
    if (!ok) return;
    QStringList written;
    QString error;
    if (exportSequence(directory, base, &written, &error)) {
        status_->setText(tr("Wrote %1 frames to %2").arg(written.size()).arg(QDir::toNativeSeparators(directory)));
    } else {
        QMessageBox::warning(this, tr("Export Failed"), error);
    }
}

// ---- View ----------------------------------------------------------------------------------------

QString TimelineView::viewTitle() const { return tr("Timeline"); }

QString TimelineView::viewToolTip() const {
    return tr("Replay the probe sentence's attention over the whole training run.");
}

void TimelineView::clearView() {
    clear();
}

void TimelineView::runStarted() {
    clear();
}

void TimelineView::modelChanged(const ModelInfo* model) {
    if (model != nullptr) setBatchesPerEpoch(model->batchesPerEpoch);
}

void TimelineView::applyColormap(ColormapId id) {
    setColormap(id);
}

void TimelineView::applyShowNumbers(bool on) {
    attention()->heatmap()->setShowNumbers(on);
}

bool TimelineView::exportsFigure() const {
    return true;
}

bool TimelineView::exportsMatrix() const {
    return true;
}

bool TimelineView::exportView(const QString& path, double scale, QString* error) const {
    return exportPanel(attention(), path, scale, error);
}

HeatmapWidget* TimelineView::zoomableHeatmap() const { return attention()->heatmap(); }

}  // namespace attnlab
