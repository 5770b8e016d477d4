#include "views/diagnostics/DiagnosticsView.h"

#include "widgets/AttentionPanel.h"
#include "widgets/WidgetStyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

// Flag colours: light backgrounds with dark text, readable in light and dark themes alike.
const QColor kWarnBackground(0xff, 0xd0, 0x80);
const QColor kOkBackground(0xd4, 0xee, 0xd9);
const QColor kFlagText(0x1a, 0x1a, 0x1a);

QString number(double v) { return QString::number(v, 'f', 2); }

QString joinedTokens(const std::vector<std::string>& tokens) {
    QStringList list;
    for (const auto& t : tokens) list << QString::fromStdString(t);
    return list.join(QStringLiteral(", "));
}

QString html(const QString& text) { return text.toHtmlEscaped(); }

bool hasFinding(const HeadDiagnostics& h, Finding f) {
    for (const DiagnosticFlag* flag : {&h.entropy, &h.diagonality, &h.sink, &h.coverage, &h.sameRows})
        if (flag->raised() && flag->finding == f) return true;
    return false;
}

}  // namespace

DiagnosticsView::DiagnosticsView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    auto* top = new QHBoxLayout;
    source_ = new QComboBox;
    source_->addItem(tr("Latest translation or probe"), static_cast<int>(Source::Latest));
    source_->addItem(tr("Translate view"), static_cast<int>(Source::Translation));
    source_->addItem(tr("Live probe"), static_cast<int>(Source::Probe));
    source_->setToolTip(tr("Which sentence's attention to diagnose: the one translated in the Translate view, the "
                           "probe re-translated while training runs, or whichever changed last."));
    sentence_ = new QLabel;
    sentence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sentence_->setWordWrap(true);
    top->addWidget(new QLabel(tr("Diagnose:")));
    top->addWidget(source_);
    top->addSpacing(8);
    top->addWidget(sentence_, 1);
    layout->addLayout(top);

    stack_ = new QStackedWidget;
    message_ = makePlaceholderLabel();
    stack_->addWidget(message_);

    auto* page = new QWidget;
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel;
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pageLayout->addWidget(summary_);

    auto* vertical = new QSplitter(Qt::Vertical);
    auto* horizontal = new QSplitter(Qt::Horizontal);
    table_ = new QTableWidget(0, 8);
    const DiagnosticThresholds& t = thresholds_;
    const QStringList headers{tr("Kind"), tr("Layer"), tr("Head"), tr("Entropy"), tr("Diagonality"), tr("Sink"),
                              tr("Rows differ"), tr("Coverage")};
    const QStringList headerTips{
        tr("Cross-attention (decoder → encoder), or the encoder's or decoder's self-attention."),
        tr("0-based, as in the Heads view; “all” is the summary of every layer."),
        tr("0-based; the summary averages the heads."),
        tr("How spread out each output token's attention is: 0 = one source token, 1 = evenly over all. "
           "Mean over rows of H(row) / ln(columns). Warn at ≥ %1.")
            .arg(number(t.entropyWarn)),
        tr("Share of each row's attention within ±w tokens of the diagonal stretched from the first to the last "
           "token (w = max(1, tokens / 10)): 1 = monotonic alignment. Judged for cross-attention only; warn below "
           "%1.")
            .arg(number(t.diagonalityWarn)),
        tr("Share of attention on <s>, </s> and punctuation, where heads with nothing to do park it. Warn at ≥ %1.")
            .arg(number(t.sinkWarn)),
        tr("How much the rows differ: the mean distance (total variation) of each output token's attention from "
           "the rows' mean, 0 = every row the same. Judged for cross-attention with 3 or more rows and tokens; warn "
           "below %1.")
            .arg(number(t.rowSpreadWarn)),
        tr("Source tokens that received less than %1 attention summed over all output steps (</s> not counted). "
           "Judged for cross-attention only.")
            .arg(number(t.coverageMinimum))};
    for (int c = 0; c < headers.size(); ++c) {
        auto* item = new QTableWidgetItem(headers[c]);
        item->setToolTip(headerTips[c]);
        table_->setHorizontalHeaderItem(c, item);
    }
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(CoverageColumn, QHeaderView::Stretch);
    table_->setWordWrap(false);

    auto* previewBox = new QWidget;
    auto* previewLayout = new QVBoxLayout(previewBox);
    previewLayout->setContentsMargins(6, 0, 0, 0);
    previewCaption_ = new QLabel;
    QFont bold = previewCaption_->font();
    bold.setBold(true);
    previewCaption_->setFont(bold);
    preview_ = new HeatmapWidget;
    preview_->setFixedScale(true);
    previewLayout->addWidget(previewCaption_);
    previewLayout->addWidget(preview_, 1);
    horizontal->addWidget(table_);
    horizontal->addWidget(previewBox);
    horizontal->setStretchFactor(0, 3);
    horizontal->setStretchFactor(1, 2);
    horizontal->setSizes({640, 420});  // scaled to the width; the table's numbers come first

    explanations_ = new QTextBrowser;
    explanations_->setOpenLinks(false);
    vertical->addWidget(horizontal);
    vertical->addWidget(explanations_);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    vertical->setSizes({600, 300});
    pageLayout->addWidget(vertical, 1);
    stack_->addWidget(page);
    layout->addWidget(stack_, 1);

    connect(source_, &QComboBox::currentIndexChanged, this, &DiagnosticsView::refresh);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) { showRow(row); });
    clear();
}

