#include "views/heads/ProjectorView.h"

#include "render/FigureWriter.h"
#include "widgets/ChartStyle.h"
#include "widgets/LineViewWidget.h"
#include "widgets/WidgetStyle.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace attnlab {

namespace {

constexpr int kColouredTokens = 8;
constexpr int kPositionGroups = 8;  // 1..8, then "9 and later"

}  // namespace

ProjectorView::ProjectorView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);
    auto* intro = new QLabel(
        tr("Which words does the encoder treat alike? Every word of the validation sentences is one point: its "
           "encoder state at the chosen layer, projected to two dimensions by PCA. Click a point to see its sentence "
           "and the words whose states are nearest (cosine similarity, in all dimensions)."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* row = new QHBoxLayout;
    project_ = new QPushButton(tr("Project"));
    layer_ = new QSpinBox;
    layer_->setRange(0, 1);
    layer_->setSpecialValueText(tr("last"));
    layer_->setToolTip(tr("The encoder layer whose states are projected (a GRU has one set of states)."));
    limit_ = new QSpinBox;
    limit_->setRange(1, 5000);
    limit_->setValue(200);
    limit_->setToolTip(tr("How many validation sentences to project."));
    colourBy_ = new QComboBox;
    colourBy_->addItem(tr("token"));
    colourBy_->addItem(tr("position"));
    colourBy_->setToolTip(tr("Colour by token: the eight most frequent words each a colour, the rest grey. By "
                             "position: the word's place in its sentence."));
    status_ = new QLabel;
    status_->setWordWrap(true);
    row->addWidget(project_);
    row->addWidget(new QLabel(tr("Layer:")));
    row->addWidget(layer_);
    row->addWidget(new QLabel(tr("Sentences:")));
    row->addWidget(limit_);
    row->addWidget(new QLabel(tr("Colour by:")));
    row->addWidget(colourBy_);
    row->addWidget(status_, 1);
    layout->addLayout(row);

    chart_ = makeChart(tr("Encoder states, PCA"));
    x_ = new QValueAxis;
    y_ = new QValueAxis;
    styleAxis(x_, tr("first component"));
    styleAxis(y_, tr("second component"));
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    layout->addWidget(makeChartView(chart_), 1);
    details_ = new QLabel;
    details_->setTextFormat(Qt::PlainText);
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(details_);

    connect(project_, &QPushButton::clicked, this, [this] {
        setBusy(true);
        status_->setText(tr("Projecting…"));
        Q_EMIT projectRequested(layer_->value(), limit_->value());
    });
    connect(colourBy_, &QComboBox::currentIndexChanged, this, &ProjectorView::redraw);
    clearView();
}

QString ProjectorView::status() const { return status_->text(); }

QString ProjectorView::details() const { return details_->text(); }

void ProjectorView::setBusy(bool busy) { project_->setEnabled(!busy && available_); }

void ProjectorView::setProjection(const StateProjection& projection, const QString& corpus) {
    projection_ = projection;
    hasProjection_ = true;
    setBusy(false);
    status_->setText(tr("%1 words of %2 sentences of %3, layer %4; the two components hold %5% and %6% of the "
                        "variance.")
                         .arg(projection.points.size())
                         .arg(projection.sentences.size())
                         .arg(corpus)
                         .arg(projection.layer)
                         .arg(projection.explained[0] * 100, 0, 'f', 1)
                         .arg(projection.explained[1] * 100, 0, 'f', 1));
    details_->setText(tr("Click a point to see its sentence and its nearest words."));
    redraw();
}

void ProjectorView::setFailed(const QString& message) {
    setBusy(false);
    status_->setText(tr("Could not project: %1").arg(message));
}

void ProjectorView::redraw() {
    for (QScatterSeries* s : series_) {
        chart_->removeSeries(s);
        delete s;
    }
    series_.clear();
    seriesPoints_.clear();
    if (!hasProjection_ || projection_.points.empty()) return;
    // The groups: by token (the most frequent first) or by position.
    std::vector<int> group(projection_.points.size(), 0);
    QStringList names;
    if (colourBy_->currentIndex() == 0) {
        std::map<std::string, int> counts;
        for (const auto& p : projection_.points) ++counts[p.token];
        std::vector<std::pair<int, std::string>> byCount;
        for (const auto& [token, n] : counts) byCount.emplace_back(-n, token);
        std::sort(byCount.begin(), byCount.end());
        std::map<std::string, int> index;
        for (int i = 0; i < std::min<int>(kColouredTokens, static_cast<int>(byCount.size())); ++i) {
            index[byCount[static_cast<std::size_t>(i)].second] = i;
            names << QStringLiteral("«%1»").arg(QString::fromStdString(byCount[static_cast<std::size_t>(i)].second));
        }
        const int other = static_cast<int>(names.size());
        if (byCount.size() > static_cast<std::size_t>(kColouredTokens)) names << tr("other words");
        for (std::size_t i = 0; i < projection_.points.size(); ++i) {
            const auto found = index.find(projection_.points[i].token);
            group[i] = found != index.end() ? found->second : other;
        }
    } else {
        for (int g = 0; g < kPositionGroups; ++g) names << tr("position %1").arg(g + 1);
        names << tr("position %1 and later").arg(kPositionGroups + 1);
        for (std::size_t i = 0; i < projection_.points.size(); ++i)
            group[i] = std::min(projection_.points[i].position, kPositionGroups);
    }
    for (int g = 0; g < names.size(); ++g) {
        auto* s = new QScatterSeries;
        s->setName(names[g]);
        s->setMarkerSize(8.0);
        const bool rest = colourBy_->currentIndex() == 0 && g == kColouredTokens;
        s->setColor(rest ? QColor(0xbb, 0xbb, 0xbb) : LineViewRenderer::headColor(g));
        s->setBorderColor(Qt::transparent);
        series_ << s;
        seriesPoints_ << std::vector<std::size_t>{};
    }
    double minX = 0, maxX = 0, minY = 0, maxY = 0;
    for (std::size_t i = 0; i < projection_.points.size(); ++i) {
        const auto& p = projection_.points[i];
        series_[group[i]]->append(p.x, p.y);
        seriesPoints_[group[i]].push_back(i);
        minX = std::min(minX, p.x);
        maxX = std::max(maxX, p.x);
        minY = std::min(minY, p.y);
        maxY = std::max(maxY, p.y);
    }
    for (int g = 0; g < series_.size(); ++g) {
        QScatterSeries* s = series_[g];
        chart_->addSeries(s);
        s->attachAxis(x_);
        s->attachAxis(y_);
        connect(s, &QScatterSeries::clicked, this, [this, g](const QPointF& at) {
            // The series' point nearest the click.
            const auto& indices = seriesPoints_[g];
            std::size_t best = indices.empty() ? 0 : indices.front();
            double bestDistance = -1;
            for (std::size_t i : indices) {
                const double dx = projection_.points[i].x - at.x(), dy = projection_.points[i].y - at.y();
                const double d = dx * dx + dy * dy;
                if (bestDistance < 0 || d < bestDistance) {
                    bestDistance = d;
                    best = i;
                }
            }
            if (!indices.empty()) selectPoint(best);
        });
    }
    const double padX = std::max(1e-6, (maxX - minX) * 0.05), padY = std::max(1e-6, (maxY - minY) * 0.05);
    x_->setRange(minX - padX, maxX + padX);
    y_->setRange(minY - padY, maxY + padY);
}

void ProjectorView::selectPoint(std::size_t index) {
    if (index >= projection_.points.size()) return;
    const auto& p = projection_.points[index];
    QString text = tr("«%1», word %2 of “%3”. Nearest:")
                       .arg(QString::fromStdString(p.token))
                       .arg(p.position + 1)
                       .arg(QString::fromStdString(projection_.sentences[p.sentence]));
    for (const auto& [i, similarity] : nearestPoints(projection_, index, 5)) {
        const auto& q = projection_.points[i];
        text += QStringLiteral("\n  %1  «%2» in “%3”")
                    .arg(similarity, 0, 'f', 3)
                    .arg(QString::fromStdString(q.token), QString::fromStdString(projection_.sentences[q.sentence]));
    }
    details_->setText(text);
}

QByteArray ProjectorView::csv() const {
    QByteArray out = "x,y,sentence,position,token\n";
    const auto quoted = [](const std::string& s) {
        QByteArray b = QByteArray::fromStdString(s);
        b.replace("\"", "\"\"");
        return "\"" + b + "\"";
    };
    for (const auto& p : projection_.points)
        out += QByteArray::number(p.x, 'g', 9) + ',' + QByteArray::number(p.y, 'g', 9) + ',' +
               quoted(projection_.sentences[p.sentence]) + ',' + QByteArray::number(p.position) + ',' + quoted(p.token) +
               '\n';
    return out;
}

// ---- View ----------------------------------------------------------------------------------------

QString ProjectorView::viewTitle() const { return tr("Projector"); }

QString ProjectorView::viewToolTip() const {
    return tr("Every word's encoder state over the validation sentences, projected to two dimensions; click one to "
              "see its nearest words.");
}

void ProjectorView::clearView() {
    projection_ = StateProjection{};
    hasProjection_ = false;
    redraw();
    setBusy(false);
    details_->clear();
    status_->setText(available_ ? tr("Press Project to place every word of the validation sentences.")
                                : tr("Train or open a translation model first."));
}

void ProjectorView::modelChanged(const ModelInfo* model) {
    transformer_ = model != nullptr && model->architecture == QLatin1String("transformer");
    layers_ = transformer_ && model->layers > 0 ? model->layers : 1;
    layer_->setRange(0, layers_);
    layer_->setEnabled(transformer_);
    clearView();
}

void ProjectorView::modelAvailable(bool available) {
    available_ = available;
    setBusy(false);
    if (!hasProjection_) clearView();
}

bool ProjectorView::exportView(const QString& path, double scale, QString* error) const {
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format == ExportFormat::Npy)
        return fail(error, tr("the points are exported as CSV, not NPY: save the file with the .csv extension"));
    if (format && !hasProjection_) return fail(error, tr("there is nothing to export yet: press Project first"));
    if (format == ExportFormat::Csv) return FigureWriter::report(FigureWriter::writeBytes(path, csv()), error);
    return exportCharts({chart_}, {1.0}, QSize(900, 700), tr("Encoder states, PCA"), path, scale, error);
}

}  // namespace attnlab
