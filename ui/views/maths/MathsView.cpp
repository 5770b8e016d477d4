#include "views/maths/MathsView.h"

#include "render/Colormap.h"
#include "widgets/WidgetStyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace attnlab {

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

QLabel* sectionLabel(const QString& text) {
    auto* label = new QLabel(text);
    QFont bold = label->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    label->setFont(bold);
    return label;
}

QLabel* captionLabel() {
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    scaleFont(label, 1.1);
    return label;
}

QString escaped(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

// The weight as a bar behind its number, so that the largest weights stand out from across a room.
class WeightBarDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const double weight = std::clamp(index.data(MathsView::kValueRole).toDouble(), 0.0, 1.0);
        if (weight > 0.0) {
            QRectF bar = QRectF(option.rect).adjusted(3, 4, -3, -4);
            bar.setWidth(bar.width() * weight);
            QColor colour = QColor::fromRgb(Colormap::color(ColormapId::Viridis, 0.6));
            colour.setAlpha(120);
            painter->fillRect(bar, colour);
        }
        QStyledItemDelegate::paint(painter, option, index);
    }
};

QTableWidgetItem* cell(const QString& text, double value = std::nan(""), bool bold = false) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!std::isnan(value)) item->setData(MathsView::kValueRole, value);
    if (bold) {
        QFont font = item->font();
        font.setBold(true);
        item->setFont(font);
    }
    return item;
}

// Tall enough for every row, so that the page scrolls as one instead of each table on its own.
void fitHeight(QTableWidget* table) {
    table->resizeRowsToContents();
    int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
    for (int r = 0; r < table->rowCount(); ++r) height += table->rowHeight(r);
    if (table->horizontalScrollBar()->isVisible()) height += table->horizontalScrollBar()->sizeHint().height();
    table->setFixedHeight(height);
}

QTableWidget* makeTable() {
    auto* table = new QTableWidget;
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setFocusPolicy(Qt::NoFocus);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setWordWrap(false);
    scaleFont(table, 1.15);
    table->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    return table;
}

}  // namespace

QString MathsView::formatNumber(double value) {
    if (std::isnan(value)) return QStringLiteral("—");
    if (std::isinf(value)) return value < 0 ? QStringLiteral("−∞") : QStringLiteral("+∞");
    QString text = QString::number(value, 'f', 4);
    if (text == QLatin1String("-0.0000")) text = QStringLiteral("0.0000");
    text.replace(QLatin1Char('-'), QChar(0x2212));  // a minus sign as wide as the plus
    return text;
}

