#include "views/classify/TextsView.h"
#include "widgets/WidgetStyle.h"
#include "widgets/WordStrip.h"
#include <QAbstractTableModel>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

namespace attnlab {

// The corpus as a table: number, label, text, rationale words. Read-only, computed on demand, so a
// langid corpus of 24,000 messages costs no widgets.
class ClassifyCorpusModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setCorpus(std::shared_ptr<const ClassificationCorpus> corpus) {
        beginResetModel();
        corpus_ = std::move(corpus);
        endResetModel();
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || !corpus_ ? 0 : static_cast<int>(corpus_->examples.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : 4; }
    QVariant data(const QModelIndex& index, int role) const override {
        if (!corpus_ || !index.isValid()) return {};
        const LabeledText& e = corpus_->examples[static_cast<std::size_t>(index.row())];
        if (role == Qt::UserRole) return index.row();
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
        switch (index.column()) {
        case 0: return index.row() + 1;
        case 1: return QString::fromStdString(e.label);
        case 2: return QString::fromStdString(e.text);
        case 3: return rationaleWords(e);
        }
        return {};
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
        switch (section) {
        case 0: return TextsView::tr("#");
        case 1: return TextsView::tr("Label");
        case 2: return TextsView::tr("Text");
        case 3: return TextsView::tr("Rationale");
        }
        return {};
    }
    static QStringList words(const LabeledText& e) {
        return QString::fromStdString(e.text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    }
    static QString rationaleWords(const LabeledText& e) {
        const QStringList w = words(e);
        QStringList out;
        for (int i : e.rationale)
            if (i >= 0 && i < w.size()) out << w[i];
        return out.join(QLatin1Char(' '));
    }

private:
    std::shared_ptr<const ClassificationCorpus> corpus_;
};

TextsView::TextsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    labelFilter_ = new QComboBox;
    labelFilter_->setObjectName(QStringLiteral("textsLabelFilter"));
    labelFilter_->setToolTip(tr("Show the texts of one label"));
    top->addWidget(summary_, 1);
    top->addWidget(new QLabel(tr("Label:")));
    top->addWidget(labelFilter_);
    layout->addLayout(top);

    model_ = new ClassifyCorpusModel(this);
    filter_ = new QSortFilterProxyModel(this);
    filter_->setSourceModel(model_);
    filter_->setFilterKeyColumn(1);
    table_ = new QTableView;
    table_->setObjectName(QStringLiteral("textsTable"));
    table_->setModel(filter_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Interactive);
    table_->setWordWrap(false);
    table_->setMinimumHeight(200);
    layout->addWidget(table_, 3);

    detail_ = new QLabel;
    detail_->setWordWrap(true);
    detail_->setObjectName(QStringLiteral("textsDetail"));
    layout->addWidget(detail_);
    strip_ = new WordStrip;
    scaleFont(strip_, 1.2);
    layout->addWidget(strip_);
    auto* buttons = new QHBoxLayout;
    toClassify_ = new QPushButton(tr("Open in Classify"));
    toExplain_ = new QPushButton(tr("Explain This Text"));
    buttons->addStretch(1);
    buttons->addWidget(toClassify_);
    buttons->addWidget(toExplain_);
    layout->addLayout(buttons);

    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                selected_ = current.isValid() ? filter_->data(current, Qt::UserRole).toInt() : -1;
                attention_.reset();
                showSelected();
                if (selected_ >= 0 && modelAvailable_)
                    Q_EMIT attentionRequested(QString::fromStdString(corpus_->examples[static_cast<std::size_t>(selected_)].text));
            });
    connect(labelFilter_, &QComboBox::currentIndexChanged, this, [this] {
        const QString label = labelFilter_->currentData().toString();
        filter_->setFilterRegularExpression(
            label.isEmpty() ? QString() : QStringLiteral("^%1$").arg(QRegularExpression::escape(label)));
    });
    const auto sendText = [this](void (TextsView::*signal)(const QString&)) {
        return [this, signal] {
            if (selected_ >= 0)
                Q_EMIT(this->*signal)(QString::fromStdString(corpus_->examples[static_cast<std::size_t>(selected_)].text));
        };
    };
    connect(toClassify_, &QPushButton::clicked, this, sendText(&TextsView::classifyRequested));
    connect(toExplain_, &QPushButton::clicked, this, sendText(&TextsView::explainRequested));
    setCorpus(nullptr);
}

TextsView::~TextsView() = default;

QString TextsView::viewTitle() const { return tr("Texts"); }

QString TextsView::viewToolTip() const {
    return tr("The dataset's texts and labels, with the words that decide each label against the model's attention.");
}

