#include "views/experiments/LongRangePage.h"

#include "views/experiments/ExperimentsView.h"
#include "views/experiments/ExperimentsSupport.h"

#include "engine/Runtime.h"

namespace attnlab {

using namespace experiments_detail;

namespace {

// The articles' table: the longest N each kind of attention handles, as they give it.
QString articlesLongest(const QString& pattern) {
    if (pattern == QLatin1String("full")) return QStringLiteral("~512");
    if (pattern == QLatin1String("strided") || pattern == QLatin1String("chunked")) return QStringLiteral("~4,096");
    if (pattern == QLatin1String("linear")) return QStringLiteral("~65,536");
    return QStringLiteral("–");
}

QString megabytes(double bytes) { return QString::number(bytes / (1024.0 * 1024.0), 'f', bytes < 1e8 ? 1 : 0); }

void attach(QChart* chart, const QHash<QLineSeries*, QScatterSeries*>& markers, QLineSeries* line, QAbstractAxis* x,
            QAbstractAxis* y) {
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(markers.value(line))}) {
        if (!s) continue;
        if (!chart->series().contains(s)) chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

std::vector<int> parseLongLengths(const QString& text, QString* error) {
    std::vector<int> lengths;
    const QStringList items = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& item : items) {
        bool ok = false;
        const int v = item.toInt(&ok);
        if (!ok || v < 8 || v > 65536) {
            *error = LongRangePage::tr("lengths: '%1' is not a length between 8 and 65536").arg(item);
            return {};
        }
        lengths.push_back(v);
    }
    if (lengths.empty()) *error = LongRangePage::tr("lengths: give at least one length, e.g. 128, 512, 2048");
    return lengths;
}

}  // namespace