MathsView::MathsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    auto* inputRow = new QHBoxLayout;
    input_ = new QLineEdit;
    input_->setPlaceholderText(tr("Type a sentence and press Enter to see how its attention is computed"));
    input_->setClearButtonEnabled(true);
    scaleFont(input_, 1.3);
    input_->setToolTip(tr("The sentence to translate; the steps below belong to one token of its translation."));
    show_ = new QPushButton(style()->standardIcon(QStyle::SP_ArrowRight), tr("Show Steps"));
    show_->setToolTip(tr("Translate the sentence and show the steps for its first output token (Enter)."));
    inputRow->addWidget(input_, 1);
    inputRow->addWidget(show_);
    layout->addLayout(inputRow);

    auto* selectorRow = new QHBoxLayout;
    tokenLabel_ = new QLabel(tr("Output token:"));
    token_ = new QComboBox;
    token_->setMinimumContentsLength(12);
    token_->setToolTip(tr("The token whose attention is computed below: one row of the heatmap."));
    selectorRow->addWidget(tokenLabel_);
    selectorRow->addWidget(token_);
    transformerControls_ = new QWidget;
    auto* controls = new QHBoxLayout(transformerControls_);
    controls->setContentsMargins(12, 0, 0, 0);
    kind_ = new QComboBox;
    kind_->addItem(tr("Cross-attention (decoder → encoder)"), static_cast<int>(MapKind::Cross));
    kind_->addItem(tr("Encoder self-attention"), static_cast<int>(MapKind::Encoder));
    kind_->addItem(tr("Decoder self-attention"), static_cast<int>(MapKind::Decoder));
    kind_->setToolTip(tr("Which attention of the Transformer to take apart."));
    layer_ = new QComboBox;
    layer_->setToolTip(tr("The layer, counted from 0 at the bottom."));
    head_ = new QComboBox;
    head_->setToolTip(tr("The head of that layer: each head scores with its own Q, K and V."));
    controls->addWidget(kind_);
    controls->addSpacing(6);
    controls->addWidget(new QLabel(tr("Layer:")));
    controls->addWidget(layer_);
    controls->addSpacing(6);
    controls->addWidget(new QLabel(tr("Head:")));
    controls->addWidget(head_);
    selectorRow->addWidget(transformerControls_);
    selectorRow->addStretch(1);
    layout->addLayout(selectorRow);

    status_ = new QLabel;
    status_->setWordWrap(true);
    layout->addWidget(status_);

    stack_ = new QStackedWidget;
    message_ = makePlaceholderLabel();
    stack_->addWidget(message_);

    auto* page = new QWidget;
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 8, 0);
    pageLayout->setSpacing(8);
    sentenceLine_ = new QLabel;
    sentenceLine_->setTextFormat(Qt::RichText);
    sentenceLine_->setWordWrap(true);
    sentenceLine_->setToolTip(tr("Click a token to take its attention apart."));
    scaleFont(sentenceLine_, 1.4);
    pageLayout->addWidget(sentenceLine_);

    pageLayout->addWidget(sectionLabel(tr("Formula")));
    formula_ = new QLabel;
    formula_->setTextFormat(Qt::RichText);
    formula_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    formula_->setMargin(6);
    formula_->setFrameShape(QFrame::StyledPanel);
    scaleFont(formula_, 1.35);
    pageLayout->addWidget(formula_);
    query_ = captionLabel();
    query_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pageLayout->addWidget(query_);

    pageLayout->addWidget(sectionLabel(tr("From scores to weights")));
    for (int i = 0; i < 4; ++i) {
        stages_[i] = captionLabel();
        pageLayout->addWidget(stages_[i]);
    }
    table_ = makeTable();
    table_->setColumnCount(ColumnCount);
    table_->setItemDelegateForColumn(WeightColumn, new WeightBarDelegate(table_));
    table_->horizontalHeader()->setStretchLastSection(true);
    pageLayout->addWidget(table_);

    pageLayout->addWidget(sectionLabel(tr("From weights to the context vector")));
    stages_[4] = captionLabel();
    pageLayout->addWidget(stages_[4]);
    context_ = makeTable();
    pageLayout->addWidget(context_);
    pageLayout->addStretch(1);

    auto* scroll = new QScrollArea;
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    stack_->addWidget(scroll);
    layout->addWidget(stack_, 1);

    connect(input_, &QLineEdit::returnPressed, this, &MathsView::requestTrace);
    connect(show_, &QPushButton::clicked, this, &MathsView::requestTrace);
    connect(token_, &QComboBox::currentIndexChanged, this, &MathsView::requestSelected);
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        {
            const QSignalBlocker block(token_);  // another kind has other rows: start from the first
            token_->setCurrentIndex(token_->count() > 0 ? 0 : -1);
        }
        requestSelected();
    });
    connect(layer_, &QComboBox::currentIndexChanged, this, &MathsView::requestSelected);
    connect(head_, &QComboBox::currentIndexChanged, this, &MathsView::requestSelected);
    connect(sentenceLine_, &QLabel::linkActivated, this, [this](const QString& link) {
        bool ok = false;
        const int row = link.mid(4).toInt(&ok);  // "row:N"
        if (ok && row >= 0 && row < token_->count()) token_->setCurrentIndex(row);
    });
    token_->setEnabled(false);
    transformerControls_->setVisible(false);
    setModelAvailable(false);
}

