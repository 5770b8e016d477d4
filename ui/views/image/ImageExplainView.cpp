#include "views/image/ImageExplainView.h"

#include "render/FigureWriter.h"
#include "views/image/ImageCanvas.h"
#include "widgets/ChartStyle.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

constexpr int kMapSide = 170;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QColor methodColor(const std::string& key) {
    if (key == "rollout" || key == "attention") return QColor(0x7f, 0x7f, 0x7f);
    if (key == "gradient") return QColor(0xff, 0x7f, 0x0e);
    if (key == "grad_x_input") return QColor(0x2c, 0xa0, 0x2c);
    if (key == "integrated_gradients") return QColor(0x1f, 0x77, 0xb4);
    if (key == "grad_rollout") return QColor(0xd6, 0x27, 0x28);
    return QColor(0x30, 0x30, 0x30);  // random
}

QString number(double v, int decimals = 2) {
    if (!std::isfinite(v)) return QStringLiteral("–");
    QString text = QString::number(v, 'f', decimals);
    if (text.startsWith(QLatin1Char('-')) && text.toDouble() == 0.0) text.remove(0, 1);
    return text;
}

std::vector<float> floatsOf(const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); }

}  // namespace

ImageExplainView::ImageExplainView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    auto* top = new QHBoxLayout;
    header_ = new QLabel;
    header_->setWordWrap(true);
    explain_ = new QPushButton(tr("Explain"));
    explain_->setObjectName(QStringLiteral("imageExplainButton"));
    explain_->setToolTip(tr("Compare the ViT's attention with four attribution methods on the image the Image view "
                            "shows, and test which of them finds what the model uses."));
    word_ = new QComboBox;
    word_->setObjectName(QStringLiteral("explainWord"));
    word_->setToolTip(tr("The word of the caption to explain."));
    word_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(header_, 1);
    top->addWidget(word_);
    top->addWidget(explain_);
    layout->addLayout(top);
    status_ = new QLabel;
    status_->setWordWrap(true);
    layout->addWidget(status_);

    result_ = new QWidget;
    auto* results = new QVBoxLayout(result_);
    results->setContentsMargins(0, 0, 0, 0);
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(10);
    const auto& methods = imageExplanationMethods();  // the most columns an explanation has
    for (std::size_t i = 0; i < methods.size(); ++i) {
        auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(methodTitle(methods[i])));
        title->setAlignment(Qt::AlignCenter);
        auto* canvas = new ImageCanvas(kMapSide);
        canvas->setObjectName(QStringLiteral("explainMap_%1").arg(i));
        auto* figure = new QLabel;
        figure->setAlignment(Qt::AlignCenter);
        figure->setWordWrap(true);
        const int column = static_cast<int>(i);
        grid->addWidget(title, 0, column);
        grid->addWidget(canvas, 1, column);
        grid->addWidget(figure, 2, column);
        titles_.push_back(title);
        canvases_.push_back(canvas);
        figures_.push_back(figure);
    }
    results->addLayout(grid);
    boxNote_ = new QLabel;
    boxNote_->setWordWrap(true);
    boxNote_->setForegroundRole(QPalette::PlaceholderText);
    results->addWidget(boxNote_);

    auto* lower = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    auto* tauTitle = new QLabel(tr("<b>Do they agree?</b> Kendall's tau between the patch rankings (1: the same "
                                   "order, 0: unrelated, −1: reversed)"));
    tauTitle->setWordWrap(true);
    left->addWidget(tauTitle);
    tau_ = new QTableWidget(static_cast<int>(methods.size()), static_cast<int>(methods.size()));
    tau_->setObjectName(QStringLiteral("imageTauTable"));
    QStringList names, shortNames;
    for (const auto& m : methods) {
        names << methodTitle(m);
        shortNames << shortTitle(m);
    }
    tau_->setHorizontalHeaderLabels(shortNames);
    tau_->setVerticalHeaderLabels(names);
    for (int i = 0; i < tau_->columnCount(); ++i) tau_->horizontalHeaderItem(i)->setToolTip(names[i]);
    tau_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tau_->setSelectionMode(QAbstractItemView::NoSelection);
    tau_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    tau_->horizontalHeader()->setMinimumSectionSize(48);
    tau_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tau_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    left->addWidget(tau_);
    completeness_ = new QLabel;
    completeness_->setWordWrap(true);
    left->addWidget(completeness_);
    left->addStretch(1);
    lower->addLayout(left, 1);

    chart_ = makeChart(tr("Deletion test"));
    chart_->setObjectName(QStringLiteral("deletionChart"));
    x_ = new QValueAxis;
    y_ = new QValueAxis;
    styleAxis(x_, tr("share of patches removed, most important first"));
    styleAxis(y_, tr("probability of the class"));
    x_->setRange(0, 1);
    y_->setRange(0, 1);
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    QChartView* chartView = makeChartView(chart_);
    chartView->setMinimumHeight(300);
    lower->addWidget(chartView, 1);
    results->addLayout(lower, 1);
    layout->addWidget(result_, 1);

    connect(explain_, &QPushButton::clicked, this, [this] {
        if (image_.pixels.empty()) return;
        setBusy(true);
        Q_EMIT explainRequested(image_, classifier_ ? -1 : word_->currentIndex());
    });
    clearView();
}

