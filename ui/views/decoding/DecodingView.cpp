#include "views/decoding/DecodingView.h"

#include "task/translate/TranslationSession.h"
#include "views/decoding/DecodingCharts.h"
#include "widgets/WidgetStyle.h"
#include "widgets/WordStrip.h"

#include "engine/translation/Seq2SeqModel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

enum Page { kPlaceholderPage = 0, kStepsPage = 1, kBeamPage = 2 };

QString tokensHtml(const std::vector<std::string>& tokens, int highlighted, bool ended) {
    QStringList parts;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const QString t = QString::fromStdString(tokens[i]).toHtmlEscaped();
        parts << (static_cast<int>(i) == highlighted
                      ? QStringLiteral("<span style='background:#fce3cf; font-weight:bold'>&nbsp;%1&nbsp;</span>").arg(t)
                      : t);
    }
    if (ended) {
        const QString end = QStringLiteral("&lt;/s&gt;");
        parts << (static_cast<int>(tokens.size()) == highlighted
                      ? QStringLiteral("<span style='background:#fce3cf; font-weight:bold'>&nbsp;%1&nbsp;</span>").arg(end)
                      : QStringLiteral("<span style='color:gray'>%1</span>").arg(end));
    }
    return parts.join(QLatin1Char(' '));
}

// The cross-attention row a step used: the last layer's heads averaged (a GRU has one).
std::vector<double> crossRow(const Translation& t, int step) {
    auto found = t.attention.find(MapKind::Cross);
    if (found == t.attention.end() || found->second.empty()) return {};
    const std::vector<AttentionMap>& heads = found->second.back();
    if (heads.empty() || step < 0 || step >= heads.front().rows) return {};
    std::vector<double> row(static_cast<std::size_t>(heads.front().cols), 0.0);
    for (const AttentionMap& m : heads)
        for (int c = 0; c < m.cols; ++c) row[static_cast<std::size_t>(c)] += m.at(step, c) / static_cast<double>(heads.size());
    return row;
}

QStringList qtTokens(const std::vector<std::string>& tokens) {
    QStringList list;
    for (const auto& t : tokens) list << QString::fromStdString(t);
    return list;
}

QString count(std::int64_t n) { return QLocale().toString(static_cast<qlonglong>(n)); }

}  // namespace