QString MathsView::sentence() const { return input_->text(); }

void MathsView::setSentence(const QString& sentence) { input_->setText(sentence); }

TraceRequest MathsView::request() const {
    TraceRequest r;
    // A GRU has only cross-attention; before the first answer the architecture is not known yet.
    const bool transformer = hasTrace_ && trace_.architecture == Architecture::Transformer;
    r.kind = transformer ? static_cast<MapKind>(kind_->currentData().toInt()) : MapKind::Cross;
    r.layer = std::max(0, layer_->currentIndex());
    r.head = std::max(0, head_->currentIndex());
    r.step = std::max(0, token_->currentIndex());
    return r;
}

void MathsView::requestTrace() {
    const QString text = input_->text().trimmed();
    if (text.isEmpty()) {
        setError(tr("Type a sentence first."));
        return;
    }
    submitted_ = text;
    {
        const QSignalBlocker block(token_);
        token_->setCurrentIndex(token_->count() > 0 ? 0 : -1);
    }
    TraceRequest r = request();
    r.step = 0;
    Q_EMIT traceRequested(submitted_, r);
}

void MathsView::refresh() {
    if (!submitted_.isEmpty()) Q_EMIT traceRequested(submitted_, request());
}

void MathsView::requestSelected() {
    if (submitted_.isEmpty()) return;
    Q_EMIT traceRequested(submitted_, request());
}

void MathsView::setModelAvailable(bool available) {
    show_->setEnabled(available);
    if (!available) {
        message_->setText(tr("Start training or open a model, then type a sentence: this view takes the attention "
                             "of one output token apart, step by step, with the model's own numbers."));
        stack_->setCurrentWidget(message_);
    } else if (!hasTrace_) {
        message_->setText(tr("Type a sentence above and press Enter."));
        stack_->setCurrentWidget(message_);
    }
}

void MathsView::clear() {
    trace_ = AttentionTrace{};
    hasTrace_ = false;
    submitted_.clear();
    status_->clear();
    {
        const QSignalBlocker blockToken(token_);
        token_->clear();
    }
    token_->setEnabled(false);
    transformerControls_->setVisible(false);
    setModelAvailable(show_->isEnabled());
}

void MathsView::setError(const QString& message) {
    status_->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(message.toHtmlEscaped()));
}

void MathsView::setTrace(const AttentionTrace& trace) {
    trace_ = trace;
    hasTrace_ = true;
    status_->clear();
    updateSelectors();
    showTrace();
    stack_->setCurrentIndex(1);
}

void MathsView::updateSelectors() {
    const QSignalBlocker blockToken(token_);
    const QSignalBlocker blockKind(kind_);
    const QSignalBlocker blockLayer(layer_);
    const QSignalBlocker blockHead(head_);
    const bool transformer = trace_.architecture == Architecture::Transformer;
    transformerControls_->setVisible(transformer);
    if (transformer) {
        kind_->setCurrentIndex(std::max(0, kind_->findData(static_cast<int>(trace_.kind))));
        if (layer_->count() != trace_.layerCount) {
            layer_->clear();
            for (int l = 0; l < trace_.layerCount; ++l) layer_->addItem(QString::number(l + 1));
        }
        if (head_->count() != trace_.headCount) {
            head_->clear();
            for (int h = 0; h < trace_.headCount; ++h) head_->addItem(QString::number(h + 1));
        }
        layer_->setCurrentIndex(trace_.layer);
        head_->setCurrentIndex(trace_.head);
    }
    tokenLabel_->setText(trace_.kind == MapKind::Encoder ? tr("Query token:") : tr("Output token:"));
    QStringList items;
    for (std::size_t i = 0; i < trace_.queryTokens.size(); ++i)
        items << QStringLiteral("%1 · %2").arg(i + 1).arg(QString::fromStdString(trace_.queryTokens[i]));
    QStringList current;
    for (int i = 0; i < token_->count(); ++i) current << token_->itemText(i);
    if (current != items) {
        token_->clear();
        token_->addItems(items);
    }
    token_->setCurrentIndex(trace_.step);
    token_->setEnabled(token_->count() > 0);
}