QString ImageExplainView::viewTitle() const { return tr("Explain"); }

QString ImageExplainView::viewToolTip() const {
    return tr("Is the attention an explanation? A ViT's rollout, or a caption word's attention, beside gradient "
              "methods, and a deletion test of which one finds what the model uses.");
}

namespace {

struct MethodNames {
    const char* key;
    const char* title;  // the maps' titles, the tau table's rows
    const char* brief;  // the tau table's columns, the chart's legend
};

constexpr MethodNames kMethodNames[] = {
    {"rollout", QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Attention rollout"),
     QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Rollout")},
    {"attention", QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "The word's attention"),
     QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Attention")},
    {"gradient", QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Gradient"),
     QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Grad.")},
    {"grad_x_input", QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Gradient × input"),
     QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Grad. × in")},
    {"integrated_gradients", QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Integrated gradients"),
     QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "IG")},
    {"grad_rollout", QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Gradient-weighted rollout"),
     QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Grad. roll.")},
    {"random", QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Random order"),
     QT_TRANSLATE_NOOP("attnlab::ImageExplainView", "Random")},
};

const MethodNames* namesOf(const std::string& key) {
    for (const MethodNames& n : kMethodNames)
        if (key == n.key) return &n;
    return nullptr;
}

}  // namespace

QString ImageExplainView::shortTitle(const std::string& key) {
    const MethodNames* n = namesOf(key);
    return n ? tr(n->brief) : QString::fromStdString(key);
}

QString ImageExplainView::methodTitle(const std::string& key) {
    const MethodNames* n = namesOf(key);
    return n ? tr(n->title) : QString::fromStdString(key);
}

void ImageExplainView::clearView() {
    explanation_.reset();
    busy_ = false;
    result_->hide();
    status_->clear();
    for (auto* c : canvases_) c->clear();
    for (auto* f : figures_) f->clear();
    clearChart();
    updateButton();
}

void ImageExplainView::modelAvailable(bool available) {
    available_ = available;
    updateButton();
}

void ImageExplainView::setModelIsClassifier(bool classifier) {
    classifier_ = classifier;
    updateButton();
}

void ImageExplainView::applyColormap(ColormapId id) {
    style_.colormap = id;
    redraw();
}

void ImageExplainView::setImage(const Image& image, const QString& name) {
    if (image.pixels == image_.pixels && name == name_) return;
    image_ = image;
    name_ = name;
    if (image.pixels != explainedImage_.pixels) {
        const QSignalBlocker quiet(word_);
        word_->clear();  // its caption comes with the Image view's
    }
    if (explanation_ && explainedImage_.pixels != image.pixels) {  // the maps were of another image
        explanation_.reset();
        result_->hide();
        showStatus(QString(), false);
    }
    updateButton();
}

void ImageExplainView::setCaption(const std::vector<std::string>& words) {
    QStringList items;
    for (std::size_t i = 0; i < words.size(); ++i) items << QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(words[i]));
    QStringList before;
    for (int i = 0; i < word_->count(); ++i) before << word_->itemText(i);
    if (items != before) {
        const int keep = word_->currentIndex();
        const QSignalBlocker quiet(word_);
        word_->clear();
        word_->addItems(items);
        // The same place if it is still there, else the first shape word ("a red disk": 3).
        word_->setCurrentIndex(keep >= 0 && keep < word_->count() ? keep : std::min(2, word_->count() - 1));
    }
    updateButton();
}

void ImageExplainView::setBusy(bool busy) {
    busy_ = busy;
    if (busy) showStatus(tr("Explaining: the maps, then their deletion curves…"), false);
    updateButton();
}

void ImageExplainView::showStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #b01c1c;") : QString());
}

QString ImageExplainView::statusText() const { return status_->text(); }

void ImageExplainView::updateButton() {
    QString header;
    if (!available_) header = tr("Train or open a ViT or a captioner: the explanation lab compares its attention with "
                                 "what its gradients say, on the image the Image view shows.");
    else if (image_.pixels.empty()) header = tr("Choose an image in the Image view first.");
    else if (!classifier_ && word_->count() == 0) header = tr("The image: %1. Waiting for its caption…").arg(name_);
    else if (!classifier_) header = tr("The image: %1. Choose a word of its caption:").arg(name_);
    else header = tr("The image: %1").arg(name_);
    header_->setText(header);
    word_->setVisible(available_ && !classifier_);
    explain_->setEnabled(available_ && !image_.pixels.empty() && !busy_ && (classifier_ || word_->count() > 0));
}

void ImageExplainView::setFailed(const QString& message) {
    busy_ = false;
    showStatus(message, true);
    updateButton();
}

void ImageExplainView::setExplanation(const Image& image, const ImageExplanation& e) {
    busy_ = false;
    explainedImage_ = image;
    explanation_ = e;
    const QString what = e.caption.empty() ? QString::fromStdString(e.label)
                                           : tr("\"%1\" (word %2 of the caption)").arg(QString::fromStdString(e.label)).arg(e.wordIndex + 1);
    showStatus(tr("%1, p = %2. Larger area over the deletion curve: removing what the method ranks first hurts "
                  "the model more, so the method finds what the model uses.")
                   .arg(what)
                   .arg(e.probability, 0, 'f', 3),
               false);
    const std::vector<std::string> methods = methodsOf(e);
    for (std::size_t i = 0; i < canvases_.size(); ++i) {
        const bool used = i < methods.size();
        titles_[i]->setVisible(used);
        canvases_[i]->setVisible(used);
        figures_[i]->setVisible(used);
        if (!used) continue;
        titles_[i]->setText(QStringLiteral("<b>%1</b>").arg(methodTitle(methods[i])));
        const auto& area = e.deletion.areaOverCurve;
        QString text = tr("area over curve %1").arg(number(area.count(methods[i]) ? area.at(methods[i]) : kNaN));
        if (e.hasBox && e.massInBox.count(methods[i]))
            text += QStringLiteral("<br>") + tr("in the box %1").arg(number(e.massInBox.at(methods[i])));
        figures_[i]->setText(text);
    }
    const double random = e.deletion.areaOverCurve.count("random") ? e.deletion.areaOverCurve.at("random") : kNaN;
    QString note = tr("Random order: area over curve %1.").arg(number(random));
    if (e.hasBox && !e.boxObject.empty())
        note += QLatin1Char(' ') + tr("The box is the %1's, the object the word belongs to: %2 of the image, what "
                                      "uniform weights would put in it.")
                                       .arg(QString::fromStdString(e.boxObject))
                                       .arg(number(e.boxShare, 3));
    else if (e.hasBox)
        note += QLatin1Char(' ') + tr("The box is %1 of the image: uniform weights would put that much in it.").arg(number(e.boxShare, 3));
    boxNote_->setText(note);
    fillTau(e);
    completeness_->setText(completenessText());
    fillChart(e);
    result_->show();
    redraw();
    updateButton();
}

QString ImageExplainView::completenessText() const {
    if (!explanation_) return QString();
    const ImageExplanation& e = *explanation_;
    return tr("Integrated gradients (%1 steps from the black image): the attributions sum to %2, the logit changes by "
              "%3 (%4% apart).")
        .arg(e.igSteps)
        .arg(number(e.igAttributionSum, 3), number(e.igOutputDifference, 3), number(100.0 * igCompletenessError(e), 1));
}

void ImageExplainView::fillTau(const ImageExplanation& e) {
    const std::vector<std::string> methods = methodsOf(e);
    const auto n = static_cast<int>(methods.size());
    tau_->setRowCount(n);
    tau_->setColumnCount(n);
    QStringList names, shortNames;
    for (const auto& m : methods) {
        names << methodTitle(m);
        shortNames << shortTitle(m);
    }
    tau_->setHorizontalHeaderLabels(shortNames);
    tau_->setVerticalHeaderLabels(names);
    for (int i = 0; i < n; ++i) tau_->horizontalHeaderItem(i)->setToolTip(names[i]);
    for (std::size_t a = 0; a < methods.size(); ++a)
        for (std::size_t b = 0; b < methods.size(); ++b) {
            QString text = a == b ? QStringLiteral("1") : QStringLiteral("–");
            if (const auto row = e.kendallTau.find(methods[a]); row != e.kendallTau.end())
                if (const auto v = row->second.find(methods[b]); v != row->second.end()) text = number(v->second);
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignCenter);
            tau_->setItem(static_cast<int>(a), static_cast<int>(b), item);
        }
    tau_->resizeRowsToContents();
    int height = tau_->horizontalHeader()->sizeHint().height() + 2 * tau_->frameWidth();
    for (int r = 0; r < tau_->rowCount(); ++r) height += tau_->rowHeight(r);
    tau_->setFixedHeight(height);
}