LongRangePage::LongRangePage(ExperimentRunner* runner, QWidget* parent) : QWidget(parent), runner_(runner) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(12);

    auto* optionsBox = new QGroupBox(tr("Options"));
    auto* form = new QFormLayout(optionsBox);
    lengths_ = new QLineEdit;
    lengths_->setObjectName(QStringLiteral("longRangeLengths"));
    lengths_->setToolTip(tr("Words per text. Each pattern's model trains at these lengths in order, each going on "
                            "from the weights of the one before."));
    form->addRow(tr("Lengths N:"), lengths_);
    auto* patterns = new QWidget;
    auto* grid = new QGridLayout(patterns);
    grid->setContentsMargins(0, 0, 0, 0);
    int i = 0;
    for (const char* name : kMethods) {
        auto* box = new QCheckBox(QString::fromLatin1(name));
        patternBoxes_.insert(QString::fromLatin1(name), box);
        grid->addWidget(box, i / 2, i % 2);
        ++i;
    }
    form->addRow(tr("Patterns:"), patterns);
    steps_ = new QSpinBox;
    steps_->setRange(1, 100000);
    steps_->setToolTip(tr("Adam steps of 4 texts at each listed length."));
    form->addRow(tr("Steps per length:"), steps_);
    extend_ = new QCheckBox(tr("Go on doubling N"));
    extend_->setToolTip(tr("After the last length, double N while the pattern's training step fits the memory "
                           "budget."));
    form->addRow(extend_);
    extendSteps_ = new QSpinBox;
    extendSteps_->setRange(1, 100000);
    extendSteps_->setToolTip(tr("Steps at each doubled length (the model already knows the task by then)."));
    form->addRow(tr("Steps per doubling:"), extendSteps_);
    maxLength_ = new QComboBox;
    fillPowersOfTwo(maxLength_, 256, 65536);
    maxLength_->setToolTip(tr("The doubling stops here at the latest."));
    form->addRow(tr("Up to N ="), maxLength_);
    budget_ = new QSpinBox;
    const long long physicalMb = physicalMemoryBytes() / (1024 * 1024);
    budget_->setRange(16, static_cast<int>(std::max<long long>(64, physicalMb * 8 / 10)));
    budget_->setSingleStep(256);
    budget_->setSuffix(tr(" MB"));
    budget_->setToolTip(tr("The most a training step may allocate. A length predicted to need more is not run, "
                           "and one that tries to is stopped: nothing is left to the system's out-of-memory "
                           "killer."));
    form->addRow(tr("Memory budget:"), budget_);
    texts_ = new QSpinBox;
    texts_->setRange(4, 100000);
    texts_->setToolTip(tr("Validation texts per length, for the accuracy."));
    form->addRow(tr("Validation texts:"), texts_);
    seed_ = new QSpinBox;
    seed_->setRange(0, 1000000);
    form->addRow(tr("Seed:"), seed_);
    auto* buttons = new QHBoxLayout;
    runButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    runButton_->setToolTip(tr("Train every pattern at every length (stops another running experiment)"));
    stopButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    buttons->addWidget(runButton_);
    buttons->addWidget(stopButton_);
    form->addRow(buttons);
    optionsBox->setMaximumWidth(300);
    auto* left = new QVBoxLayout;
    left->addWidget(optionsBox);
    left->addStretch(1);
    layout->addLayout(left);

    auto* right = new QVBoxLayout;
    right->addLayout(makeProgressRow(&progress_, &message_));
    auto logN = [](const QString& title) {
        auto* axis = new QLogValueAxis;
        axis->setBase(4.0);  // labels at 64, 256, 1024, ...: powers of two crowd a half-width chart
        axis->setLabelFormat(QStringLiteral("%g"));
        styleAxis(axis, title);
        return axis;
    };
    accuracyChart_ = makeChart(tr("Accuracy against text length"));
    accuracyX_ = logN(tr("words N (log scale)"));
    accuracyY_ = new QValueAxis;
    accuracyY_->setRange(0.0, 1.0);
    accuracyY_->setTickCount(6);
    accuracyY_->setLabelFormat(QStringLiteral("%.1f"));
    styleAxis(accuracyY_, tr("validation accuracy"));
    accuracyChart_->addAxis(accuracyX_, Qt::AlignBottom);
    accuracyChart_->addAxis(accuracyY_, Qt::AlignLeft);
    memoryChart_ = makeChart(tr("Peak memory per step"));
    memoryX_ = logN(tr("words N (log scale)"));
    memoryY_ = new QLogValueAxis;
    memoryY_->setBase(10.0);
    memoryY_->setLabelFormat(QStringLiteral("%g"));
    memoryY_->setMinorTickCount(8);
    styleAxis(memoryY_, tr("MB (log scale)"));
    memoryChart_->addAxis(memoryX_, Qt::AlignBottom);
    memoryChart_->addAxis(memoryY_, Qt::AlignLeft);
    for (const char* m : kMethods) {
        const QString name = QString::fromLatin1(m);
        QLineSeries* a = addDottedLine(accuracyChart_, name, methodColor(name), false, 9.0, true, &markers_);
        attach(accuracyChart_, markers_, a, accuracyX_, accuracyY_);
        accuracy_.insert(name, a);
        QLineSeries* b = addDottedLine(memoryChart_, name, methodColor(name), false, 9.0, true, &markers_);
        attach(memoryChart_, markers_, b, memoryX_, memoryY_);
        memory_.insert(name, b);
    }
    // The accuracy chart's legend names the patterns (the same colours), at its right: below the
    // plot a half-width chart cut "strided" and "chunked" short. This one names the budget.
    accuracyChart_->legend()->setAlignment(Qt::AlignRight);
    for (QLineSeries* line : memory_)
        for (QLegendMarker* marker : memoryChart_->legend()->markers(line)) marker->setVisible(false);
    budgetLine_ = new QLineSeries;
    budgetLine_->setName(tr("budget"));
    QPen pen(QColor(0x55, 0x55, 0x55));
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.6);
    budgetLine_->setPen(pen);
    memoryChart_->addSeries(budgetLine_);
    budgetLine_->attachAxis(memoryX_);
    budgetLine_->attachAxis(memoryY_);

    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(makeChartView(accuracyChart_));
    charts->addWidget(makeChartView(memoryChart_));
    table_ = new QTableWidget;
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setColumnCount(7);
    table_->setHorizontalHeaderLabels({tr("Pattern"), tr("Complexity"), tr("Articles' N"), tr("Longest N here"),
                                       tr("Accuracy there"), tr("CPU per step"), tr("Peak memory")});
    table_->horizontalHeaderItem(2)->setToolTip(tr("The longest sequence the articles' table gives for this kind of "
                                                   "attention"));
    table_->horizontalHeaderItem(5)->setToolTip(tr("The median CPU time of a training step there, all threads"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setVisible(false);
    table_->setMinimumHeight(150);
    table_->setToolTip(tr("The articles' table (pattern, complexity, the longest sequence it handles) beside this "
                          "machine's: the longest N whose training step fitted the budget, the accuracy reached "
                          "there, the median CPU time of a step (all threads; wall time would count other programs too) and its peak memory."));
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(charts);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    // Two thirds to the charts from the start (left to the table's size hint, the charts got a
    // third of the height and their legends and axis titles were cut).
    split->setSizes({2000, 1000});
    right->addWidget(split, 1);
    right->addWidget(explanation(
        tr("<b>What to look for.</b> Full attention's memory grows as N², so it is the first to hit the budget; "
           "strided and chunked grow as N√N and go further; local and linear grow as N and go furthest. But reach "
           "is not accuracy: [CLS] must find the one colour word wherever it is. Local attention sees only a "
           "window around [CLS] (two layers: 2W words), so its accuracy falls toward chance (0.25) as N grows; "
           "strided, chunked and linear attention reach every word in two layers and find it as full attention "
           "does, at a fraction of its memory.")));
    layout->addLayout(right, 1);

    connect(runButton_, &QPushButton::clicked, this, &LongRangePage::run);
    connect(stopButton_, &QPushButton::clicked, this, [this] {
        if (!isRunning()) return;
        runner_->stop();
        markStopping();
    });
    connect(extend_, &QCheckBox::toggled, this, &LongRangePage::updateButtons);
    connect(runner_, &ExperimentRunner::progress, this, &LongRangePage::onProgress);
    connect(runner_, &ExperimentRunner::longRangeRow, this, &LongRangePage::onRow);
    connect(runner_, &ExperimentRunner::finished, this, &LongRangePage::onFinished);
    connect(runner_, &ExperimentRunner::failed, this, &LongRangePage::onFailed);

    LongRangeOptions defaults;
    defaults.memoryBudget = std::min(defaults.memoryBudget, budget_->maximum() * 1024.0 * 1024.0);
    setOptions(defaults);
    plan_ = options();
    resetCharts(plan_);
    setMessage(tr("Press Run: each pattern trains at each length in turn, and its points appear as they are "
                  "measured (a few minutes with the defaults)."),
               false);
    updateButtons();
}

LongRangeOptions LongRangePage::options() const {
    LongRangeOptions o;
    QString error;
    o.lengths = parseLongLengths(lengths_->text(), &error);
    o.patterns.clear();
    for (const char* m : kMethods)
        if (patternBoxes_.value(QString::fromLatin1(m))->isChecked()) o.patterns.emplace_back(m);
    o.steps = steps_->value();
    o.extendSteps = extendSteps_->value();
    o.extend = extend_->isChecked();
    o.maxLength = maxLength_->currentData().toInt();
    o.memoryBudget = budget_->value() * 1024.0 * 1024.0;
    o.texts = static_cast<std::size_t>(texts_->value());
    o.seed = static_cast<std::uint64_t>(seed_->value());
    return o;
}

void LongRangePage::setOptions(const LongRangeOptions& o) {
    QStringList items;
    for (int n : o.lengths) items << QString::number(n);
    lengths_->setText(items.join(QStringLiteral(", ")));
    for (auto it = patternBoxes_.begin(); it != patternBoxes_.end(); ++it)
        it.value()->setChecked(std::find(o.patterns.begin(), o.patterns.end(), it.key().toStdString()) != o.patterns.end());
    steps_->setValue(o.steps);
    extendSteps_->setValue(o.extendSteps);
    extend_->setChecked(o.extend);
    selectData(maxLength_, o.maxLength);
    budget_->setValue(static_cast<int>(std::llround(o.memoryBudget / (1024.0 * 1024.0))));
    texts_->setValue(static_cast<int>(o.texts));
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(o.seed, 1000000)));
}