QString MathsView::tokenLine() const {
    auto tokens = [](const std::vector<std::string>& list, int chosen, bool links) {
        QStringList parts;
        for (int i = 0; i < static_cast<int>(list.size()); ++i) {
            QString t = escaped(list[i]);
            if (i == chosen) {
                t = QStringLiteral("<span style='background:#fde68a; font-weight:bold'>&nbsp;%1&nbsp;</span>").arg(t);
            } else if (links) {
                t = QStringLiteral("<a href='row:%1' style='text-decoration:none'>%2</a>").arg(i).arg(t);
            }
            parts << t;
        }
        return parts.join(QStringLiteral("&nbsp; "));
    };
    if (trace_.kind == MapKind::Encoder) return tokens(trace_.sourceTokens, trace_.step, true);
    return tokens(trace_.sourceTokens, -1, false) + QStringLiteral("&nbsp;&nbsp;→&nbsp;&nbsp;") +
           tokens(trace_.outputTokens, trace_.step, true);
}

QString MathsView::scoreSymbol() const {
    if (trace_.architecture == Architecture::Transformer) return QStringLiteral("q · k_j");
    switch (trace_.attention) {
    case AttentionKind::Dot:
    case AttentionKind::ScaledDot: return QStringLiteral("s · h_j");
    case AttentionKind::General:
    case AttentionKind::LocalM:
    case AttentionKind::LocalP: return QStringLiteral("s · W h_j");
    case AttentionKind::Additive: return QStringLiteral("v · tanh(W s + U h_j + b)");
    case AttentionKind::None: break;
    }
    return QString();
}

QString MathsView::caption(int stage) const {
    if (stage < 1 || stage > 5) return QString();
    return stages_[stage - 1]->text();
}