DiagnosticsView::Source DiagnosticsView::source() const { return static_cast<Source>(source_->currentData().toInt()); }

void DiagnosticsView::setSource(Source source) {
    const int index = source_->findData(static_cast<int>(source));
    if (index >= 0) source_->setCurrentIndex(index);
}

void DiagnosticsView::setTranslation(const Translation& translation) {
    translation_ = translation;
    hasTranslation_ = true;
    latestIsProbe_ = false;
    if (source() != Source::Probe) refresh();
}

void DiagnosticsView::setProbe(const ProbeResult& result) {
    probe_ = result;
    hasProbe_ = true;
    latestIsProbe_ = true;
    if (source() != Source::Translation) refresh();
}

void DiagnosticsView::clear() {
    translation_ = Translation{};
    probe_ = ProbeResult{};
    hasTranslation_ = hasProbe_ = latestIsProbe_ = false;
    refresh();
}

const HeadDiagnostics* DiagnosticsView::headAt(int tableRow) const {
    return tableRow >= 0 && tableRow < static_cast<int>(rows_.size()) ? rows_[static_cast<std::size_t>(tableRow)]
                                                                      : nullptr;
}

QString DiagnosticsView::kindShortName(MapKind kind) {
    if (kind == MapKind::Encoder) return tr("encoder", "attention kind");
    if (kind == MapKind::Decoder) return tr("decoder", "attention kind");
    return tr("cross", "attention kind");
}

QString DiagnosticsView::kindName(MapKind kind) {
    if (kind == MapKind::Encoder) return tr("encoder self-attention");
    if (kind == MapKind::Decoder) return tr("decoder self-attention");
    return tr("cross-attention");
}