void ImageExplainView::clearChart() {
    const auto series = chart_->series();
    for (auto* s : series) {
        chart_->removeSeries(s);
        delete s;
    }
}

void ImageExplainView::fillChart(const ImageExplanation& e) {
    clearChart();
    std::vector<std::string> names = methodsOf(e);
    names.push_back("random");
    for (const auto& name : names) {
        const auto found = e.deletion.probability.find(name);
        if (found == e.deletion.probability.end()) continue;
        auto* line = new QLineSeries;
        line->setName(shortTitle(name));
        QPen pen(methodColor(name));
        pen.setWidthF(name == "random" ? 2.0 : 2.5);
        if (name == "random") pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        for (std::size_t k = 0; k < found->second.size() && k < e.deletion.fractions.size(); ++k)
            line->append(e.deletion.fractions[k], found->second[k]);
        chart_->addSeries(line);
        line->attachAxis(x_);
        line->attachAxis(y_);
    }
    chart_->setTitle(tr("Deletion test: the probability of %1").arg(QString::fromStdString(e.label)));
    const bool word = !e.caption.empty();
    styleAxis(x_, word ? tr("share of grid cells removed, most important first")
                       : tr("share of patches removed, most important first"));
    styleAxis(y_, word ? tr("probability of the word") : tr("probability of the class"));
}