QString MathsView::stageCaption(int stage) const {
    const bool transformer = trace_.architecture == Architecture::Transformer;
    const QString chosen = trace_.step >= 0 && trace_.step < trace_.queryCount()
                               ? QString::fromStdString(trace_.queryTokens[trace_.step]).toHtmlEscaped()
                               : QString();
    auto lead = [](int n, const QString& title) { return QStringLiteral("<b>%1. %2</b> ").arg(n).arg(title); };
    switch (stage) {
    case 1: {
        QString how;
        if (transformer) {
            // The decoder at output position i reads the token before it ("<s>" first) and predicts token i.
            const QString reads =
                trace_.step == 0 ? QStringLiteral("&lt;s&gt;")
                                 : QString::fromStdString(trace_.outputTokens[trace_.step - 1]).toHtmlEscaped();
            QString query;
            if (trace_.kind == MapKind::Encoder) {
                query = tr("source token “%1”, as the layer below left it,").arg(chosen);
            } else {
                query = tr("the decoder's state at this position (it reads “%1” and predicts “%2”)").arg(reads).arg(chosen);
            }
            const QString keys = trace_.kind == MapKind::Decoder ? tr("the state of every decoder position")
                                 : trace_.kind == MapKind::Encoder ? tr("every source token")
                                                            : tr("the encoder's output for every source token");
            how = tr("Head %1 turns %2 into a query q, and %3 into a key k_j, each with its own learned matrix. The "
                     "score is the dot product q · k_j: large when the query and the key point the same way.")
                      .arg(trace_.head + 1)
                      .arg(query)
                      .arg(keys);
        } else {
            switch (trace_.attention) {
            case AttentionKind::Dot:
            case AttentionKind::ScaledDot:
                how = tr("The score is the dot product of the decoder state s (what the decoder knows before writing "
                         "“%1”) with each encoder state h_j: large when they point the same way.")
                          .arg(chosen);
                break;
            case AttentionKind::General:
            case AttentionKind::LocalM:
            case AttentionKind::LocalP:
                how = tr("The score is the dot product of the decoder state s (what the decoder knows before writing "
                         "“%1”) with W h_j, each encoder state passed through a learned matrix W.")
                          .arg(chosen);
                break;
            case AttentionKind::Additive:
                how = tr("The score comes from a small learned network: v · tanh(W s + U h_j + b), where s is the "
                         "decoder state before writing “%1” and h_j the encoder state of each source token.")
                          .arg(chosen);
                break;
            case AttentionKind::None: break;
            }
        }
        if (!transformer && trace_.queryOrder == QueryOrder::After)
            how += QStringLiteral(" ") +
                   tr("This model queries after: s has already read the previous output token (Luong's order), "
                      "and the output layer reads s together with the context c.");
        return lead(1, tr("Score every token.")) + how;
    }
    case 2: {
        const QString factor = formatNumber(trace_.scale);
        if (transformer)
            return lead(2, tr("Scale.")) +
                   tr("Divide by √d_k = √%1, i.e. multiply by %2: without it, longer vectors would give larger "
                      "scores and a softmax that picks one token too sharply.")
                       .arg(trace_.dimension)
                       .arg(factor);
        if (trace_.attention == AttentionKind::ScaledDot)
            return lead(2, tr("Scale.")) +
                   tr("Divide by √H = √%1, i.e. multiply by %2, so that the scores do not grow with the size of the "
                      "vectors.")
                       .arg(trace_.dimension)
                       .arg(factor);
        return lead(2, tr("Scale.")) +
               tr("Attention “%1” does not scale its scores: the factor is 1.")
                   .arg(QString::fromStdString(toString(trace_.attention)));
    }
    case 3: {
        QString text;
        if (trace_.attention == AttentionKind::LocalM) {
            text = tr("Local attention only looks near the centre p_t = %1 (the output position): tokens further "
                      "than D = %2 from it get −∞.")
                       .arg(trace_.center, 0, 'f', 0)
                       .arg(trace_.window);
        } else if (trace_.attention == AttentionKind::LocalP) {
            text = tr("Local attention predicts a centre p_t = %1 from s and only looks within D = %2 of it; tokens "
                      "outside get −∞, and those inside lose (j − p_t)² / (2 (D/2)²), which favours the centre.")
                       .arg(formatNumber(trace_.center))
                       .arg(trace_.window);
        } else if (trace_.kind == MapKind::Decoder) {
            text = tr("A decoder position must not look ahead at tokens that are not written yet: later positions "
                      "get −∞ (the causal mask).");
        } else {
            text = tr("Padding would get −∞ here; one sentence alone has no padding, so every token is kept.");
        }
        return lead(3, tr("Mask.")) + text + QLatin1Char(' ') + tr("−∞ means: weight exactly 0.");
    }
    case 4: {
        const double sum = std::accumulate(trace_.weights.begin(), trace_.weights.end(), 0.0);
        return lead(4, tr("Softmax.")) +
               tr("a_j = exp(score_j) / Σ_k exp(score_k) turns the scores into weights between 0 and 1 that add up to "
                  "%1: the larger the score, the larger its share.")
                   .arg(formatNumber(sum));
    }
    case 5: {
        const QString shown = tr("First %1 of %2 numbers shown.")
                                  .arg(std::min(kShownDimensions, trace_.dimension))
                                  .arg(trace_.dimension);
        if (transformer)
            return lead(5, tr("Head output = weighted sum.")) +
                   tr("Each token's value vector v_j is multiplied by its weight and the results are added: Σ a_j v_j. "
                      "The outputs of all heads are joined and projected to give the layer's result.") +
                   QLatin1Char(' ') + shown;
        return lead(5, tr("Context vector = weighted sum.")) +
               tr("Each encoder state h_j is multiplied by its weight and the results are added: c = Σ a_j h_j. The "
                  "decoder reads c to choose “%1”.")
                   .arg(chosen) +
               QLatin1Char(' ') + shown;
    }
    default: return QString();
    }
}