DecodingView::DecodingView(TranslationSession* controller, QWidget* parent) : QWidget(parent), controller_(controller) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    auto* inputRow = new QHBoxLayout;
    input_ = new QLineEdit;
    input_->setPlaceholderText(tr("Type a sentence and press Enter to watch it being decoded"));
    input_->setClearButtonEnabled(true);
    scaleFont(input_, 1.3);
    decodeButton_ = new QPushButton(style()->standardIcon(QStyle::SP_ArrowRight), tr("Decode"));
    decodeButton_->setToolTip(tr("Decode the sentence with the current model and the method chosen (Enter)."));
    inputRow->addWidget(input_, 1);
    inputRow->addWidget(decodeButton_);
    layout->addLayout(inputRow);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Method:")));
    method_ = new QComboBox;
    method_->addItem(tr("Greedy"));
    method_->addItem(tr("Sampling"));
    method_->addItem(tr("Beam search"));
    method_->setToolTip(tr("Greedy takes the most probable token at each step; sampling draws one from the "
                           "distribution; beam search keeps the best few partial translations."));
    method_->setAccessibleName(tr("Decoding method"));
    controls->addWidget(method_);

    samplingControls_ = new QWidget;
    auto* sampling = new QHBoxLayout(samplingControls_);
    sampling->setContentsMargins(8, 0, 0, 0);
    auto realBox = [](double low, double high, double step, double value, const QString& toolTip) {
        auto* box = new QDoubleSpinBox;
        box->setRange(low, high);
        box->setSingleStep(step);
        box->setDecimals(2);
        box->setValue(value);
        box->setToolTip(toolTip);
        return box;
    };
    temperature_ = realBox(0.01, 5.0, 0.1, 1.0, tr("Divides the scores before the softmax: below 1 sharpens the distribution "
                                "(towards greedy), above 1 flattens it."));
    topK_ = new QSpinBox;
    topK_->setRange(0, 100);
    topK_->setSpecialValueText(tr("off"));
    topK_->setToolTip(tr("Keep only the k most probable tokens (off: no top-k cut)."));
    topP_ = realBox(0.05, 1.0, 0.05, 0.9, tr("Nucleus sampling: keep the smallest set of most probable tokens whose probability "
                         "reaches p (1: no cut)."));
    seed_ = new QSpinBox;
    seed_->setRange(0, 999999);
    seed_->setToolTip(tr("The first sample's seed; the others use the next seeds. The same seed draws the "
                         "same sample."));
    samples_ = new QSpinBox;
    samples_->setRange(1, kMaxSamples);
    samples_->setValue(kMaxSamples);
    samples_->setToolTip(tr("Samples side by side, each with its own seed."));
    const std::pair<QString, QWidget*> samplingParts[] = {{tr("Temperature:"), temperature_},
                                                          {tr("Top-k:"), topK_},
                                                          {tr("Top-p:"), topP_},
                                                          {tr("Seed:"), seed_},
                                                          {tr("Samples:"), samples_}};
    for (const auto& [label, widget] : samplingParts) {
        auto* l = new QLabel(label);
        l->setBuddy(widget);
        sampling->addWidget(l);
        sampling->addWidget(widget);
    }
    controls->addWidget(samplingControls_);

    beamControls_ = new QWidget;
    auto* beam = new QHBoxLayout(beamControls_);
    beam->setContentsMargins(8, 0, 0, 0);
    beamWidth_ = new QSpinBox;
    beamWidth_->setRange(2, 8);
    beamWidth_->setValue(3);
    beamWidth_->setToolTip(tr("How many partial translations each step keeps."));
    auto* beamLabel = new QLabel(tr("Beam width:"));
    beamLabel->setBuddy(beamWidth_);
    beam->addWidget(beamLabel);
    beam->addWidget(beamWidth_);
    controls->addWidget(beamControls_);
    controls->addStretch(1);
    layout->addLayout(controls);

    stepRow_ = new QWidget;
    auto* stepLayout = new QHBoxLayout(stepRow_);
    stepLayout->setContentsMargins(0, 0, 0, 0);
    previous_ = new QToolButton;
    previous_->setArrowType(Qt::LeftArrow);
    previous_->setToolTip(tr("Previous step"));
    next_ = new QToolButton;
    next_->setArrowType(Qt::RightArrow);
    next_->setToolTip(tr("Next step"));
    stepSlider_ = new QSlider(Qt::Horizontal);
    stepSlider_->setRange(0, 0);
    stepSlider_->setPageStep(1);
    stepSlider_->setAccessibleName(tr("Decoding step"));
    stepLabel_ = new QLabel;
    stepLabel_->setMinimumWidth(120);
    stepLayout->addWidget(previous_);
    stepLayout->addWidget(stepSlider_, 1);
    stepLayout->addWidget(next_);
    stepLayout->addWidget(stepLabel_);
    layout->addWidget(stepRow_);

    pages_ = new QStackedWidget;
    placeholder_ = makePlaceholderLabel();
    pages_->addWidget(placeholder_);

    // Greedy and sampling: a column per sample, the cache below.
    auto* stepsPage = new QWidget;
    auto* stepsLayout = new QVBoxLayout(stepsPage);
    stepsLayout->setContentsMargins(0, 0, 0, 0);
    auto* columnsRow = new QHBoxLayout;
    columnsRow->setSpacing(12);
    for (int s = 0; s < kMaxSamples; ++s) {
        Column c;
        c.box = new QWidget;
        auto* v = new QVBoxLayout(c.box);
        v->setContentsMargins(0, 0, 0, 0);
        c.header = new QLabel;
        c.header->setWordWrap(true);
        c.header->setTextFormat(Qt::RichText);
        scaleFont(c.header, 1.15);
        c.chart = new CandidateChart;
        c.attentionTitle = new QLabel;
        c.attentionTitle->setForegroundRole(QPalette::PlaceholderText);
        c.attention = new WordStrip;
        v->addWidget(c.header);
        v->addWidget(c.chart);
        v->addWidget(c.attentionTitle);
        v->addWidget(c.attention);
        v->addStretch(1);
        columnsRow->addWidget(c.box, 1);
        columns_.push_back(c);
    }
    // One column (greedy, or one sample) sits beside the cache; several sit above it.
    stepsBody_ = new QBoxLayout(QBoxLayout::TopToBottom);
    stepsBody_->setSpacing(12);
    stepsBody_->addLayout(columnsRow, 1);
    stepsLayout->addLayout(stepsBody_);
    cacheBox_ = new QGroupBox(tr("Key/value cache (the first sample)"));
    auto* cacheLayout = new QVBoxLayout(cacheBox_);
    auto* cacheControls = new QHBoxLayout;
    cacheLayer_ = new QComboBox;
    cacheLayer_->setAccessibleName(tr("Cache layer"));
    cacheHead_ = new QComboBox;
    cacheHead_->setAccessibleName(tr("Cache head"));
    auto* layerLabel = new QLabel(tr("Decoder layer:"));
    layerLabel->setBuddy(cacheLayer_);
    auto* headLabel = new QLabel(tr("Head:"));
    headLabel->setBuddy(cacheHead_);
    cacheControls->addWidget(layerLabel);
    cacheControls->addWidget(cacheLayer_);
    cacheControls->addWidget(headLabel);
    cacheControls->addWidget(cacheHead_);
    cacheControls->addStretch(1);
    cacheLayout->addLayout(cacheControls);
    cacheCost_ = new QLabel;
    cacheCost_->setWordWrap(true);
    cacheCost_->setTextFormat(Qt::RichText);
    cacheLayout->addWidget(cacheCost_);
    cacheTable_ = new CacheTable;
    cacheLayout->addWidget(cacheTable_);
    stepsBody_->addWidget(cacheBox_, 1, Qt::AlignTop);
    stepsLayout->addStretch(1);
    auto* stepsScroll = new QScrollArea;
    stepsScroll->setWidgetResizable(true);
    stepsScroll->setFrameShape(QFrame::NoFrame);
    stepsScroll->setWidget(stepsPage);
    pages_->addWidget(stepsScroll);

    // Beam search: the tree, and the hypothesis clicked.
    auto* beamPage = new QWidget;
    auto* beamLayout = new QVBoxLayout(beamPage);
    beamLayout->setContentsMargins(0, 0, 0, 0);
    tree_ = new BeamTreeWidget;
    auto* treeScroll = new QScrollArea;
    treeScroll->setWidget(tree_);
    treeScroll->setWidgetResizable(false);
    treeScroll->setFrameShape(QFrame::NoFrame);
    beamLayout->addWidget(treeScroll, 1);
    nodeInfo_ = new QLabel;
    nodeInfo_->setWordWrap(true);
    nodeInfo_->setTextFormat(Qt::RichText);
    scaleFont(nodeInfo_, 1.15);
    beamLayout->addWidget(nodeInfo_);
    nodeStrip_ = new WordStrip;
    beamLayout->addWidget(nodeStrip_);
    pages_->addWidget(beamPage);
    layout->addWidget(pages_, 1);

    status_ = new QLabel;
    status_->setForegroundRole(QPalette::PlaceholderText);
    status_->setWordWrap(true);
    layout->addWidget(status_);

    connect(input_, &QLineEdit::returnPressed, this, &DecodingView::decode);
    connect(decodeButton_, &QPushButton::clicked, this, &DecodingView::decode);
    connect(method_, &QComboBox::currentIndexChanged, this, [this] {
        updateControls();
        if (!results_.empty() || !error_.isEmpty()) decode();
    });
    connect(previous_, &QToolButton::clicked, this, [this] { setStep(step_ - 1); });
    connect(next_, &QToolButton::clicked, this, [this] { setStep(step_ + 1); });
    connect(stepSlider_, &QSlider::valueChanged, this, [this](int v) {
        if (v != step_) setStep(v);
    });
    connect(cacheLayer_, &QComboBox::currentIndexChanged, this, [this] { showStep(); });
    connect(cacheHead_, &QComboBox::currentIndexChanged, this, [this] { showStep(); });
    connect(tree_, &BeamTreeWidget::nodeClicked, this, &DecodingView::showBeamNode);
    connect(controller_, &TranslationSession::translated, this, &DecodingView::onTranslated);
    connect(controller_, &TranslationSession::translationFailed, this, &DecodingView::onFailed);
    updateControls();
    showMessage(tr("Train a model or open one, type a sentence and press Decode to watch each step choose its "
                   "token."));
}