void DiagnosticsView::refresh() {
    const Source s = source();
    const bool useProbe = s == Source::Probe || (s == Source::Latest && latestIsProbe_);
    const bool available = useProbe ? hasProbe_ : hasTranslation_;
    shown_ = !available ? Translation{} : useProbe ? probe_.translation : translation_;
    if (!available) {
        shownOrigin_.clear();
    } else if (useProbe) {
        shownOrigin_ = probe_.loadedModel ? tr("Live probe (model opened from a file)")
                                          : tr("Live probe after %1 batches, %2 epochs").arg(probe_.batches).arg(probe_.epoch);
    } else {
        shownOrigin_ = tr("Translate view");
    }
    rows_.clear();  // they point into diagnostics_
    diagnostics_ = diagnoseTranslation(shown_, thresholds_);

    QStringList source, output;
    for (const auto& t : shown_.sourceTokens) source << QString::fromStdString(t);
    for (const auto& t : shown_.outputTokens) output << QString::fromStdString(t);
    sentence_->setText(available ? QStringLiteral("%1: %2 \u2192 %3")
                                       .arg(shownOrigin_, source.join(QLatin1Char(' ')), output.join(QLatin1Char(' ')))
                                 : QString());

    if (!available) {
        message_->setText(s == Source::Probe
                              ? tr("Start training: the probe sentence is diagnosed each time it is translated.")
                              : tr("Translate a sentence (Translate view) or start training to watch the probe: its "
                                   "attention is diagnosed here, head by head."));
        stack_->setCurrentWidget(message_);
        table_->setRowCount(0);
        return;
    }
    if (diagnostics_.summaries.empty()) {
        message_->setText(shown_.outputTokens.empty()
                              ? tr("The model ended the output at once: there is no attention to diagnose yet. "
                                   "Train it a little longer.")
                              : tr("This model has no attention: its decoder sees the whole sentence as one fixed "
                                   "vector, so there is nothing to diagnose. Choose an attention variant."));
        stack_->setCurrentWidget(message_);
        table_->setRowCount(0);
        return;
    }
    stack_->setCurrentWidget(stack_->widget(1));
    summary_->setText(summaryHtml());
    fillTable();
    // A live probe update with the same findings keeps the reader's scroll position.
    const QString explanations = explanationsHtml();
    if (explanations != explanationsShown_) {
        explanationsShown_ = explanations;
        explanations_->setHtml(explanations);
    }
}