void MathsView::showTrace() {
    sentenceLine_->setText(tokenLine());
    QStringList lines;
    for (const QString& line : QString::fromStdString(trace_.formula).split(QLatin1Char('\n')))
        lines << line.toHtmlEscaped();
    formula_->setText(lines.join(QStringLiteral("<br>")));

    const int n = std::min(kShownDimensions, trace_.dimension);
    QStringList numbers;
    for (int i = 0; i < n && i < static_cast<int>(trace_.query.size()); ++i) numbers << formatNumber(trace_.query[i]);
    if (trace_.dimension > n) numbers << QStringLiteral("…");
    const QString vector = QStringLiteral("[%1]").arg(numbers.join(QStringLiteral(", ")));
    query_->setText(trace_.architecture == Architecture::Transformer
                        ? tr("Query of head %1 at this position: q = %2").arg(trace_.head + 1).arg(vector)
                        : trace_.queryOrder == QueryOrder::After
                              ? tr("Decoder state after reading the previous token: s = %1").arg(vector)
                              : tr("Decoder state before this token: s = %1").arg(vector));

    for (int stage = 1; stage <= 5; ++stage) stages_[stage - 1]->setText(stageCaption(stage));
    fillStageTable();
    fillContextTable();
}

void MathsView::fillStageTable() {
    const int K = trace_.keyCount();
    const QString keyTitle = trace_.kind == MapKind::Decoder ? tr("Decoder input") : tr("Source token");
    table_->setHorizontalHeaderLabels({keyTitle, tr("1. Score\n%1").arg(scoreSymbol()),
                                       tr("2. Scaled\n× %1").arg(formatNumber(trace_.scale)), tr("3. Mask"),
                                       tr("Softmax input\n= 2 + 3"), tr("4. Weight a_j")});
    table_->horizontalHeaderItem(ScoreColumn)->setToolTip(tr("The raw score of each token."));
    table_->horizontalHeaderItem(ScaledColumn)->setToolTip(tr("The score times the scale factor."));
    table_->horizontalHeaderItem(MaskColumn)
        ->setToolTip(tr("What the mask adds: 0 to keep a token, −∞ to exclude it (local-p: the Gaussian penalty)."));
    table_->horizontalHeaderItem(SoftmaxInputColumn)->setToolTip(tr("The number the softmax sees."));
    table_->horizontalHeaderItem(WeightColumn)->setToolTip(tr("The attention weight: this row of the heatmap."));
    table_->setRowCount(K);
    int best = 0;
    for (int j = 1; j < K; ++j)
        if (trace_.weights[j] > trace_.weights[best]) best = j;
    QStringList rowNames;
    for (int j = 0; j < K; ++j) {
        rowNames << QStringLiteral("j = %1").arg(j);
        const bool top = j == best;
        auto* token = cell(QString::fromStdString(trace_.keyTokens[j]), std::nan(""), top);
        token->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        table_->setItem(j, TokenColumn, token);
        table_->setItem(j, ScoreColumn, cell(formatNumber(trace_.rawScores[j]), trace_.rawScores[j]));
        table_->setItem(j, ScaledColumn, cell(formatNumber(trace_.scaledScores[j]), trace_.scaledScores[j]));
        QTableWidgetItem* mask = nullptr;
        switch (trace_.mask[j]) {
        case TraceMask::Kept:
            if (trace_.gaussian.empty()) {
                mask = cell(QStringLiteral("0"), 0.0);
                mask->setToolTip(tr("kept"));
            } else {
                mask = cell(formatNumber(trace_.gaussian[j]), trace_.gaussian[j]);
                mask->setToolTip(tr("kept, with the Gaussian penalty −(j − p_t)² / (2 (D/2)²)"));
            }
            break;
        case TraceMask::Padding: mask = cell(tr("−∞ padding"), kMinusInfinity); break;
        case TraceMask::OutsideWindow: mask = cell(tr("−∞ outside the window"), kMinusInfinity); break;
        case TraceMask::Future: mask = cell(tr("−∞ not written yet"), kMinusInfinity); break;
        }
        table_->setItem(j, MaskColumn, mask);
        table_->setItem(j, SoftmaxInputColumn, cell(formatNumber(trace_.scores[j]), trace_.scores[j]));
        auto* weight = cell(formatNumber(trace_.weights[j]), trace_.weights[j], top);
        weight->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        table_->setItem(j, WeightColumn, weight);
        if (trace_.mask[j] != TraceMask::Kept) {
            for (int c = 0; c < ColumnCount; ++c) table_->item(j, c)->setForeground(palette().brush(QPalette::PlaceholderText));
        }
    }
    table_->setVerticalHeaderLabels(rowNames);
    table_->resizeColumnsToContents();
    table_->setColumnWidth(WeightColumn, std::max(table_->columnWidth(WeightColumn), 220));
    fitHeight(table_);
}