DecodingView::~DecodingView() = default;

QString DecodingView::viewTitle() const { return tr("Decoding"); }
QString DecodingView::viewToolTip() const {
    return tr("How a translation is chosen step by step: greedy, sampling with temperature, top-k and top-p, "
              "beam search as a tree, and the Transformer's key/value cache.");
}

QString DecodingView::sentence() const { return input_->text(); }
void DecodingView::setSentence(const QString& sentence) { input_->setText(sentence); }
DecodingView::Method DecodingView::method() const { return static_cast<Method>(method_->currentIndex()); }
void DecodingView::setMethod(Method method) { method_->setCurrentIndex(static_cast<int>(method)); }

void DecodingView::setSampling(double temperature, int topK, double topP, int seed, int samples) {
    temperature_->setValue(temperature);
    topK_->setValue(topK);
    topP_->setValue(topP);
    seed_->setValue(seed);
    samples_->setValue(samples);
}

void DecodingView::setBeamWidth(int width) { beamWidth_->setValue(width); }

void DecodingView::clearView() {
    pending_.clear();
    results_.clear();
    error_.clear();
    step_ = 0;
    tree_->clear();
    cacheTable_->clear();
    updateControls();
    showMessage(tr("Train a model or open one, type a sentence and press Decode to watch each step choose its "
                   "token."));
}