bool LongRangePage::isRunning() const { return run_ != 0 && runner_->isRunning() && runner_->currentRun() == run_; }

void LongRangePage::markStopping() { setMessage(tr("Stopping after the current training step…"), false); }

QString LongRangePage::message() const { return message_->text(); }

void LongRangePage::setMessage(const QString& text, bool error) {
    setErrorStyle(message_, error);
    message_->setText(text);
}

void LongRangePage::updateButtons() {
    const bool running = isRunning();
    runButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{lengths_, steps_, extend_, maxLength_, budget_, texts_, seed_})
        w->setEnabled(!running);
    extendSteps_->setEnabled(!running && extend_->isChecked());
    maxLength_->setEnabled(!running && extend_->isChecked());
    for (QCheckBox* box : patternBoxes_) box->setEnabled(!running);
}

void LongRangePage::run() {
    QString error;
    parseLongLengths(lengths_->text(), &error);
    if (error.isEmpty() && options().patterns.empty()) error = tr("choose at least one pattern");
    if (!error.isEmpty()) {
        setMessage(tr("Cannot run: %1").arg(error), true);
        return;
    }
    plan_ = options();
    rows_.clear();
    resetCharts(plan_);
    run_ = runner_->startLongRange(plan_);  // stops and joins a running experiment first
    clock_.start();
    progress_->setValue(0);
    setMessage(tr("Generating the texts and training the first pattern…"), false);
    updateButtons();
}