void ImageExplainView::redraw() {
    if (!explanation_) return;
    const ImageExplanation& e = *explanation_;
    const std::vector<std::string> methods = methodsOf(e);
    for (std::size_t i = 0; i < canvases_.size(); ++i) {
        const auto found = i < methods.size() ? e.maps.find(methods[i]) : e.maps.end();
        if (found == e.maps.end()) {
            canvases_[i]->clear();
            continue;
        }
        canvases_[i]->setPicture(overlayImage(explainedImage_, floatsOf(found->second), e.gridRows, e.gridCols, style_, 2 * kMapSide),
                                 e.gridRows, e.gridCols);
    }
}

bool ImageExplainView::exportView(const QString& path, double scale, QString* error) const {
    if (!explanation_) return fail(error, tr("Explain an image first"));
    if (isMatrixPath(path)) return fail(error, tr("The explanation is exported as PNG, SVG or PDF"));
    const ImageExplanation& e = *explanation_;
    std::vector<std::vector<float>> maps;
    QStringList labels;
    for (const auto& m : methodsOf(e))
        if (const auto found = e.maps.find(m); found != e.maps.end()) {
            maps.push_back(floatsOf(found->second));
            labels << methodTitle(m);
        }
    return FigureWriter::report(
        FigureWriter::write(path, imageAttentionStrip(explainedImage_, maps, labels, e.gridRows, e.gridCols, style_), scale),
        error);
}

}  // namespace attnlab