void DecodingView::modelChanged(const ModelInfo* model) {
    haveModel_ = model != nullptr;
    transformer_ = model && model->architecture == QLatin1String("transformer");
    // The answers shown were another model's.
    const bool hadResults = !results_.empty();
    clearView();
    if (hadResults && haveModel_) showMessage(tr("The model changed: press Decode to decode with it."));
}

void DecodingView::modelAvailable(bool available) {
    haveModel_ = available;
    updateControls();
}

void DecodingView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // The first look decodes at once: a learner should see a step, not an empty page.
    if (results_.empty() && pending_.empty() && error_.isEmpty() && controller_->hasModel() &&
        !input_->text().trimmed().isEmpty())
        decode();
}

void DecodingView::updateControls() {
    const Method m = method();
    samplingControls_->setVisible(m == Method::Sampling);
    beamControls_->setVisible(m == Method::Beam);
    decodeButton_->setEnabled(pending_.empty());
}

void DecodingView::showMessage(const QString& message) {
    placeholder_->setText(message);
    pages_->setCurrentIndex(kPlaceholderPage);
    stepRow_->setVisible(false);
    status_->clear();
}

void DecodingView::decode() {
    const QString text = input_->text().trimmed();
    if (text.isEmpty()) {
        status_->setText(tr("Type a sentence to decode."));
        return;
    }
    if (!controller_->hasModel()) {
        showMessage(tr("There is no model yet: start training or open a model (File ▸ Open Model)."));
        return;
    }
    config_ = controller_->summary().config;
    pending_.clear();
    error_.clear();
    const Method m = method();
    resultMethod_ = m;
    const int samples = m == Method::Sampling ? samples_->value() : 1;
    results_.assign(static_cast<std::size_t>(samples), Translation{});
    for (int s = 0; s < samples; ++s) {
        DecodeOptions options;
        if (m == Method::Beam) {
            options.beam = beamWidth_->value();
            options.recordBeam = true;
        } else {
            // Greedy is sampling with only the most probable token kept: the same translation, with
            // each step's distribution recorded (tests/core/test_sampling).
            options.sample = true;
            options.captureCache = s == 0;
            options.candidates = 8;
            if (m == Method::Greedy) {
                options.topK = 1;
            } else {
                options.temperature = temperature_->value();
                options.topK = topK_->value();
                options.topP = topP_->value();
                options.seed = static_cast<std::uint64_t>(seed_->value() + s);
            }
        }
        pending_[controller_->decode(text, options)] = s;
    }
    status_->setText(tr("Decoding…"));
    updateControls();
}

void DecodingView::onTranslated(quint64 id, const Translation& translation) {
    auto found = pending_.find(id);
    if (found == pending_.end()) return;
    results_[static_cast<std::size_t>(found->second)] = translation;
    pending_.erase(found);
    if (pending_.empty()) showResults();
}