void LongRangePage::resetCharts(const LongRangeOptions& o) {
    for (QLineSeries* line : accuracy_) {
        line->clear();
        if (QScatterSeries* dots = markers_.value(line)) dots->clear();
    }
    for (QLineSeries* line : memory_) {
        line->clear();
        if (QScatterSeries* dots = markers_.value(line)) dots->clear();
    }
    for (auto it = accuracy_.begin(); it != accuracy_.end(); ++it) {
        const bool shown = std::find(o.patterns.begin(), o.patterns.end(), it.key().toStdString()) != o.patterns.end();
        it.value()->setVisible(shown);
        markers_.value(it.value())->setVisible(shown);
        memory_.value(it.key())->setVisible(shown);
        markers_.value(memory_.value(it.key()))->setVisible(shown);
    }
    const double low = o.lengths.empty() ? 64 : *std::min_element(o.lengths.begin(), o.lengths.end());
    double high = o.lengths.empty() ? 4096 : *std::max_element(o.lengths.begin(), o.lengths.end());
    if (o.extend) high = std::max<double>(high, o.maxLength);
    for (QLogValueAxis* x : {accuracyX_, memoryX_}) x->setRange(low / 1.5, high * 1.5);
    const double budgetMb = o.memoryBudget / (1024.0 * 1024.0);
    budgetLine_->clear();
    budgetLine_->append(low / 1.5, budgetMb);
    budgetLine_->append(high * 1.5, budgetMb);
    budgetLine_->setName(tr("budget %1 MB").arg(std::llround(budgetMb)));
    memoryY_->setRange(1.0, budgetMb * 2.0);
    updateTable();
}

void LongRangePage::onProgress(quint64 run, double fraction, const QString& message) {
    if (run != run_) return;
    progress_->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    setMessage(message, false);
}

void LongRangePage::onRow(quint64 run, const LongRangeRow& row) {
    if (run != run_) return;
    rows_.push_back(row);
    const QString name = QString::fromStdString(row.pattern);
    if (row.ran) {
        appendDotted(markers_, accuracy_.value(name), row.length, row.accuracy);
        appendDotted(markers_, memory_.value(name), row.length, std::max(row.peakBytes / (1024.0 * 1024.0), 1.0));
    }
    double lowest = 1e300;
    for (const auto& r : rows_)
        if (r.ran) lowest = std::min(lowest, r.peakBytes / (1024.0 * 1024.0));
    if (lowest < 1e300) memoryY_->setRange(std::max(0.1, std::pow(10.0, std::floor(std::log10(lowest)))),
                                           plan_.memoryBudget / (1024.0 * 1024.0) * 2.0);
    updateTable();
}

void LongRangePage::updateTable() {
    table_->setRowCount(static_cast<int>(plan_.patterns.size()));
    int r = 0;
    for (const auto& pattern : plan_.patterns) {
        const QString name = QString::fromStdString(pattern);
        const LongRangeRow* longest = nullptr;
        bool over = false;
        for (const auto& row : rows_) {
            if (row.pattern != pattern) continue;
            if (row.ran && (!longest || row.length > longest->length)) longest = &row;
            over = over || row.overBudget;
        }
        const QStringList cells{
            name,
            QString::fromStdString(patternComplexity(pattern)),
            articlesLongest(name),
            longest ? (QString::number(longest->length) + (over ? tr(" (budget)") : QString())) : QStringLiteral("–"),
            longest ? QString::number(longest->accuracy, 'f', 2) : QStringLiteral("–"),
            longest ? tr("%1 ms").arg(longest->cpuSecondsPerStep * 1000.0, 0, 'f', 0) : QStringLiteral("–"),
            longest ? tr("%1 MB").arg(megabytes(longest->peakBytes)) : QStringLiteral("–")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0) item->setTextAlignment(Qt::AlignCenter);
            if (c == 0) item->setForeground(methodColor(name));
            table_->setItem(r, c, item);
        }
        ++r;
    }
}

void LongRangePage::onFinished(quint64 run, bool stopped) {
    if (run != run_) return;
    if (!stopped) progress_->setValue(1000);
    const QString took = clock_.isValid() ? formatDuration(clock_.elapsed() / 1000.0) : QString();
    QStringList parts;
    for (const auto& pattern : plan_.patterns) {
        int longest = 0;
        for (const auto& row : rows_)
            if (row.pattern == pattern && row.ran) longest = std::max(longest, row.length);
        if (longest > 0) parts << QStringLiteral("%1 %2").arg(QString::fromStdString(pattern)).arg(longest);
    }
    setMessage(stopped ? tr("Stopped after %n row(s); the chart shows the measured ones.", nullptr,
                            static_cast<int>(rows_.size()))
                       : tr("Done in %1. Longest N within the budget: %2.").arg(took, parts.join(QStringLiteral(", "))),
               false);
    updateButtons();
    Q_EMIT finished(stopped);
}

void LongRangePage::onFailed(quint64 run, const QString& message) {
    if (run != run_) return;
    setMessage(tr("The experiment failed: %1").arg(message), true);
    updateButtons();
    Q_EMIT failed(message);
}

bool LongRangePage::exportImage(const QString& path, QString* error, double scale) const {
    return exportCharts({accuracyChart_, memoryChart_}, {1.0, 1.0}, QSize(900, 1040), tr("Long-range experiment"),
                        path, scale, error);
}

}  // namespace attnlab
