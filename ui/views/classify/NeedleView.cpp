#include "views/classify/NeedleView.h"

#include "session/ExperimentRunner.h"
#include "widgets/ChartStyle.h"
#include "widgets/WidgetStyle.h"

#include "base/text/ClassifyDatasets.h"

#include <QChart>
#include <QChartView>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QPen>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStringList>
#include <QStyle>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

namespace attnlab {

namespace {

QColor poolingColor(const QString& pooling) {
    if (pooling == QLatin1String("none")) return QColor(0xd6, 0x27, 0x28);
    if (pooling == QLatin1String("additive")) return QColor(0x1f, 0x77, 0xb4);
    static const QColor others[] = {QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd), QColor(0xff, 0x7f, 0x0e),
                                    QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2)};
    return others[qHash(pooling) % (sizeof(others) / sizeof(others[0]))];
}

QString lengthsText(const std::vector<int>& lengths) {
    QStringList items;
    for (int v : lengths) items << QString::number(v);
    return items.join(QStringLiteral(", "));
}

QString formatDuration(double seconds) {
    const long long s = std::llround(seconds);
    if (s < 60) return NeedleView::tr("%1 s").arg(s);
    return NeedleView::tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// "25, 50, 100" or "25 50 100" -> {25, 50, 100}; *error says what is wrong, naming the field.
std::vector<int> parseLengths(const QString& text, QString* error) {
    std::vector<int> lengths;
    const QStringList items = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& item : items) {
        bool ok = false;
        const int v = item.toInt(&ok);
        if (!ok || v < kMinNeedleLength || v > kMaxNeedleLength) {
            *error = NeedleView::tr("text lengths: '%1' is not a number of words from %2 to %3")
                         .arg(item)
                         .arg(kMinNeedleLength)
                         .arg(kMaxNeedleLength);
            return {};
        }
        lengths.push_back(v);
    }
    if (lengths.empty()) *error = NeedleView::tr("text lengths: give at least one length in words, e.g. 25, 50, 100");
    return lengths;
}

}  // namespace

NeedleView::NeedleView(QWidget* parent) : QWidget(parent) {
    runner_ = new ExperimentRunner(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(10);

    auto* intro = new QLabel(
        tr("<b>Can attention find a needle?</b> Each text is a run of noise words with one keyword somewhere that "
           "decides its class. A one-way GRU that classifies from its last state must carry that keyword to the "
           "end of the text, and the longer the text the more often it forgets it; attention pooling weighs every "
           "word and can read the keyword where it is, so its accuracy should hold up as the texts grow."));
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);
    scaleFont(intro, 1.08);
    layout->addWidget(intro);

    auto* body = new QHBoxLayout;
    body->setSpacing(12);
    auto* options = new QGroupBox(tr("Options"));
    auto* form = new QFormLayout(options);
    lengths_ = new QLineEdit;
    lengths_->setObjectName(QStringLiteral("needleLengths"));
    lengths_->setToolTip(tr("Words per text, the keyword included; each length gets its own texts and models."));
    form->addRow(tr("Text lengths:"), lengths_);
    texts_ = new QSpinBox;
    texts_->setObjectName(QStringLiteral("needleTexts"));
    texts_->setRange(20, 1000000);
    texts_->setSingleStep(500);
    texts_->setToolTip(tr("Texts generated per length; 10% are held out for the accuracy."));
    form->addRow(tr("Texts per length:"), texts_);
    epochs_ = new QSpinBox;
    epochs_->setObjectName(QStringLiteral("needleEpochs"));
    epochs_->setRange(1, 1000);
    form->addRow(tr("Epochs:"), epochs_);
    seed_ = new QSpinBox;
    seed_->setObjectName(QStringLiteral("needleSeed"));
    seed_->setRange(0, 1000000);
    form->addRow(tr("Seed:"), seed_);
    auto* buttons = new QHBoxLayout;
    runButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    runButton_->setObjectName(QStringLiteral("needleRun"));
    runButton_->setToolTip(tr("Train one classifier per length and pooling and chart their validation accuracy"));
    stopButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    stopButton_->setObjectName(QStringLiteral("needleStop"));
    stopButton_->setToolTip(tr("Stop after the current batch; the trainings finished so far are charted"));
    buttons->addWidget(runButton_);
    buttons->addWidget(stopButton_);
    form->addRow(buttons);
    options->setMaximumWidth(320);
    auto* left = new QVBoxLayout;
    left->addWidget(options);
    left->addStretch(1);
    body->addLayout(left);

    auto* right = new QVBoxLayout;
    auto* progressRow = new QHBoxLayout;
    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setFormat(QStringLiteral("%p%"));
    progress_->setFixedWidth(220);
    message_ = new QLabel;
    message_->setWordWrap(true);
    progressRow->addWidget(progress_);
    progressRow->addWidget(message_, 1);
    right->addLayout(progressRow);

    chart_ = makeChart(tr("Accuracy against text length: attention pooling vs the last state"));
    lengthAxis_ = new QValueAxis;
    lengthAxis_->setLabelFormat(QStringLiteral("%d"));
    styleAxis(lengthAxis_, tr("text length (words)"));
    accuracyAxis_ = new QValueAxis;
    accuracyAxis_->setRange(0.0, 1.0);
    accuracyAxis_->setTickCount(6);
    accuracyAxis_->setLabelFormat(QStringLiteral("%.1f"));
    styleAxis(accuracyAxis_, tr("validation accuracy"));
    chart_->addAxis(lengthAxis_, Qt::AlignBottom);
    chart_->addAxis(accuracyAxis_, Qt::AlignLeft);
    chartView_ = makeChartView(chart_);
    chartView_->setMinimumHeight(360);
    right->addWidget(chartView_, 1);
    body->addLayout(right, 1);
    layout->addLayout(body, 1);

    connect(runner_, &ExperimentRunner::progress, this, &NeedleView::onProgress);
    connect(runner_, &ExperimentRunner::needleResult, this, &NeedleView::onResult);
    connect(runner_, &ExperimentRunner::finished, this, &NeedleView::onFinished);
    connect(runner_, &ExperimentRunner::failed, this, &NeedleView::onFailed);
    connect(runButton_, &QPushButton::clicked, this, &NeedleView::run);
    connect(stopButton_, &QPushButton::clicked, this, &NeedleView::stop);

    setOptions(NeedleOptions{});
    resetChart(base_);
    setMessage(tr("Press Run: the models are trained one after another, and the chart fills in when they are "
                  "done (minutes with the defaults)."),
               false);
    updateButtons();
}

