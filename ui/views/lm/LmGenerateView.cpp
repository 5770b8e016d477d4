#include "views/lm/LmGenerateView.h"
#include "render/FigureWriter.h"
#include "views/lm/LmTokenText.h"
#include "widgets/ProbabilityTable.h"
#include "widgets/WidgetStyle.h"
#include "widgets/WordStrip.h"
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>
#include <cmath>

namespace attnlab {

LmGenerateView::LmGenerateView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(8);

    prompt_ = new QPlainTextEdit;
    prompt_->setObjectName(QStringLiteral("lmPrompt"));
    prompt_->setPlaceholderText(tr("Type the beginning of a text; the model continues it."));
    prompt_->setMaximumHeight(90);
    layout->addWidget(prompt_);

    auto* controls = new QHBoxLayout;
    maxNew_ = new QSpinBox;
    maxNew_->setRange(1, 1000);
    maxNew_->setValue(20);
    maxNew_->setToolTip(tr("Tokens to generate."));
    sample_ = new QCheckBox(tr("Sample"));
    sample_->setToolTip(tr("Off: the most probable token each time (greedy). On: drawn with the temperature, "
                           "top-k and top-p of the decoding lab."));
    temperature_ = new QDoubleSpinBox;
    temperature_->setRange(0.05, 5.0);
    temperature_->setSingleStep(0.1);
    temperature_->setValue(1.0);
    topK_ = new QSpinBox;
    topK_->setRange(0, 100000);
    topK_->setSpecialValueText(tr("off"));
    topP_ = new QDoubleSpinBox;
    topP_->setRange(0.01, 1.0);
    topP_->setSingleStep(0.05);
    topP_->setValue(1.0);
    seed_ = new QSpinBox;
    seed_->setRange(0, 1000000);
    seed_->setValue(1);
    generate_ = new QPushButton(tr("Generate"));
    generate_->setObjectName(QStringLiteral("lmGenerate"));
    generate_->setDefault(true);
    auto labelled = [controls](const QString& label, QWidget* w) {
        controls->addWidget(new QLabel(label));
        controls->addWidget(w);
    };
    labelled(tr("New tokens:"), maxNew_);
    controls->addWidget(sample_);
    labelled(tr("Temperature:"), temperature_);
    labelled(tr("Top-k:"), topK_);
    labelled(tr("Top-p:"), topP_);
    labelled(tr("Seed:"), seed_);
    controls->addStretch(1);
    controls->addWidget(generate_);
    layout->addLayout(controls);
    auto enableSampling = [this] {
        for (QWidget* w : {static_cast<QWidget*>(temperature_), static_cast<QWidget*>(topK_),
                           static_cast<QWidget*>(topP_), static_cast<QWidget*>(seed_)})
            w->setEnabled(sample_->isChecked());
    };
    connect(sample_, &QCheckBox::toggled, this, enableSampling);
    enableSampling();

    note_ = new QLabel;
    note_->setObjectName(QStringLiteral("lmGenerateNote"));
    note_->setWordWrap(true);
    layout->addWidget(note_);

    tokens_ = new QTextBrowser;
    tokens_->setObjectName(QStringLiteral("lmTokens"));
    tokens_->setOpenLinks(false);
    tokens_->setMaximumHeight(110);
    tokens_->setToolTip(tr("The prompt (grey) and the continuation; click a generated token to see what its "
                           "prediction attended to."));
    connect(tokens_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) { chooseStep(url.path().toInt()); });
    layout->addWidget(tokens_);

    stepTitle_ = new QLabel;
    stepTitle_->setWordWrap(true);
    scaleFont(stepTitle_, 1.05);
    layout->addWidget(stepTitle_);
    auto* below = new QHBoxLayout;
    strip_ = new WordStrip;
    strip_->setObjectName(QStringLiteral("lmAttentionStrip"));
    auto* scroll = new QScrollArea;
    scroll->setWidget(strip_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    below->addWidget(scroll, 3);
    next_ = ProbabilityTable::make();
    next_->setObjectName(QStringLiteral("lmNextTable"));
    next_->setHorizontalHeaderLabels({tr("Next token"), tr("Probability")});
    auto* nextBox = new QVBoxLayout;
    nextBox->addWidget(next_);
    nextBox->addStretch(1);
    below->addLayout(nextBox, 1);
    layout->addLayout(below, 1);

    connect(generate_, &QPushButton::clicked, this, &LmGenerateView::generateRequested);
    modelAvailable(false);
}

QString LmGenerateView::viewTitle() const { return tr("Generate"); }

QString LmGenerateView::viewToolTip() const {
    return tr("The model continues a prompt; each generated token shows what it attended to and the next-token "
              "distribution.");
}

void LmGenerateView::clearView() {
    answer_.reset();
    step_ = -1;
    tokens_->clear();
    strip_->clear();
    next_->setRowCount(0);
    stepTitle_->clear();
    note_->clear();
}

void LmGenerateView::modelAvailable(bool available) {
    available_ = available;
    generate_->setEnabled(available);
    if (!available) note_->setText(tr("Train or open a language model to generate text."));
    else if (!answer_) note_->clear();
}

QString LmGenerateView::prompt() const { return prompt_->toPlainText(); }

void LmGenerateView::setPrompt(const QString& prompt) { prompt_->setPlainText(prompt); }