void DecodingView::onFailed(quint64 id, const QString& message) {
    auto found = pending_.find(id);
    if (found == pending_.end()) return;
    pending_.clear();
    results_.clear();
    error_ = message;
    updateControls();
    showMessage(tr("The sentence could not be decoded: %1").arg(message));
    Q_EMIT decoded();
}

void DecodingView::showResults() {
    updateControls();
    if (results_.empty()) return;
    if (resultMethod_ == Method::Beam) {
        const Translation& t = results_.front();
        tree_->setTree(t.beamTree);
        pages_->setCurrentIndex(kBeamPage);
        stepRow_->setVisible(false);
        int best = -1;
        for (std::size_t i = 0; i < t.beamTree.size(); ++i)
            if (t.beamTree[i].best) best = static_cast<int>(i);
        showBeamNode(best);
        int finished = 0;
        for (const BeamNode& n : t.beamTree) finished += n.finished ? 1 : 0;
        status_->setText(tr("Beam width %1: %2 hypotheses kept over %3 steps, %4 of them ended with </s>. Finished "
                            "hypotheses compete by their log-probability per token. Click a box to see its attention.")
                             .arg(beamWidth_->value())
                             .arg(t.beamTree.size())
                             .arg(t.beamTree.empty() ? 0 : t.beamTree.back().step + 1)
                             .arg(finished));
    } else {
        pages_->setCurrentIndex(kStepsPage);
        stepRow_->setVisible(true);
        const KeyValueCache& cache = results_.front().cache;
        const bool haveCache = !cache.empty();
        cacheBox_->setVisible(haveCache);
        if (haveCache) {
            const QSignalBlocker blockLayer(cacheLayer_), blockHead(cacheHead_);
            const int layer = cacheLayer_->currentIndex(), head = cacheHead_->currentIndex();
            cacheLayer_->clear();
            cacheHead_->clear();
            for (int l = 0; l < cache.layers; ++l) cacheLayer_->addItem(QString::number(l + 1));
            for (int h = 0; h < cache.heads; ++h) cacheHead_->addItem(QString::number(h + 1));
            cacheLayer_->setCurrentIndex(std::clamp(layer, 0, cache.layers - 1));
            cacheHead_->setCurrentIndex(std::clamp(head, 0, cache.heads - 1));
        }
        for (std::size_t s = 0; s < columns_.size(); ++s) columns_[s].box->setVisible(s < results_.size());
        stepsBody_->setDirection(results_.size() == 1 ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
        stepSlider_->setRange(0, std::max(0, stepCount() - 1));
        step_ = -1;
        setStep(0);
        status_->setText(resultMethod_ == Method::Greedy
                             ? tr("Greedy: every step keeps only the most probable token. Step through the "
                                  "translation with the arrows or the slider.")
                             : tr("Each sample draws from the same distributions with its own seed; the cut "
                                  "(top-k, then top-p) decides which tokens may be drawn."));
    }
    Q_EMIT decoded();
}

int DecodingView::stepCount() const {
    int n = 0;
    for (const Translation& t : results_) n = std::max(n, static_cast<int>(t.steps.size()));
    return n;
}

void DecodingView::setStep(int step) {
    const int steps = stepCount();
    if (steps == 0) return;
    step = std::clamp(step, 0, steps - 1);
    if (step == step_) return;
    step_ = step;
    const QSignalBlocker block(stepSlider_);
    stepSlider_->setValue(step_);
    showStep();
}

void DecodingView::showStep() {
    if (results_.empty() || resultMethod_ == Method::Beam) return;  // nothing stepped (a combo set early)
    const int steps = stepCount();
    previous_->setEnabled(step_ > 0);
    next_->setEnabled(step_ + 1 < steps);
    stepLabel_->setText(tr("Step %1 of %2").arg(step_ + 1).arg(steps));
    for (std::size_t s = 0; s < results_.size() && s < columns_.size(); ++s) {
        const Translation& t = results_[s];
        Column& c = columns_[s];
        const bool ended = !t.steps.empty() && t.steps.back().chosen == "</s>";
        const QString name = resultMethod_ == Method::Greedy
                                 ? tr("Greedy")
                                 : tr("Sample %1 · seed %2").arg(s + 1).arg(seed_->value() + static_cast<int>(s));
        const int shownStep = std::min(step_, static_cast<int>(t.steps.size()) - 1);
        c.header->setText(QStringLiteral("<b>%1</b><br>%2").arg(name.toHtmlEscaped(),
                                                             tokensHtml(t.outputTokens, shownStep, ended)));
        if (t.steps.empty()) {
            c.chart->showMessage(tr("No steps."));
            c.attention->clear();
            continue;
        }
        const DecodingStep& d = t.steps[static_cast<std::size_t>(shownStep)];
        QString title = tr("Step %1: “%2” (%3)")
                            .arg(shownStep + 1)
                            .arg(QString::fromStdString(d.chosen))
                            .arg(QLocale().toString(100.0 * d.chosenProbability, 'f', 1) + QLatin1Char('%'));
        if (shownStep < step_) title = tr("Ended at step %1").arg(shownStep + 1);
        c.chart->setStep(d, title);
        const std::vector<double> row = crossRow(t, shownStep);
        if (row.size() == t.sourceTokens.size() && !row.empty()) {
            c.attentionTitle->setText(tr("The attention this step used over the source:"));
            c.attention->setWords(qtTokens(t.sourceTokens), {WordRow{tr("attention"), row}});
        } else {
            c.attentionTitle->setText(tr("The step that ends the sentence keeps no attention row."));
            c.attention->clear();
        }
    }
    // The cache: rows 0..step of the first sample, the step's self-attention over them.
    const Translation& first = results_.front();
    if (!first.cache.empty()) {
        const int layer = std::max(0, cacheLayer_->currentIndex()), head = std::max(0, cacheHead_->currentIndex());
        const int row = std::min(step_, first.cache.rows() - 1);
        std::vector<float> weights;
        auto found = first.attention.find(MapKind::Decoder);
        if (found != first.attention.end() && layer < static_cast<int>(found->second.size()) &&
            head < static_cast<int>(found->second[static_cast<std::size_t>(layer)].size())) {
            const AttentionMap& m = found->second[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)];
            if (row < m.rows)
                for (int k = 0; k <= row && k < m.cols; ++k) weights.push_back(m.at(row, k));
        }
        cacheTable_->setCache(first.cache, layer, head, row, weights);
        cacheCost_->setText(costText());
    }
}

