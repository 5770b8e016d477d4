#include "views/experiments/PositionalPage.h"

#include "views/experiments/ExperimentsView.h"
#include "views/experiments/ExperimentsSupport.h"

namespace attnlab {

using namespace experiments_detail;

namespace {

const char* const kModels[] = {"sinusoidal", "learned", "none", "gru"};

QColor modelColor(const QString& model) {
    if (model == QLatin1String("sinusoidal")) return QColor(0x1f, 0x77, 0xb4);
    if (model == QLatin1String("learned")) return QColor(0x2c, 0xa0, 0x2c);
    if (model == QLatin1String("none")) return QColor(0xd6, 0x27, 0x28);
    return QColor(0xff, 0x7f, 0x0e);
}

std::vector<int> parsePositionalLengths(const QString& text, QString* error) {
    std::vector<int> lengths;
    const QStringList items = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& item : items) {
        bool ok = false;
        const int v = item.toInt(&ok);
        if (!ok || v < 2 || v > 100) {
            *error = PositionalPage::tr("lengths: '%1' is not a length between 2 and 100").arg(item);
            return {};
        }
        lengths.push_back(v);
    }
    if (lengths.empty()) *error = PositionalPage::tr("lengths: give at least one length, e.g. 8, 16, 32");
    return lengths;
}

// The legend's and the form's names (the table has the long ones).
QString shortTitle(const QString& model) {
    if (model == QLatin1String("sinusoidal")) return PositionalPage::tr("sinusoidal");
    if (model == QLatin1String("learned")) return PositionalPage::tr("learned");
    if (model == QLatin1String("none")) return PositionalPage::tr("no positions");
    if (model == QLatin1String("gru")) return PositionalPage::tr("GRU + attention");
    return model;
}

}  // namespace

QString PositionalPage::modelTitle(const QString& model) {
    if (model == QLatin1String("sinusoidal")) return tr("Transformer, sinusoidal positions");
    if (model == QLatin1String("learned")) return tr("Transformer, learned positions");
    if (model == QLatin1String("none")) return tr("Transformer, no positions");
    if (model == QLatin1String("gru")) return tr("GRU with attention");
    return model;
}