LmGenerateOptions LmGenerateView::options() const {
    LmGenerateOptions o;
    o.maxNewTokens = maxNew_->value();
    if (sample_->isChecked()) {
        o.temperature = temperature_->value();
        o.topK = topK_->value();
        o.topP = topP_->value();
        o.seed = static_cast<std::uint64_t>(seed_->value());
    }
    return o;
}

void LmGenerateView::setGenerated(const LmGenerated& answer) {
    const bool same = answer_ && answer_->generation.generated.size() == answer.generation.generated.size();
    answer_ = std::make_shared<const LmGenerated>(answer);
    QStringList notes;
    const int cut = std::max(answer.generation.cut, answer.reading.cut);
    if (cut > 0)
        notes << tr("The prompt is longer than the model's context: its first %n token(s) were left out.", nullptr, cut);
    notes << tr("Continuation: %1").arg(QString::fromStdString(answer.generation.text));
    note_->setText(notes.join(QLatin1Char(' ')));
    showTokens();
    const int steps = static_cast<int>(answer.generation.generated.size());
    chooseStep(same && step_ >= 0 && step_ < steps ? step_ : steps - 1);
}

void LmGenerateView::setFailed(const QString& message) { note_->setText(message); }

QString LmGenerateView::continuation() const {
    return answer_ ? QString::fromStdString(answer_->generation.text) : QString();
}

void LmGenerateView::showTokens() {
    if (!answer_) return;
    const LmReading& r = answer_->reading;
    const int generated = static_cast<int>(answer_->generation.generated.size());
    const int first = static_cast<int>(r.tokens.size()) - generated;  // the first generated token's position
    QString html = QStringLiteral("<p style='line-height:150%'>");
    for (int i = 0; i < static_cast<int>(r.tokens.size()); ++i) {
        const QString text = lmTokenText(r.tokens[static_cast<std::size_t>(i)]).toHtmlEscaped();
        if (i < first) {
            html += QStringLiteral("<span style='color:#777777'>%1</span> ").arg(text);
        } else {
            const int step = i - first;
            const bool chosen = step == step_;
            html += QStringLiteral("<a href='step:%1' style='text-decoration:none; color:%2; %3'><b>%4</b></a> ")
                        .arg(step)
                        .arg(chosen ? QStringLiteral("#ffffff") : QStringLiteral("#1f4e99"))
                        .arg(chosen ? QStringLiteral("background-color:#1f4e99;") : QString())
                        .arg(text);
        }
    }
    tokens_->setHtml(html + QStringLiteral("</p>"));
}

void LmGenerateView::chooseStep(int step) {
    if (!answer_ || step < 0 || step >= static_cast<int>(answer_->generation.generated.size())) return;
    step_ = step;
    showTokens();
    showStep();
}

void LmGenerateView::showStep() {
    const LmReading& r = answer_->reading;
    const int generated = static_cast<int>(answer_->generation.generated.size());
    const int position = static_cast<int>(r.tokens.size()) - generated + step_;  // the token chosen
    const int query = position - 1;                                             // the query that predicted it
    if (query < 0 || r.attention.empty()) {
        strip_->clear();
        stepTitle_->setText(tr("This token's prediction read tokens no longer in the context."));
    } else {
        QStringList words;
        for (int k = 0; k <= query; ++k) words << lmTokenText(r.tokens[static_cast<std::size_t>(k)]);
        std::vector<WordRow> rows;
        for (std::size_t l = 0; l < r.attention.size(); ++l) {
            const auto& heads = r.attention[l];
            WordRow mean{tr("layer %1, mean").arg(l + 1), std::vector<double>(static_cast<std::size_t>(query + 1), 0.0)};
            std::vector<WordRow> each;
            for (std::size_t h = 0; h < heads.size(); ++h) {
                WordRow row{QStringLiteral("L%1H%2").arg(l + 1).arg(h + 1), {}};
                for (int k = 0; k <= query; ++k) {
                    const double w = heads[h].at(query, k);
                    row.values.push_back(w);
                    mean.values[static_cast<std::size_t>(k)] += w / static_cast<double>(heads.size());
                }
                each.push_back(std::move(row));
            }
            rows.push_back(std::move(mean));
            for (WordRow& row : each) rows.push_back(std::move(row));
        }
        strip_->setWords(words, rows);
        stepTitle_->setText(tr("Generated token %1, “%2”: what the query at “%3” attended to when it predicted it.")
                                .arg(step_ + 1)
                                .arg(lmTokenText(r.tokens[static_cast<std::size_t>(position)]))
                                .arg(lmTokenText(r.tokens[static_cast<std::size_t>(query)])));
    }
    std::vector<double> probabilities;
    QStringList names;
    if (step_ < static_cast<int>(answer_->generation.steps.size()))
        for (const LmCandidate& c : answer_->generation.steps[static_cast<std::size_t>(step_)]) {
            probabilities.push_back(std::exp(c.logprob));
            names << lmTokenText(c.token);
        }
    ProbabilityTable::show(next_, probabilities, names, 10);
}

bool LmGenerateView::exportView(const QString& path, double scale, QString* error) const {
    if (!answer_ || strip_->isEmpty()) return fail(error, tr("Nothing generated yet."));
    const std::optional<ExportFormat> format = FigureWriter::formatForPath(path);
    if (format && !FigureWriter::isImage(*format)) return fail(error, tr("The attention rows are written as PNG, SVG or PDF."));
    return FigureWriter::report(FigureWriter::write(path, strip_->figure(stepTitle_->text()), scale), error);
}

}  // namespace attnlab