DecoderShape DecodingView::decoderShape() const {
    DecoderShape shape;
    shape.layers = config_.layers;
    shape.dModel = config_.hidden;
    shape.feedForward = config_.feedForward;
    shape.vocabulary = static_cast<int>(config_.targetVocab);
    shape.sourceLength = results_.empty() ? 0 : static_cast<int>(results_.front().sourceTokens.size());
    return shape;
}

bool DecodingView::showsCache() const {
    return !results_.empty() && resultMethod_ != Method::Beam && !results_.front().cache.empty();
}

StepCost DecodingView::stepCost() const { return showsCache() ? decodingStepCost(decoderShape(), step_) : StepCost{}; }
StepCost DecodingView::costSoFar() const { return showsCache() ? decodingCost(decoderShape(), step_ + 1) : StepCost{}; }

QString DecodingView::costText() const {
    if (!showsCache()) return {};
    const StepCost now = stepCost(), total = costSoFar();
    auto ratio = [](const StepCost& c) {
        return QLocale().toString(c.withCache > 0 ? static_cast<double>(c.withoutCache) / c.withCache : 1.0, 'f', 1);
    };
    return tr("Step %1 attends %2 cached keys. This step: <b>%3</b> multiply-adds with the cache, <b>%4</b> without "
              "(every earlier position recomputed in every layer), %5×. Steps 1–%1: %6 against %7 (%8×). "
              "The source's keys and values are computed once: %9.")
        .arg(step_ + 1)
        .arg(step_ + 1)
        .arg(count(now.withCache), count(now.withoutCache), ratio(now))
        .arg(count(total.withCache), count(total.withoutCache), ratio(total))
        .arg(count(memoryKeysValues(decoderShape())));
}