NeedleView::~NeedleView() {
    // Before any member goes: the thread reports to the runner, and the runner to this view.
    runner_->stopAndWait();
}

// ---- options --------------------------------------------------------------------------------------

NeedleOptions NeedleView::options() const {
    NeedleOptions o = base_;
    QString error;
    o.lengths = parseLengths(lengths_->text(), &error);
    o.texts = static_cast<std::size_t>(texts_->value());
    o.epochs = epochs_->value();
    o.seed = static_cast<std::uint64_t>(seed_->value());
    return o;
}

void NeedleView::setOptions(const NeedleOptions& o) {
    base_ = o;
    const QSignalBlocker b1(lengths_), b2(texts_), b3(epochs_), b4(seed_);
    lengths_->setText(lengthsText(o.lengths));
    texts_->setValue(static_cast<int>(std::min<std::size_t>(o.texts, static_cast<std::size_t>(texts_->maximum()))));
    epochs_->setValue(o.epochs);
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(o.seed, static_cast<std::uint64_t>(seed_->maximum()))));
}

QString NeedleView::poolingTitle(const QString& pooling) {
    if (pooling == QLatin1String("none")) return tr("Last state (no attention)");
    if (pooling == QLatin1String("additive")) return tr("Additive attention");
    return pooling;
}

// ---- running --------------------------------------------------------------------------------------

void NeedleView::run() {
    QString error;
    parseLengths(lengths_->text(), &error);
    if (!error.isEmpty()) {
        setMessage(tr("Cannot run: %1").arg(error), true);
        return;
    }
    const NeedleOptions o = options();
    result_ = NeedleResult{};
    resetChart(o);
    run_ = runner_->startNeedle(o);  // stops and joins a running one first; its reports are dropped by id
    running_ = true;
    clock_.start();
    progress_->setValue(0);
    setMessage(tr("Generating the texts and training the first model…"), false);
    updateButtons();
}

void NeedleView::stop() {
    if (!running_) return;
    runner_->stop();
    setMessage(tr("Stopping after the current batch…"), false);
}

QString NeedleView::message() const { return message_->text(); }

void NeedleView::setMessage(const QString& text, bool error) {
    message_->setStyleSheet(error ? QStringLiteral("color: #b01c1c;") : QString());
    message_->setText(text);
}

void NeedleView::updateButtons() {
    runButton_->setEnabled(!running_);
    stopButton_->setEnabled(running_);
    for (QWidget* w : std::initializer_list<QWidget*>{lengths_, texts_, epochs_, seed_}) w->setEnabled(!running_);
}

QString NeedleView::etaText(double fraction) const {
    if (fraction < 0.02 || !clock_.isValid()) return QString();
    const double elapsed = clock_.elapsed() / 1000.0;
    return tr(" · about %1 left").arg(formatDuration(elapsed * (1.0 - fraction) / fraction));
}

void NeedleView::onProgress(quint64 run, double fraction, const QString& message) {
    if (run != run_ || !running_) return;  // a run that was replaced
    progress_->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    setMessage(message + etaText(fraction), false);
}

void NeedleView::onResult(quint64 run, const NeedleResult& result) {
    if (run != run_) return;
    result_ = result;
    fillChart();
}