void DiagnosticsView::fillTable() {
    rows_.clear();
    for (const HeadDiagnostics& summary : diagnostics_.summaries) {
        rows_.push_back(&summary);
        int heads = 0;
        for (const HeadDiagnostics& h : diagnostics_.heads) heads += h.kind == summary.kind;
        if (heads <= 1) continue;  // one map (a GRU): the summary is that head
        for (const HeadDiagnostics& h : diagnostics_.heads)
            if (h.kind == summary.kind) rows_.push_back(&h);
    }

    const QSignalBlocker blocker(table_);
    table_->clearContents();
    table_->setRowCount(static_cast<int>(rows_.size()));
    int select = 0;
    for (int r = 0; r < static_cast<int>(rows_.size()); ++r) {
        const HeadDiagnostics& h = *rows_[static_cast<std::size_t>(r)];
        // Keep the selected head across live updates.
        if (h.kind == selectedKind_ && h.layer == selectedLayer_ && h.head == selectedHead_) select = r;
        int heads = 0;
        for (const HeadDiagnostics& other : diagnostics_.heads) heads += other.kind == h.kind;
        auto text = [this, r, &h](int column, const QString& value) {
            auto* item = new QTableWidgetItem(value);
            if (h.isSummary()) {
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
            table_->setItem(r, column, item);
            return item;
        };
        // judged: the flag applies to this kind; a raised flag gets amber, an ok one green.
        auto flagged = [&](int column, const QString& value, const DiagnosticFlag& flag, bool judged) {
            QTableWidgetItem* item = text(column, judged ? (flag.raised() ? QStringLiteral("\u26a0 ") : QStringLiteral("\u2713 ")) + value
                                                         : value);
            if (judged) {
                item->setBackground(flag.raised() ? kWarnBackground : kOkBackground);
                item->setForeground(kFlagText);
                item->setToolTip(flag.raised() ? findingTitle(flag.finding) : tr("Within the expected range."));
            } else {
                item->setToolTip(tr("Not judged for self-attention."));
            }
        };
        const bool cross = h.kind == MapKind::Cross;
        auto* kind = text(KindColumn, kindShortName(h.kind));
        kind->setToolTip(kindName(h.kind));
        text(LayerColumn, h.isSummary() ? (heads > 1 ? tr("all") : QStringLiteral("0")) : QString::number(h.layer));
        text(HeadColumn, h.isSummary() ? (heads > 1 ? tr("mean of %1").arg(heads) : QStringLiteral("0"))
                                       : QString::number(h.head));
        if (!h.values.valid) {
            text(EntropyColumn, tr("no attention"));
            continue;
        }
        flagged(EntropyColumn, number(h.values.entropy), h.entropy, true);
        flagged(DiagonalityColumn, number(h.values.diagonality), h.diagonality, cross);
        flagged(SinkColumn, number(h.values.sinkMass), h.sink, true);
        if (h.values.spreadJudged) flagged(RowSpreadColumn, number(h.values.rowSpread), h.sameRows, cross);
        const int missing = static_cast<int>(h.values.uncovered.size());
        const QString coverage =
            missing == 0 ? tr("all %1 attended").arg(h.values.contentKeys)
                         : tr("%1 of %2 unattended: %3")
                               .arg(missing)
                               .arg(h.values.contentKeys)
                               .arg(joinedTokens(h.values.uncoveredTokens));
        flagged(CoverageColumn, coverage, h.coverage, cross);
    }
    table_->setCurrentCell(select, 0);
    showRow(select);
}

void DiagnosticsView::showRow(int tableRow) {
    const HeadDiagnostics* h = headAt(tableRow);
    if (!h) {
        preview_->clear();
        previewCaption_->clear();
        return;
    }
    selectedKind_ = h->kind;
    selectedLayer_ = h->layer;
    selectedHead_ = h->head;
    const auto found = shown_.attention.find(h->kind);
    if (found == shown_.attention.end()) return;
    AttentionMap map;
    if (h->isSummary()) {
        std::vector<AttentionMap> all;
        for (const auto& layer : found->second) all.insert(all.end(), layer.begin(), layer.end());
        map = AttentionPanel::meanOfHeads(all);
        previewCaption_->setText(all.size() > 1 ? tr("%1: mean of all %2 heads").arg(kindName(h->kind)).arg(all.size())
                                                : kindName(h->kind));
    } else {
        map = found->second[static_cast<std::size_t>(h->layer)][static_cast<std::size_t>(h->head)];
        previewCaption_->setText(tr("%1, layer %2, head %3").arg(kindName(h->kind)).arg(h->layer).arg(h->head));
    }
    preview_->setAxisTitles(h->kind == MapKind::Encoder ? tr("source") : tr("output"),
                            h->kind == MapKind::Decoder ? tr("decoder input") : tr("source"));
    preview_->setAttention(map, queryTokensFor(shown_, h->kind), keyTokensFor(shown_, h->kind));
}

QString DiagnosticsView::summaryHtml() const {
    QStringList lines;
    for (const HeadDiagnostics& s : diagnostics_.summaries) {
        int heads = 0;
        for (const HeadDiagnostics& h : diagnostics_.heads) heads += h.kind == s.kind;
        QStringList flags;
        for (const DiagnosticFlag* f : {&s.entropy, &s.diagonality, &s.sink, &s.coverage, &s.sameRows})
            if (f->raised()) flags << html(findingTitle(f->finding));
        const QString verdict =
            flags.isEmpty()
                ? QStringLiteral("<span style='color:#2e7d32'>\u2713 %1</span>").arg(html(tr("no flags")))
                : QStringLiteral("<span style='color:#c25400'>\u26a0 %1</span>").arg(flags.join(QStringLiteral("; ")));
        const QString what = heads > 1 ? tr("%1 (mean of %2 heads)").arg(kindName(s.kind)).arg(heads) : kindName(s.kind);
        lines << QStringLiteral("<b>%1</b>: %2 \u2014 %3")
                     .arg(html(what),
                          html(tr("entropy %1 · diagonality %2 · sink %3 · %4 of %5 tokens attended")
                                   .arg(number(s.values.entropy), number(s.values.diagonality),
                                        number(s.values.sinkMass))
                                   .arg(s.values.contentKeys - static_cast<int>(s.values.uncovered.size()))
                                   .arg(s.values.contentKeys)),
                          verdict);
    }
    return lines.join(QStringLiteral("<br>"));
}

QString DiagnosticsView::explanationsHtml() const {
    const std::vector<Finding> findings = diagnostics_.findings();
    if (findings.empty()) {
        return QStringLiteral("<p><b>%1</b></p><p>%2</p>")
            .arg(html(tr("No flags raised.")),
                 html(tr("Each output token looks at a few source tokens, roughly in order, and every source word is "
                         "attended to. That is what a model that has learnt the alignment looks like. Hover a column "
                         "header for how each number is computed.")));
    }
    QString out = QStringLiteral("<p><b>%1</b></p>").arg(html(tr("What the flags mean")));
    for (Finding f : findings) {
        // Where it was raised, per kind: "cross-attention: all heads, L0 H1, L1 H0; encoder self-attention: L1 H2".
        QStringList kinds;
        std::vector<std::string> uncovered;
        for (const HeadDiagnostics& summary : diagnostics_.summaries) {
            int heads = 0;
            for (const HeadDiagnostics& h : diagnostics_.heads) heads += h.kind == summary.kind;
            QStringList places;
            if (hasFinding(summary, f)) places << (heads > 1 ? tr("all heads") : QString());
            std::vector<const HeadDiagnostics*> raised{&summary};
            for (const HeadDiagnostics& h : diagnostics_.heads) {
                if (h.kind != summary.kind || heads <= 1 || !hasFinding(h, f)) continue;  // one map: its summary
                places << tr("L%1 H%2").arg(h.layer + 1).arg(h.head + 1);
                raised.push_back(&h);
            }
            if (places.isEmpty()) continue;
            for (const HeadDiagnostics* h : raised) {
                if (!hasFinding(*h, f)) continue;
                for (const auto& token : h->values.uncoveredTokens)
                    if (std::find(uncovered.begin(), uncovered.end(), token) == uncovered.end()) uncovered.push_back(token);
            }
            places.removeAll(QString());
            kinds << (places.isEmpty() ? kindName(summary.kind)
                                       : tr("%1: %2").arg(kindName(summary.kind), places.join(QStringLiteral(", "))));
        }
        const QString explanation = findingExplanation(f, thresholds_, joinedTokens(uncovered));
        const QString where = kinds.join(QStringLiteral("; "));
        out += QStringLiteral("<h4 style='color:#c25400'>\u26a0 %1</h4><p>%2</p><p><b>%3</b> %4</p><p><i>%5</i> %6</p>")
                   .arg(html(findingTitle(f)), html(explanation), html(tr("What to try:")), html(findingAdvice(f)),
                        html(tr("Raised by:")), html(where));
    }
    return out;
}

QString DiagnosticsView::findingTitle(Finding finding) {
    switch (finding) {
    case Finding::Dispersed: return tr("Dispersed cross-attention");
    case Finding::BroadHeads: return tr("Broad self-attention heads");
    case Finding::SinkCross: return tr("Attention parked on </s> or punctuation");
    case Finding::SinkSelf: return tr("Heads resting on </s>, <s> or punctuation");
    case Finding::Reordered: return tr("Sharp but off the diagonal: reordering");
    case Finding::Unaligned: return tr("Off the diagonal and spread out");
    case Finding::Uncovered: return tr("Source tokens nobody looked at");
    case Finding::SameRows: return tr("The same map for every output step");
    case Finding::None: break;
    }
    return QString();
}

QString DiagnosticsView::findingExplanation(Finding finding, const DiagnosticThresholds& t, const QString& tokens) {
    switch (finding) {
    case Finding::Dispersed:
        return tr("Most output tokens spread their attention over much of the sentence instead of looking at the "
                  "word they translate (entropy %1 or more). Early in training this is normal: attention starts out "
                  "nearly even and sharpens as the model learns which source word goes with which output word.")
            .arg(number(t.entropyWarn));
    case Finding::BroadHeads:
        return tr("Some self-attention heads average over the whole sequence (entropy %1 or more). A few such heads "
                  "are normal: they gather sentence-wide context. If most heads are broad, they have not "
                  "specialised yet.")
            .arg(number(t.entropyWarn));
    case Finding::SinkCross:
        return tr("The decoder puts much of its attention (%1 or more) on the end-of-sentence token or on "
                  "punctuation instead of the words it translates. The encoder's last state already sums up the "
                  "whole sentence, so the decoder can get by without aligning: the bottleneck attention was meant "
                  "to remove.")
            .arg(number(t.sinkWarn));
    case Finding::SinkSelf:
        return tr("Heads with nothing useful to look at put their attention (%1 or more) on </s>, <s> or "
                  "punctuation: a “no-op” that leaves each token's representation almost unchanged. Trained "
                  "Transformers do this in a few heads routinely.")
            .arg(number(t.sinkWarn));
    case Finding::Reordered:
        return tr("Each output token looks at one source token, but not in source order (diagonality below %1). "
                  "That is a change of word order: expected for the reverse and sort datasets, and where adjectives "
                  "and nouns swap places (English → French).")
            .arg(number(t.diagonalityWarn));
    case Finding::Unaligned:
        return tr("Attention follows neither the source order nor a sharp pattern (diagonality below %1, attention "
                  "broad or parked on </s>). Look at the map: if each output row still has one clearly brightest "
                  "source token, the word order changes and attention is merely spread around it (Transformer heads "
                  "often share the work this way; the mean of the heads is sharper). If the rows are flat, the "
                  "model has not yet found which source word goes with which output word.")
            .arg(number(t.diagonalityWarn));
    case Finding::Uncovered:
        return tr("These source tokens received less than %1 attention in total, over all output steps: %2. Either "
                  "they have no counterpart in the target (an article like “the” has none in Chinese) or the model "
                  "skipped them: compare the output with the input for a missing word (under-translation).")
            .arg(number(t.coverageMinimum), tokens);
    case Finding::SameRows:
        return tr("Every output token attends to the source in nearly the same way (rows differ by less than %1): "
                  "the decoder is not using attention to move through the source. It reads one fixed mixture of "
                  "the source at every step, which is the fixed-vector bottleneck attention was meant to remove. "
                  "Early in training, with attention still even, this is normal; after training it means attention "
                  "carries nothing step by step.")
            .arg(number(t.rowSpreadWarn));
    case Finding::None: break;
    }
    return QString();
}

QString DiagnosticsView::findingAdvice(Finding finding) {
    switch (finding) {
    case Finding::Dispersed:
        return tr("Train longer first. If the loss falls slowly, raise the learning rate a little (e.g. 0.001 → "
                  "0.003); if it jumps around, lower it. If the loss stays high, give the model more room (a larger "
                  "hidden size). Dropout is also applied to the attention weights: a high dropout teaches the "
                  "decoder to hedge, so try 0.1 or less.");
    case Finding::BroadHeads:
        return tr("Train longer. If most heads stay broad, the model may have more heads than the task needs: try "
                  "fewer heads, or a lower learning rate if the loss is unstable.");
    case Finding::SinkCross:
        return tr("Train longer. A bidirectional GRU encoder gives every word's state the context on both sides, "
                  "so aligning pays off sooner. Lower the learning rate if the loss is unstable, and keep dropout "
                  "on the attention weights low.");
    case Finding::SinkSelf:
        return tr("Nothing to fix if only a few heads do it. If most heads do, the model is larger than the task "
                  "needs: fewer heads or a smaller d_model train faster and do as well.");
    case Finding::Reordered:
        return tr("If the output is right, nothing to fix. A GRU with attention handles local swaps; for heavy, "
                  "long-range reordering a Transformer usually learns faster. If the output is wrong, train longer.");
    case Finding::Unaligned:
        return tr("If the rows are flat: train longer and check the learning rate (too high: the loss jumps; too "
                  "low: it barely moves); a larger hidden size helps if the loss stays high. If the task reorders "
                  "words heavily, try a Transformer.");
    case Finding::Uncovered:
        return tr("If a content word is missing from the output: train longer, try a larger model, or less "
                  "dropout. Function words without a counterpart in the target are fine.");
    case Finding::SameRows:
        return tr("Train longer first. If it stays after training, the decoder gets by on the encoder's summary: "
                  "a bidirectional encoder, a slightly higher learning rate or less dropout on the attention "
                  "weights help attention sharpen and move with the output.");
    case Finding::None: break;
    }
    return QString();
}

// ---- View ----------------------------------------------------------------------------------------

QString DiagnosticsView::viewTitle() const { return tr("Diagnostics"); }

QString DiagnosticsView::viewToolTip() const {
    return tr("Is attention healthy? Entropy, diagonality, sinks, how much the rows differ and coverage per head, with "
              "what to try.");
}

void DiagnosticsView::clearView() {
    clear();
}

void DiagnosticsView::runStarted() {
    clear();
}

}  // namespace attnlab