void DecodingView::showBeamNode(int node) {
    tree_->select(node);
    if (results_.empty() || node < 0 || node >= static_cast<int>(results_.front().beamTree.size())) {
        nodeInfo_->clear();
        nodeStrip_->clear();
        return;
    }
    const Translation& t = results_.front();
    std::vector<std::string> path;
    for (int n = node; n >= 0; n = t.beamTree[static_cast<std::size_t>(n)].parent)
        path.insert(path.begin(), t.beamTree[static_cast<std::size_t>(n)].token);
    const BeamNode& b = t.beamTree[static_cast<std::size_t>(node)];
    QStringList words;
    for (const auto& w : path) words << QString::fromStdString(w).toHtmlEscaped();
    nodeInfo_->setText(tr("<b>%1</b> · step %2 · p(token) %3 · log-probability %4%5")
                           .arg(words.join(QLatin1Char(' ')))
                           .arg(b.step + 1)
                           .arg(QLocale().toString(100.0 * b.tokenProbability, 'f', 1) + QLatin1Char('%'))
                           .arg(QLocale().toString(static_cast<double>(b.score), 'f', 3))
                           .arg(b.best ? tr(" · the translation returned") : QString()));
    if (b.attention.size() == t.sourceTokens.size() && !b.attention.empty()) {
        std::vector<double> row(b.attention.begin(), b.attention.end());
        nodeStrip_->setWords(qtTokens(t.sourceTokens), {WordRow{tr("attention"), row}});
    } else {
        nodeStrip_->clear();
    }
}

CandidateChart* DecodingView::candidates(int sample) const {
    return sample >= 0 && sample < static_cast<int>(columns_.size()) ? columns_[static_cast<std::size_t>(sample)].chart
                                                                     : nullptr;
}

WordStrip* DecodingView::attentionStrip(int sample) const {
    return sample >= 0 && sample < static_cast<int>(columns_.size()) ? columns_[static_cast<std::size_t>(sample)].attention
                                                                     : nullptr;
}

bool DecodingView::exportsFigure() const { return !results_.empty() && pending_.empty(); }

Figure DecodingView::figure() const {
    Figure f;
    f.title = tr("Decoding: %1").arg(input_->text());
    if (resultMethod_ == Method::Beam) {
        f.size = tree_->contentSize();
        const BeamTreeWidget* tree = tree_;
        const QFont font = tree_->font();
        f.paint = [tree, font](QPainter& p, const QRectF& area) {
            p.setFont(font);
            tree->paintTree(p, area);
        };
        return f;
    }
    const int shown = static_cast<int>(results_.size());
    const int chartWidth = 380, gap = 12;
    int chartHeight = 0;
    for (int s = 0; s < shown; ++s) chartHeight = std::max(chartHeight, columns_[static_cast<std::size_t>(s)].chart->sizeHint().height());
    const bool cache = showsCache();
    const int width = shown * chartWidth + (shown - 1) * gap;
    const int tableHeight = cache ? cacheTable_->contentSize().height() : 0;
    f.size = QSize(std::max(width, cache ? 640 : 0), chartHeight + (cache ? gap + tableHeight : 0));
    std::vector<const CandidateChart*> charts;
    for (int s = 0; s < shown; ++s) charts.push_back(columns_[static_cast<std::size_t>(s)].chart);
    const CacheTable* table = cacheTable_;
    const QFont font = columns_.front().chart->font();
    f.paint = [=](QPainter& p, const QRectF& area) {
        p.setFont(font);
        for (int s = 0; s < shown; ++s)
            charts[static_cast<std::size_t>(s)]->paintChart(
                p, QRectF(area.left() + s * (chartWidth + gap), area.top(), chartWidth, chartHeight));
        if (cache) table->paintTable(p, QRectF(area.left(), area.top() + chartHeight + gap, area.width(), tableHeight));
    };
    return f;
}

bool DecodingView::exportView(const QString& path, double scale, QString* error) const {
    if (!exportsFigure()) return fail(error, tr("there is no decoding to export yet: press Decode first"));
    if (isMatrixPath(path)) return fail(error, tr("the decoding lab exports pictures (PNG, SVG or PDF), not matrices"));
    return FigureWriter::report(FigureWriter::write(path, figure(), scale), error);
}

}  // namespace attnlab