PositionalPage::PositionalPage(ExperimentRunner* runner, QWidget* parent) : QWidget(parent), runner_(runner) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(12);

    auto* optionsBox = new QGroupBox(tr("Options"));
    auto* form = new QFormLayout(optionsBox);
    dataset_ = new QComboBox;
    for (const char* name : {"reverse", "sort", "copy"}) {
        dataset_->addItem(QString::fromLatin1(name), QString::fromLatin1(name));
        if (const DatasetInfo* info = findBuiltinDataset(name))
            dataset_->setItemData(dataset_->count() - 1, QString::fromStdString(info->description), Qt::ToolTipRole);
    }
    dataset_->setToolTip(tr("reverse needs every letter's position; sort needs none (its answer is the same for "
                            "any order of the input), a control."));
    form->addRow(tr("Dataset:"), dataset_);
    lengths_ = new QLineEdit;
    lengths_->setObjectName(QStringLiteral("positionalLengths"));
    lengths_->setToolTip(tr("Sequence lengths in tokens; each gets its own corpus and its own models."));
    form->addRow(tr("Lengths:"), lengths_);
    auto* models = new QWidget;
    auto* column = new QVBoxLayout(models);
    column->setContentsMargins(0, 0, 0, 0);
    for (const char* name : kModels) {
        auto* box = new QCheckBox(shortTitle(QString::fromLatin1(name)));
        box->setToolTip(modelTitle(QString::fromLatin1(name)));
        modelBoxes_.insert(QString::fromLatin1(name), box);
        column->addWidget(box);
    }
    form->addRow(tr("Models:"), models);
    epochs_ = new QSpinBox;
    epochs_->setRange(1, 1000);
    form->addRow(tr("Epochs:"), epochs_);
    hidden_ = new QSpinBox;
    hidden_->setRange(4, 1024);
    hidden_->setSingleStep(4);
    hidden_->setToolTip(tr("The GRU's hidden size and the Transformer's width (a multiple of its 4 heads)."));
    form->addRow(tr("Hidden size:"), hidden_);
    pairs_ = new QSpinBox;
    pairs_->setRange(20, 1000000);
    pairs_->setSingleStep(500);
    pairs_->setToolTip(tr("Pairs generated per length; 10% are held out for the accuracy."));
    form->addRow(tr("Pairs per length:"), pairs_);
    seed_ = new QSpinBox;
    seed_->setRange(0, 1000000);
    form->addRow(tr("Seed:"), seed_);
    metric_ = new QComboBox;
    metric_->addItem(tr("exact match"), QStringLiteral("exact"));
    metric_->addItem(tr("token accuracy"), QStringLiteral("tokens"));
    metric_->setToolTip(tr("Exact match: the share of held-out sequences output entirely right. Token accuracy: "
                           "the share of output positions right."));
    form->addRow(tr("Chart:"), metric_);
    auto* buttons = new QHBoxLayout;
    runButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    runButton_->setToolTip(tr("Train every model at every length (stops another running experiment)"));
    stopButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    buttons->addWidget(runButton_);
    buttons->addWidget(stopButton_);
    form->addRow(buttons);
    optionsBox->setMaximumWidth(330);
    auto* left = new QVBoxLayout;
    left->addWidget(optionsBox);
    left->addStretch(1);
    layout->addLayout(left);

    auto* right = new QVBoxLayout;
    right->addLayout(makeProgressRow(&progress_, &message_));
    chart_ = makeChart(tr("Held-out accuracy against sequence length"));
    lengthAxis_ = new QValueAxis;
    lengthAxis_->setLabelFormat(QStringLiteral("%d"));
    styleAxis(lengthAxis_, tr("sequence length (tokens)"));
    accuracyAxis_ = new QValueAxis;
    accuracyAxis_->setRange(0.0, 1.0);
    accuracyAxis_->setTickCount(6);
    accuracyAxis_->setLabelFormat(QStringLiteral("%.1f"));
    styleAxis(accuracyAxis_, tr("held-out exact match"));
    chart_->addAxis(lengthAxis_, Qt::AlignBottom);
    chart_->addAxis(accuracyAxis_, Qt::AlignLeft);
    for (const char* m : kModels) {
        const QString name = QString::fromLatin1(m);
        QLineSeries* line = addDottedLine(chart_, shortTitle(name), modelColor(name), name == QLatin1String("gru"), 9.0,
                                          true, &markers_);
        for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(markers_.value(line))}) {
            s->attachAxis(lengthAxis_);
            s->attachAxis(accuracyAxis_);
        }
        series_.insert(name, line);
    }
    table_ = new QTableWidget;
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setMinimumHeight(140);
    table_->verticalHeader()->setVisible(false);
    table_->setToolTip(tr("Held-out exact match and token accuracy of each model at each length."));
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(makeChartView(chart_));
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    right->addWidget(split, 1);
    right->addWidget(explanation(
        tr("<b>What to look for.</b> Self-attention by itself ignores order: without positions the encoder sees the "
           "source as a bag of letters, and reversing it is guesswork beyond what the decoder's own order "
           "gives. Sinusoidal and learned positions tell each letter where it stands. A GRU reads in order, so "
           "it knows position implicitly, but must carry it in its state. The articles claim explicit positions "
           "beat a recurrent model's implicit order by 12-18% on long sequences: compare the lines on the "
           "right.")));
    layout->addLayout(right, 1);

    connect(runButton_, &QPushButton::clicked, this, &PositionalPage::run);
    connect(stopButton_, &QPushButton::clicked, this, [this] {
        if (!isRunning()) return;
        runner_->stop();
        markStopping();
    });
    connect(metric_, &QComboBox::currentIndexChanged, this, &PositionalPage::redraw);
    connect(runner_, &ExperimentRunner::progress, this, &PositionalPage::onProgress);
    connect(runner_, &ExperimentRunner::positionalPoint, this, &PositionalPage::onPoint);
    connect(runner_, &ExperimentRunner::finished, this, &PositionalPage::onFinished);
    connect(runner_, &ExperimentRunner::failed, this, &PositionalPage::onFailed);

    setOptions(PositionalOptions{});
    plan_ = options();
    redraw();
    setMessage(tr("Press Run: the models are trained one after another, and each point appears when its "
                  "training ends (several minutes with the defaults)."),
               false);
    updateButtons();
}