void TextsView::setCorpus(std::shared_ptr<const ClassificationCorpus> corpus) {
    corpus_ = std::move(corpus);
    model_->setCorpus(corpus_);
    selected_ = -1;
    attention_.reset();
    labelFilter_->clear();
    labelFilter_->addItem(tr("all"), QString());
    if (corpus_)
        for (const std::string& label : corpus_->labels) labelFilter_->addItem(QString::fromStdString(label), QString::fromStdString(label));
    table_->setColumnHidden(3, !corpus_ || !corpus_->hasRationales);
    if (!corpus_)
        summary_->setText(tr("No texts yet: choose a dataset in the setup panel."));
    else
        summary_->setText(tr("<b>%1</b>: %2 texts, %3 classes%4")
                              .arg(QString::fromStdString(corpus_->name).toHtmlEscaped())
                              .arg(corpus_->examples.size())
                              .arg(corpus_->labels.size())
                              .arg(corpus_->hasRationales ? tr("; the underlined words are each text's gold rationale")
                                                          : QString()));
    showSelected();
}

QString TextsView::summary() const { return summary_->text(); }

void TextsView::selectExample(int index) {
    if (!corpus_ || index < 0 || index >= static_cast<int>(corpus_->examples.size())) {
        table_->clearSelection();
        return;
    }
    const QModelIndex source = model_->index(index, 0);
    const QModelIndex shown = filter_->mapFromSource(source);
    if (!shown.isValid()) labelFilter_->setCurrentIndex(0);
    table_->setCurrentIndex(filter_->mapFromSource(source));
    table_->scrollTo(table_->currentIndex());
}

void TextsView::clearView() {
    attention_.reset();
    showSelected();
}

void TextsView::modelAvailable(bool available) {
    modelAvailable_ = available;
    toClassify_->setEnabled(available && selected_ >= 0);
    toExplain_->setEnabled(available && selected_ >= 0);
    if (!available) clearView();
}

void TextsView::setAttention(const Classification& result) {
    attention_ = result;
    showSelected();
}

void TextsView::showSelected() {
    toClassify_->setEnabled(modelAvailable_ && selected_ >= 0);
    toExplain_->setEnabled(modelAvailable_ && selected_ >= 0);
    if (!corpus_ || selected_ < 0) {
        detail_->setText(corpus_ ? tr("Select a text to see its rationale against the model's attention.") : QString());
        strip_->clear();
        return;
    }
    const LabeledText& e = corpus_->examples[static_cast<std::size_t>(selected_)];
    const QStringList words = ClassifyCorpusModel::words(e);
    std::vector<WordRow> rows;
    if (corpus_->hasRationales) {
        std::vector<double> gold(static_cast<std::size_t>(words.size()), 0.0);
        for (int i : e.rationale)
            if (i >= 0 && i < words.size()) gold[static_cast<std::size_t>(i)] = 1.0;
        rows.push_back({tr("Rationale"), gold});
    }
    QString text = tr("Label <b>%1</b>").arg(QString::fromStdString(e.label).toHtmlEscaped());
    QStringList shownWords = words;
    if (attention_) {
        const Classification& c = *attention_;
        QStringList tokens;
        const std::size_t from = c.rollout.empty() ? 0 : 1;  // a Transformer's [CLS]
        for (std::size_t i = from; i < c.tokens.size(); ++i) tokens << QString::fromStdString(c.tokens[i]);
        const std::vector<double> weights = wordAttention(c);  // the hops' mean, as the rationale mass is scored
        if (tokens.size() != words.size()) {  // characters, or a tokenizer that split the words otherwise
            rows.clear();
            shownWords = tokens;
        }
        if (!weights.empty()) {
            rows.push_back({tr("Attention"), weights});
            double mass = 0;
            for (int i : e.rationale)
                if (i >= 0 && i < static_cast<int>(weights.size()) && tokens.size() == words.size())
                    mass += weights[static_cast<std::size_t>(i)];
            if (corpus_->hasRationales && tokens.size() == words.size())
                text += tr(" · the model says <b>%1</b> · attention on the rationale: %2 (uniform: %3)")
                            .arg(QString::fromStdString(c.label).toHtmlEscaped())
                            .arg(mass, 0, 'f', 2)
                            .arg(static_cast<double>(e.rationale.size()) / std::max<qsizetype>(1, words.size()), 0, 'f', 2);
            else
                text += tr(" · the model says <b>%1</b>").arg(QString::fromStdString(c.label).toHtmlEscaped());
        } else {
            text += tr(" · the model says <b>%1</b> (it has no attention to show)").arg(QString::fromStdString(c.label).toHtmlEscaped());
        }
    } else if (modelAvailable_) {
        text += tr(" · asking the model…");
    }
    detail_->setText(text);
    strip_->setWords(shownWords, rows);
    if (shownWords.size() == words.size()) strip_->setMarked(e.rationale);
}

bool TextsView::exportsFigure() const { return !strip_->isEmpty(); }

bool TextsView::exportView(const QString& path, double scale, QString* error) const {
    if (strip_->isEmpty()) return fail(error, tr("Select a text first"));
    if (isMatrixPath(path)) return fail(error, tr("The Texts view is exported as PNG, SVG or PDF"));
    return FigureWriter::report(FigureWriter::write(path, strip_->figure(detail_->text().remove(QRegularExpression(QStringLiteral("<[^>]*>")))), scale), error);
}

}  // namespace attnlab