void MathsView::fillContextTable() {
    const int K = trace_.keyCount();
    const int d = trace_.dimension;
    const int n = std::min(kShownDimensions, d);
    const bool transformer = trace_.architecture == Architecture::Transformer;
    const QString vectorName = transformer ? QStringLiteral("v_j") : QStringLiteral("h_j");
    context_->setColumnCount(2 + n);
    QStringList headers{trace_.kind == MapKind::Decoder ? tr("Decoder input") : tr("Source token"), tr("Weight a_j")};
    for (int i = 0; i < n; ++i) headers << QStringLiteral("%1[%2]").arg(vectorName).arg(i);
    context_->setHorizontalHeaderLabels(headers);
    context_->setRowCount(K + 1);
    QStringList rowNames;
    for (int j = 0; j < K; ++j) {
        rowNames << QStringLiteral("j = %1").arg(j);
        auto* token = cell(QString::fromStdString(trace_.keyTokens[j]));
        token->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        context_->setItem(j, 0, token);
        context_->setItem(j, 1, cell(formatNumber(trace_.weights[j]), trace_.weights[j]));
        for (int i = 0; i < n; ++i) {
            const float v = trace_.values[static_cast<std::size_t>(j) * d + i];
            context_->setItem(j, 2 + i, cell(formatNumber(v), v));
        }
        if (trace_.weights[j] == 0.0f) {
            for (int c = 0; c < 2 + n; ++c) context_->item(j, c)->setForeground(palette().brush(QPalette::PlaceholderText));
        }
    }
    rowNames << QStringLiteral("Σ");
    auto* total = cell(transformer ? tr("head output Σ a_j v_j") : tr("context c = Σ a_j h_j"), std::nan(""), true);
    total->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    context_->setItem(K, 0, total);
    const double sum = std::accumulate(trace_.weights.begin(), trace_.weights.end(), 0.0);
    context_->setItem(K, 1, cell(formatNumber(sum), sum, true));
    for (int i = 0; i < n; ++i) context_->setItem(K, 2 + i, cell(formatNumber(trace_.context[i]), trace_.context[i], true));
    context_->setVerticalHeaderLabels(rowNames);
    context_->resizeColumnsToContents();
    fitHeight(context_);
}

// ---- View ----------------------------------------------------------------------------------------

QString MathsView::viewTitle() const { return tr("Step by Step"); }

QString MathsView::viewToolTip() const {
    return tr("How one output token's attention is computed, with the model's numbers.");
}

void MathsView::clearView() {
    clear();
}

void MathsView::modelAvailable(bool available) {
    setModelAvailable(available);
}

}  // namespace attnlab