PositionalOptions PositionalPage::options() const {
    PositionalOptions o;
    QString error;
    o.dataset = dataset_->currentData().toString().toStdString();
    o.lengths = parsePositionalLengths(lengths_->text(), &error);
    o.models.clear();
    for (const char* m : kModels)
        if (modelBoxes_.value(QString::fromLatin1(m))->isChecked()) o.models.emplace_back(m);
    o.epochs = epochs_->value();
    o.hidden = hidden_->value();
    o.pairs = static_cast<std::size_t>(pairs_->value());
    o.seed = static_cast<std::uint64_t>(seed_->value());
    return o;
}

void PositionalPage::setOptions(const PositionalOptions& o) {
    const int at = dataset_->findData(QString::fromStdString(o.dataset));
    if (at >= 0) dataset_->setCurrentIndex(at);
    lengths_->setText(lengthsText(o.lengths));
    for (auto it = modelBoxes_.begin(); it != modelBoxes_.end(); ++it)
        it.value()->setChecked(std::find(o.models.begin(), o.models.end(), it.key().toStdString()) != o.models.end());
    epochs_->setValue(o.epochs);
    hidden_->setValue(o.hidden);
    pairs_->setValue(static_cast<int>(std::min<std::size_t>(o.pairs, 1000000)));
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(o.seed, 1000000)));
}

void PositionalPage::setMetric(const QString& metric) {
    const int at = metric_->findData(metric);
    if (at >= 0) metric_->setCurrentIndex(at);
}

bool PositionalPage::isRunning() const { return run_ != 0 && runner_->isRunning() && runner_->currentRun() == run_; }

void PositionalPage::markStopping() { setMessage(tr("Stopping after the current batch…"), false); }

QString PositionalPage::message() const { return message_->text(); }

void PositionalPage::setMessage(const QString& text, bool error) {
    setErrorStyle(message_, error);
    message_->setText(text);
}

void PositionalPage::updateButtons() {
    const bool running = isRunning();
    runButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{dataset_, lengths_, epochs_, hidden_, pairs_, seed_})
        w->setEnabled(!running);
    for (QCheckBox* box : modelBoxes_) box->setEnabled(!running);
}

void PositionalPage::run() {
    QString error;
    parsePositionalLengths(lengths_->text(), &error);
    if (error.isEmpty() && options().models.empty()) error = tr("choose at least one model");
    if (error.isEmpty() && hidden_->value() % 4 != 0) error = tr("the hidden size must be a multiple of 4");
    if (!error.isEmpty()) {
        setMessage(tr("Cannot run: %1").arg(error), true);
        return;
    }
    plan_ = options();
    result_ = PositionalResult{};
    result_.lengths = plan_.lengths;
    result_.models = plan_.models;
    order_.clear();
    redraw();
    run_ = runner_->startPositional(plan_);
    clock_.start();
    progress_->setValue(0);
    setMessage(tr("Generating the first corpus and training the first model…"), false);
    updateButtons();
}

void PositionalPage::onProgress(quint64 run, double fraction, const QString& message) {
    if (run != run_) return;
    progress_->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    setMessage(message, false);
}

void PositionalPage::onPoint(quint64 run, const QString& model, int length, double tokenAccuracy, double exactMatch) {
    if (run != run_) return;
    result_.tokenAccuracy[model.toStdString()].push_back(tokenAccuracy);
    result_.exactMatch[model.toStdString()].push_back(exactMatch);
    order_.emplace_back(model.toStdString(), length);
    redraw();
}

