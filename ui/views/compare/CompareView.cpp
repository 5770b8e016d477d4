#include "views/compare/CompareView.h"

#include "session/BackgroundJob.h"
#include "task/translate/TranslationSession.h"
#include "widgets/WidgetStyle.h"

#include "engine/translation/Seq2SeqModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>

namespace attnlab {

namespace {

enum SourceChoice { kCurrentModel = 0, kModelFile = 1 };

QString describe(const ModelConfig& c) {
    QString text;
    if (c.architecture == Architecture::Transformer) {
        text = CompareView::tr("Transformer · %1+%1 layers · %2 heads · d_model %3")
                   .arg(c.layers)
                   .arg(c.heads)
                   .arg(c.hidden);
    } else {
        text = CompareView::tr("GRU · %1 attention · hidden %2")
                   .arg(QString::fromStdString(toString(c.attention)))
                   .arg(c.hidden);
    }
    return text;
}

QString joined(const std::vector<std::string>& tokens) {
    QStringList list;
    for (const auto& t : tokens) list << QString::fromStdString(t);
    return list.join(QLatin1Char(' '));
}

double largestWeight(const AttentionMap& map) {
    double high = 0.0;
    for (float w : map.weights)
        if (std::isfinite(w)) high = std::max(high, static_cast<double>(w));
    return high;
}

}  // namespace

CompareView::CompareView(TranslationSession* controller, QWidget* parent) : QWidget(parent), controller_(controller) {
    for (auto& job : jobs_) job = std::make_unique<BackgroundJob>(this, QStringLiteral("attnlab-compare"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    auto* inputRow = new QHBoxLayout;
    input_ = new QLineEdit;
    input_->setPlaceholderText(tr("Type a sentence and press Enter to translate it with both models"));
    input_->setClearButtonEnabled(true);
    scaleFont(input_, 1.3);
    compareButton_ = new QPushButton(style()->standardIcon(QStyle::SP_ArrowRight), tr("Compare"));
    compareButton_->setToolTip(tr("Translate the sentence with both models (Enter)."));
    unitScale_ = new QCheckBox(tr("Scale 0 to 1"));
    unitScale_->setToolTip(tr("Colour both maps on the absolute scale 0 to 1; otherwise both share 0 to the "
                              "larger of their largest weights."));
    inputRow->addWidget(input_, 1);
    inputRow->addWidget(compareButton_);
    inputRow->addWidget(unitScale_);
    layout->addLayout(inputRow);

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(16);
    for (int s = 0; s < kSides; ++s) {
        Side& side = sides_[static_cast<std::size_t>(s)];
        auto* head = new QHBoxLayout;
        auto* name = new QLabel(s == 0 ? tr("<b>Model A</b>") : tr("<b>Model B</b>"));
        side.source = new QComboBox;
        side.source->addItem(tr("Current model"));
        side.source->addItem(tr("Model file…"));
        side.source->setToolTip(tr("Show the model being trained in this window, or a saved model file "
                                   "(.safetensors)."));
        head->addWidget(name);
        head->addWidget(side.source, 1);
        side.info = new QLabel;
        side.info->setForegroundRole(QPalette::PlaceholderText);
        side.info->setWordWrap(true);
        side.output = new QLabel;
        side.output->setTextInteractionFlags(Qt::TextSelectableByMouse);
        side.output->setWordWrap(true);
        scaleFont(side.output, 1.3);
        side.panel = new AttentionPanel;
        side.panel->heatmap()->setValueRange(0.0, 1.0);
        grid->addLayout(head, 0, s);
        grid->addWidget(side.info, 1, s);
        grid->addWidget(side.output, 2, s);
        grid->addWidget(side.panel, 3, s);
        connect(side.source, &QComboBox::activated, this, [this, s] { onSourceChosen(s); });
        connect(side.panel, &AttentionPanel::mapChanged, this, &CompareView::updateScale);
    }
    grid->setRowStretch(3, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid, 1);

    status_ = new QLabel;
    status_->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(status_);

    connect(input_, &QLineEdit::returnPressed, this, &CompareView::compare);
    connect(compareButton_, &QPushButton::clicked, this, &CompareView::compare);
    connect(unitScale_, &QCheckBox::toggled, this, &CompareView::updateScale);
    connect(controller_, &TranslationSession::translated, this, [this](quint64 id, const Translation& t) {
        for (int s = 0; s < kSides; ++s) {
            Side& side = sides_[static_cast<std::size_t>(s)];
            if (side.pending && !side.model && side.request == id) finishSide(s, side.generation, &t, {});
        }
    });
    connect(controller_, &TranslationSession::translationFailed, this, [this](quint64 id, const QString& message) {
        for (int s = 0; s < kSides; ++s) {
            Side& side = sides_[static_cast<std::size_t>(s)];
            if (side.pending && !side.model && side.request == id) finishSide(s, side.generation, nullptr, message);
        }
    });
    for (int s = 0; s < kSides; ++s) {
        updateInfo(s);
        sides_[static_cast<std::size_t>(s)].panel->showMessage(
            tr("Choose two models above, type a sentence and press Enter."));
    }
    updateBusy();
}

// Reading or translating a small model takes well under a second; the jobs' destructors wait for
// them (bounded), and nothing they finish reaches a view that is gone.
CompareView::~CompareView() = default;

QString CompareView::sentence() const { return input_->text(); }
void CompareView::setSentence(const QString& sentence) { input_->setText(sentence); }

bool CompareView::usesCurrentModel(int side) const { return !sides_.at(static_cast<std::size_t>(side)).model; }
QString CompareView::modelFile(int side) const { return sides_.at(static_cast<std::size_t>(side)).path; }
const Translation& CompareView::translation(int side) const {
    return sides_.at(static_cast<std::size_t>(side)).translation;
}
AttentionPanel* CompareView::panel(int side) const { return sides_.at(static_cast<std::size_t>(side)).panel; }

bool CompareView::isBusy() const {
    return std::any_of(sides_.begin(), sides_.end(), [](const Side& s) { return s.pending; });
}

QString CompareView::modelDescription(int side) const {
    const Side& s = sides_.at(static_cast<std::size_t>(side));
    if (s.model) return describe(s.model->config());
    if (controller_->hasModel()) return describe(controller_->summary().config);
    return {};
}

void CompareView::useCurrentModel(int side) {
    Side& s = sides_.at(static_cast<std::size_t>(side));
    s.model.reset();
    s.path.clear();
    ++s.generation;
    s.pending = false;
    s.source->setCurrentIndex(kCurrentModel);
    updateInfo(side);
    updateBusy();
}

void CompareView::onSourceChosen(int side) {
    Side& s = sides_.at(static_cast<std::size_t>(side));
    if (s.source->currentIndex() == kCurrentModel) {
        useCurrentModel(side);
        return;
    }
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Model to Compare"), QFileInfo(s.path).absolutePath(),
                                                      tr("AttnLab model (*.safetensors);;All files (*)"));
    if (path.isEmpty()) {
        s.source->setCurrentIndex(s.model ? kModelFile : kCurrentModel);
        return;
    }
    loadModelFile(side, path);
}

void CompareView::loadModelFile(int side, const QString& path) {
    Side& entry = sides_.at(static_cast<std::size_t>(side));
    const quint64 generation = ++entry.generation;
    entry.pending = true;
    entry.info->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    updateBusy();
    jobs_[static_cast<std::size_t>(side)]->start(
        [path] { return std::make_shared<const Seq2SeqModel>(Seq2SeqModel::load(path.toStdString())); },
        [this, side, generation, path](std::shared_ptr<const Seq2SeqModel> model) {
            Side& s = sides_.at(static_cast<std::size_t>(side));
            if (s.generation != generation) return;
            s.pending = false;
            s.model = std::move(model);
            s.path = path;
            s.translation = {};
            s.source->setCurrentIndex(kModelFile);
            updateInfo(side);
            updateBusy();
            Q_EMIT modelLoaded(side);
            if (!input_->text().trimmed().isEmpty()) compare();
        },
        [this, side, generation](const QString& error) {
            Side& s = sides_.at(static_cast<std::size_t>(side));
            if (s.generation != generation) return;
            s.pending = false;
            s.source->setCurrentIndex(s.model ? kModelFile : kCurrentModel);
            updateInfo(side);
            updateBusy();
            Q_EMIT loadFailed(side, error);
        });
}

void CompareView::compare() {
    const QString text = input_->text().trimmed();
    if (text.isEmpty()) {
        status_->setText(tr("Type a sentence to compare the two models on."));
        return;
    }
    for (int side = 0; side < kSides; ++side) {
        Side& s = sides_[static_cast<std::size_t>(side)];
        const quint64 generation = ++s.generation;
        if (!s.model) {
            if (!controller_->hasModel()) {
                s.pending = false;
                s.translation = {};
                s.output->clear();
                s.panel->showMessage(tr("There is no current model yet: train one, open one (File ▸ Open Model), "
                                        "or choose a model file for this side."));
                continue;
            }
            s.pending = true;
            s.request = controller_->translate(text);
            continue;
        }
        s.pending = true;
        const std::shared_ptr<const Seq2SeqModel> model = s.model;
        const std::string sentence = text.toStdString();
        jobs_[static_cast<std::size_t>(side)]->start(
            [model, sentence] { return model->translate(sentence); },
            [this, side, generation](const Translation& translation) {
                finishSide(side, generation, &translation, {});
            },
            [this, side, generation](const QString& error) { finishSide(side, generation, nullptr, error); });
    }
    updateBusy();
}

void CompareView::finishSide(int side, quint64 generation, const Translation* translation, const QString& error) {
    Side& s = sides_.at(static_cast<std::size_t>(side));
    if (s.generation != generation) return;
    s.pending = false;
    if (translation) {
        s.translation = *translation;
        s.output->setText(joined(translation->outputTokens));
        s.panel->setTranslation(*translation);
    } else {
        s.translation = {};
        s.output->clear();
        s.panel->showMessage(error);  // shown where the map would be; no dialog for a sentence
    }
    updateBusy();
    if (!isBusy()) Q_EMIT compared();
}

void CompareView::currentModelChanged() {
    for (int side = 0; side < kSides; ++side) updateInfo(side);
}

void CompareView::updateInfo(int side) {
    Side& s = sides_.at(static_cast<std::size_t>(side));
    if (s.model) {
        s.info->setText(tr("%1 · %2").arg(describe(s.model->config()), QFileInfo(s.path).fileName()));
        s.info->setToolTip(QDir::toNativeSeparators(s.path));
        return;
    }
    s.info->setToolTip({});
    s.info->setText(controller_->hasModel() ? tr("%1 · the model of this window").arg(describe(controller_->summary().config))
                                            : tr("No current model yet: train or open one."));
}

void CompareView::updateScale() {
    double high = 0.0;
    for (const Side& s : sides_)
        if (s.panel->hasMap()) high = std::max(high, largestWeight(s.panel->heatmap()->renderer().map()));
    sharedMaximum_ = unitScale_->isChecked() || high <= 0.0 ? 1.0 : high;
    for (int side = 0; side < kSides; ++side) {
        Side& s = sides_[static_cast<std::size_t>(side)];
        HeatmapWidget* heatmap = s.panel->heatmap();
        heatmap->setValueRange(0.0, sharedMaximum_);
        // The panel titles the map by layer and head; say which model it is too.
        QString title = heatmap->renderer().options().title;
        const QString prefix = side == 0 ? tr("A: ") : tr("B: ");
        if (!title.startsWith(prefix)) heatmap->setTitle(prefix + title);
    }
}

void CompareView::setUnitScale(bool on) { unitScale_->setChecked(on); }

void CompareView::updateBusy() {
    const bool busy = isBusy();
    status_->setText(busy ? tr("Translating…")
                          : tr("Both maps use one colour scale (0 to %1), so their colours compare directly.")
                                .arg(sharedMaximum_, 0, 'f', 2));
}

void CompareView::setColormap(ColormapId id) {
    for (Side& s : sides_) s.panel->heatmap()->setColormap(id);
}

void CompareView::setShowNumbers(bool on) {
    for (Side& s : sides_) s.panel->heatmap()->setShowNumbers(on);
}

bool CompareView::hasFigure() const {
    return std::all_of(sides_.begin(), sides_.end(), [](const Side& s) { return s.panel->hasMap(); });
}

bool CompareView::exportFigure(const QString& path, QString* error, double scale) const {
    if (!hasFigure()) {
        if (error) *error = tr("compare two models on a sentence first");
        return false;
    }
    std::array<HeatmapRenderer, kSides> renderers;
    QSize size(0, 0);
    std::array<QSize, kSides> sizes;
    for (int side = 0; side < kSides; ++side) {
        HeatmapRenderer r = sides_[static_cast<std::size_t>(side)].panel->heatmap()->renderer();
        r.setColors(QColor(0x1a, 0x1a, 0x1a), Qt::white);  // exports are dark on white, like the others
        r.setHighlight(-1, -1);
        r.setScale(ScaleMode::Fixed, 0.0, sharedMaximum_);
        sizes[static_cast<std::size_t>(side)] = r.preferredSize();
        size.rwidth() += sizes[static_cast<std::size_t>(side)].width();
        size.rheight() = std::max(size.height(), sizes[static_cast<std::size_t>(side)].height());
        renderers[static_cast<std::size_t>(side)] = std::move(r);
    }
    auto shared = std::make_shared<std::array<HeatmapRenderer, kSides>>(std::move(renderers));
    Figure figure;
    figure.size = size;
    figure.title = tr("AttnLab comparison");
    figure.paint = [shared, sizes, size](QPainter& painter, const QRectF& target) {
        const double sx = target.width() / size.width();
        double x = target.left();
        for (int side = 0; side < kSides; ++side) {
            const double w = sizes[static_cast<std::size_t>(side)].width() * sx;
            (*shared)[static_cast<std::size_t>(side)].paint(painter, QRectF(x, target.top(), w, target.height()));
            x += w;
        }
    };
    return FigureWriter::report(FigureWriter::write(path, figure, scale), error);
}

// ---- View ----------------------------------------------------------------------------------------

QString CompareView::viewTitle() const { return tr("Compare"); }

QString CompareView::viewToolTip() const {
    return tr("Two models on the same sentence, side by side, on one colour scale.");
}

void CompareView::modelAvailable(bool available) {
    (void)available;
    currentModelChanged();
}

void CompareView::applyColormap(ColormapId id) {
    setColormap(id);
}

void CompareView::applyShowNumbers(bool on) {
    setShowNumbers(on);
}

bool CompareView::exportsFigure() const {
    return true;
}

bool CompareView::exportView(const QString& path, double scale, QString* error) const {
    return exportFigure(path, error, scale);  // FigureWriter refuses .csv and .npy for a figure
}

}  // namespace attnlab