QString NeedleView::summary() const {
    // At the longest length every pooling has measured: the accuracy, and by where the keyword is.
    std::size_t measured = result_.lengths.size();
    for (const auto& [name, values] : result_.accuracy) measured = std::min(measured, values.size());
    if (measured == 0 || result_.accuracy.empty()) return QString();
    const std::size_t i = measured - 1;
    QStringList parts;
    for (const auto& [name, values] : result_.accuracy) {
        QString part = QStringLiteral("%1 %2%").arg(poolingTitle(QString::fromStdString(name))).arg(100.0 * values[i], 0, 'f', 1);
        const auto position = result_.byPosition.find(name);
        if (position != result_.byPosition.end() && position->second.size() > i) {
            const auto& [first, second] = position->second[i];
            part += tr(" (keyword in the first half %1%, in the second half %2%)")
                        .arg(100.0 * first, 0, 'f', 0)
                        .arg(100.0 * second, 0, 'f', 0);
        }
        parts << part;
    }
    return tr("At %1 words: %2.").arg(result_.lengths[i]).arg(parts.join(QStringLiteral("; ")));
}

void NeedleView::onFinished(quint64 run, bool stopped) {
    if (run != run_) return;
    running_ = false;
    const QString took = clock_.isValid() ? formatDuration(clock_.elapsed() / 1000.0) : QString();
    if (stopped) {
        int trainings = 0;
        for (const auto& [name, values] : result_.accuracy) trainings += static_cast<int>(values.size());
        setMessage((tr("Stopped after %n training(s); the chart shows the finished ones.", nullptr, trainings) +
                    QLatin1Char(' ') + summary())
                       .trimmed(),
                   false);
    } else {
        progress_->setValue(1000);
        setMessage((tr("Done in %1.").arg(took) + QLatin1Char(' ') + summary()).trimmed(), false);
    }
    updateButtons();
    Q_EMIT needleFinished(stopped);
}

void NeedleView::onFailed(quint64 run, const QString& message) {
    if (run != run_) return;
    running_ = false;
    setMessage(tr("The experiment failed: %1").arg(message), true);
    updateButtons();
    Q_EMIT needleFailed(message);
}

// ---- chart ----------------------------------------------------------------------------------------

void NeedleView::resetChart(const NeedleOptions& o) {
    for (QLineSeries* line : std::as_const(series_)) {
        if (QScatterSeries* dots = dots_.take(line)) {
            chart_->removeSeries(dots);
            delete dots;
        }
        chart_->removeSeries(line);
        delete line;
    }
    series_.clear();
    for (const std::string& p : o.poolings) {
        const QString pooling = QString::fromStdString(p);
        if (series_.contains(pooling)) continue;
        auto* line = new QLineSeries;
        line->setName(poolingTitle(pooling));
        QPen pen(poolingColor(pooling));
        pen.setWidthF(2.6);
        pen.setCapStyle(Qt::RoundCap);
        pen.setJoinStyle(Qt::RoundJoin);
        if (pooling == QLatin1String("none")) pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        line->setPointsVisible(false);  // the dots are a scatter series: QLineSeries clips its end markers
        auto* dots = new QScatterSeries;
        dots->setName(line->name());
        dots->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        dots->setMarkerSize(10.0);
        dots->setColor(pen.color());
        dots->setBorderColor(Qt::white);
        chart_->addSeries(line);
        chart_->addSeries(dots);
        for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(dots)}) {
            s->attachAxis(lengthAxis_);
            s->attachAxis(accuracyAxis_);
        }
        for (QLegendMarker* marker : chart_->legend()->markers(dots)) marker->setVisible(false);
        series_.insert(pooling, line);
        dots_.insert(line, dots);
    }
    const int longest = o.lengths.empty() ? 100 : *std::max_element(o.lengths.begin(), o.lengths.end());
    // A little room on both sides so that the end points' markers are not cut.
    lengthAxis_->setRange(0, std::ceil(longest * 1.08 + 1));
    lengthAxis_->setTickCount(std::min(11, std::max(2, longest / 10 + 1)));
    lengthAxis_->applyNiceNumbers();
    accuracyAxis_->setRange(0.0, 1.0);
}

void NeedleView::fillChart() {
    for (QLineSeries* line : std::as_const(series_)) {
        line->clear();
        dots_.value(line)->clear();
    }
    for (const auto& [name, values] : result_.accuracy) {
        QLineSeries* line = series_.value(QString::fromStdString(name));
        if (!line) continue;
        QList<QPointF> points;
        for (std::size_t i = 0; i < values.size() && i < result_.lengths.size(); ++i)
            if (std::isfinite(values[i])) points.append(QPointF(result_.lengths[i], values[i]));
        line->replace(points);
        dots_.value(line)->replace(points);
    }
}

// ---- View -----------------------------------------------------------------------------------------

QString NeedleView::viewTitle() const { return tr("Needle"); }

QString NeedleView::viewToolTip() const {
    return tr("Does attention pooling find one keyword in a long text that a GRU's last state forgets?");
}

bool NeedleView::exportsFigure() const {
    for (QLineSeries* line : series_)
        if (line->count() > 0) return true;
    return false;
}

bool NeedleView::exportView(const QString& path, double scale, QString* error) const {
    if (isMatrixPath(path)) return fail(error, tr("the needle chart is exported as PNG, SVG or PDF"));
    if (!exportsFigure()) return fail(error, tr("run the needle experiment first: its chart has no points yet"));
    return exportCharts({chart_}, {1.0}, QSize(900, 520), tr("Needle experiment"), path, scale, error);
}

}  // namespace attnlab