void PositionalPage::redraw() {
    const bool exact = metric_->currentData().toString() == QLatin1String("exact");
    accuracyAxis_->setTitleText(exact ? tr("held-out exact match") : tr("held-out token accuracy"));
    for (auto it = series_.begin(); it != series_.end(); ++it) {
        QLineSeries* line = it.value();
        line->clear();
        markers_.value(line)->clear();
        const std::string model = it.key().toStdString();
        const bool shown = std::find(plan_.models.begin(), plan_.models.end(), model) != plan_.models.end();
        line->setVisible(shown);
        markers_.value(line)->setVisible(shown);
        const auto& values = exact ? result_.exactMatch : result_.tokenAccuracy;
        const auto found = values.find(model);
        if (found == values.end()) continue;
        for (std::size_t i = 0; i < found->second.size() && i < plan_.lengths.size(); ++i)
            appendDotted(markers_, line, plan_.lengths[i], found->second[i]);
    }
    const int low = plan_.lengths.empty() ? 0 : *std::min_element(plan_.lengths.begin(), plan_.lengths.end());
    const int high = plan_.lengths.empty() ? 40 : *std::max_element(plan_.lengths.begin(), plan_.lengths.end());
    const double pad = std::max(1.0, (high - low) * 0.05);
    lengthAxis_->setRange(std::max(0.0, low - pad), high + pad);
    lengthAxis_->applyNiceNumbers();
    updateTable();
}

void PositionalPage::updateTable() {
    table_->clear();
    table_->setColumnCount(static_cast<int>(plan_.lengths.size()) + 1);
    QStringList headers{tr("Model")};
    for (int n : plan_.lengths) headers << tr("%1 tokens").arg(n);
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(static_cast<int>(plan_.models.size()));
    int r = 0;
    for (const auto& model : plan_.models) {
        const QString name = QString::fromStdString(model);
        auto* title = new QTableWidgetItem(modelTitle(name));
        title->setForeground(modelColor(name));
        table_->setItem(r, 0, title);
        const auto exact = result_.exactMatch.find(model);
        const auto tokens = result_.tokenAccuracy.find(model);
        for (std::size_t i = 0; i < plan_.lengths.size(); ++i) {
            QString text = QStringLiteral("–");
            if (exact != result_.exactMatch.end() && i < exact->second.size())
                text = tr("%1 exact · %2 tokens")
                           .arg(exact->second[i], 0, 'f', 2)
                           .arg(tokens->second[i], 0, 'f', 2);
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignCenter);
            table_->setItem(r, static_cast<int>(i) + 1, item);
        }
        ++r;
    }
}

void PositionalPage::onFinished(quint64 run, bool stopped) {
    if (run != run_) return;
    if (!stopped) progress_->setValue(1000);
    const QString took = clock_.isValid() ? formatDuration(clock_.elapsed() / 1000.0) : QString();
    if (stopped) {
        setMessage(tr("Stopped after %n training(s); the chart shows the finished ones.", nullptr,
                      static_cast<int>(order_.size())),
                   false);
    } else {
        QStringList parts;
        const int longest = plan_.lengths.empty() ? 0 : plan_.lengths.back();
        for (const auto& model : plan_.models) {
            const auto found = result_.exactMatch.find(model);
            if (found != result_.exactMatch.end() && !found->second.empty())
                parts << QStringLiteral("%1 %2").arg(QString::fromStdString(model)).arg(found->second.back(), 0, 'f', 2);
        }
        setMessage(tr("Done in %1. Exact match at %2 tokens: %3.").arg(took).arg(longest).arg(parts.join(QStringLiteral(", "))),
                   false);
    }
    updateButtons();
    Q_EMIT finished(stopped);
}

void PositionalPage::onFailed(quint64 run, const QString& message) {
    if (run != run_) return;
    setMessage(tr("The experiment failed: %1").arg(message), true);
    updateButtons();
    Q_EMIT failed(message);
}

bool PositionalPage::exportImage(const QString& path, QString* error, double scale) const {
    return exportCharts({chart_}, {1.0}, QSize(900, 560), tr("Positional-encoding experiment"), path, scale, error);
}

}  // namespace attnlab
