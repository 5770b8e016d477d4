#include "task/translate/DataPanel.h"
#include "setup/LessonControls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

namespace attnlab {

namespace {

// Core describes its datasets in English; the interface shows them through this translatable table,
// keyed by dataset name. The English texts repeat core's, which win whenever there is no translation.
struct DatasetText {
    const char* name;
    struct {
        const char* source;
        const char* comment;
    } label;  // QT_TRANSLATE_NOOP3 gives both
    const char* description;
};

const DatasetText kDatasetTexts[] = {
    {"copy", QT_TRANSLATE_NOOP3("attnlab::DataPanel", "copy", "built-in dataset name"),
     QT_TRANSLATE_NOOP("attnlab::DataPanel", "Random letter sequences; the target repeats the source.")},
    {"reverse", QT_TRANSLATE_NOOP3("attnlab::DataPanel", "reverse", "built-in dataset name"),
     QT_TRANSLATE_NOOP("attnlab::DataPanel", "Random letter sequences; the target is the source reversed.")},
    {"sort", QT_TRANSLATE_NOOP3("attnlab::DataPanel", "sort", "built-in dataset name"),
     QT_TRANSLATE_NOOP("attnlab::DataPanel",
                       "Random numbers from 0 to 49; the target lists them in ascending order.")},
    {"dates", QT_TRANSLATE_NOOP3("attnlab::DataPanel", "dates", "built-in dataset name"),
     QT_TRANSLATE_NOOP("attnlab::DataPanel",
                       "Dates in a dozen human formats; the target is the ISO date (yyyy - mm - dd).")},
    {"toy-en-fr", QT_TRANSLATE_NOOP3("attnlab::DataPanel", "toy-en-fr", "built-in dataset name"),
     QT_TRANSLATE_NOOP("attnlab::DataPanel", "A toy English to French grammar where adjectives follow their noun.")},
    {"toy-en-zh", QT_TRANSLATE_NOOP3("attnlab::DataPanel", "toy-en-zh", "built-in dataset name"),
     QT_TRANSLATE_NOOP("attnlab::DataPanel",
                       "A toy English to Chinese grammar where time and place move before the verb.")},
};

const DatasetText* datasetText(const std::string& name) {
    for (const DatasetText& t : kDatasetTexts)
        if (name == t.name) return &t;
    return nullptr;
}

QLabel* valueLabel() {
    auto* label = new QLabel(QStringLiteral("—"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

DataPanel::DataPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(12);

    auto* builtinBox = new QGroupBox(tr("Built-in dataset"));
    auto* builtinForm = new QFormLayout(builtinBox);
    builtinForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    dataset_ = new QComboBox;
    for (const DatasetInfo& info : builtinDatasets()) {
        dataset_->addItem(datasetLabel(info), QString::fromStdString(info.name));
        dataset_->setItemData(dataset_->count() - 1, datasetDescription(info), Qt::ToolTipRole);
    }
    dataset_->setToolTip(tr("A generated task with known word alignments: no download, same pairs for the same seed."));
    description_ = new QLabel;
    description_->setWordWrap(true);
    description_->setForegroundRole(QPalette::PlaceholderText);
    size_ = new QSpinBox;
    size_->setRange(16, 200000);
    size_->setSingleStep(500);
    size_->setValue(2000);
    size_->setGroupSeparatorShown(true);
    size_->setToolTip(tr("How many sentence pairs to generate; more pairs train better but slower."));
    seed_ = new QSpinBox;
    seed_->setRange(0, 999999);
    seed_->setValue(1);
    seed_->setToolTip(tr("The random seed of the generator: the same seed gives the same pairs."));
    maxLength_ = new QSpinBox;
    maxLength_->setRange(0, 200);
    maxLength_->setSpecialValueText(tr("default"));
    maxLength_->setSuffix(tr(" tokens"));
    maxLength_->setToolTip(tr("The longest generated source sentence; long sentences show the bottleneck of a "
                              "model without attention."));
    generate_ = new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), tr("Generate"));
    generate_->setToolTip(tr("Generate this dataset and make it the corpus for the next training run."));
    builtinForm->addRow(tr("Dataset:"), dataset_);
    builtinForm->addRow(description_);
    builtinForm->addRow(tr("Pairs:"), size_);
    builtinForm->addRow(tr("Seed:"), seed_);
    builtinForm->addRow(tr("Max length:"), maxLength_);
    builtinForm->addRow(generate_);
    layout->addWidget(builtinBox);

    auto* fileBox = new QGroupBox(tr("Your own corpus"));
    auto* fileLayout = new QVBoxLayout(fileBox);
    auto* openTsv = new QPushButton(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open TSV File…"));
    openTsv->setToolTip(tr("A UTF-8 file with one pair per line: source, a tab, target (as Tatoeba exports)."));
    auto* openParallel = new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open Two Aligned Files…"));
    openParallel->setToolTip(tr("Two UTF-8 files with one sentence per line, e.g. train.en and train.fr."));
    auto* hint = new QLabel(tr("Or drop a file on the window."));
    hint->setForegroundRole(QPalette::PlaceholderText);
    markLessonControls({{dataset_, "dataset"}, {generate_, "dataset"}, {size_, "size"}, {seed_, "data_seed"},
                        {maxLength_, "max_length"}, {openTsv, "open_corpus"}, {openParallel, "open_corpus"}});
    fileLayout->addWidget(openTsv);
    fileLayout->addWidget(openParallel);
    fileLayout->addWidget(hint);
    layout->addWidget(fileBox);

    auto* loadedBox = new QGroupBox(tr("Current corpus"));
    auto* loadedForm = new QFormLayout(loadedBox);
    name_ = new QLabel(tr("None loaded"));
    QFont bold = name_->font();
    bold.setBold(true);
    name_->setFont(bold);
    name_->setWordWrap(true);
    pairs_ = valueLabel();
    skipped_ = valueLabel();
    skipped_->setToolTip(tr("Lines that were not used, e.g. with an empty side."));
    sourceVocabulary_ = valueLabel();
    sourceVocabulary_->setToolTip(tr("Distinct source tokens in the whole corpus."));
    targetVocabulary_ = valueLabel();
    targetVocabulary_->setToolTip(tr("Distinct target tokens in the whole corpus."));
    lengths_ = valueLabel();
    lengths_->setToolTip(tr("Mean and longest sentence length in tokens, source / target."));
    warnings_ = new QLabel;
    warnings_->setWordWrap(true);
    warnings_->setVisible(false);
    splitCjk_ = new QCheckBox(tr("Split CJK text into characters"));
    splitCjk_->setObjectName(QStringLiteral("splitCjk"));
    splitCjk_->setToolTip(tr("On, every Chinese, Japanese or Korean character is a token: this works for text "
                             "written without spaces between words. Off, words separated by spaces stay whole, "
                             "so each attention row is a word (toy-en-zh is written that way). Changing it "
                             "counts the corpus again; the next training run uses it."));
    splitCjk_->setEnabled(false);
    alignments_ = valueLabel();
    alignments_->setObjectName(QStringLiteral("alignments"));
    alignments_->setToolTip(tr("Gold word links of the corpus: with them, training measures how often the "
                               "attention points at the right word (AER on the Curves view)."));
    openAlignments_ = new QPushButton(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Add Word Alignments…"));
    openAlignments_->setObjectName(QStringLiteral("openAlignments"));
    openAlignments_->setToolTip(tr("A Pharaoh file for this corpus, as fast_align and GIZA++ write it: one line "
                                   "per corpus line, links \"i-j\" (sure) or \"i?j\" (possible) between "
                                   "space-separated words counted from 0."));
    openAlignments_->setEnabled(false);
    loadedForm->addRow(name_);
    loadedForm->addRow(tr("Pairs:"), pairs_);
    loadedForm->addRow(tr("Skipped lines:"), skipped_);
    loadedForm->addRow(tr("Source words:"), sourceVocabulary_);
    loadedForm->addRow(tr("Target words:"), targetVocabulary_);
    loadedForm->addRow(tr("Length:"), lengths_);
    loadedForm->addRow(tr("Word links:"), alignments_);
    loadedForm->addRow(openAlignments_);
    loadedForm->addRow(splitCjk_);
    loadedForm->addRow(warnings_);
    layout->addWidget(loadedBox);
    layout->addStretch(1);

    connect(dataset_, &QComboBox::currentIndexChanged, this, &DataPanel::updateDescription);
    connect(generate_, &QPushButton::clicked, this, [this] { Q_EMIT generateRequested(datasetSource()); });
    connect(openTsv, &QPushButton::clicked, this, &DataPanel::openTsvRequested);
    connect(openParallel, &QPushButton::clicked, this, &DataPanel::openParallelRequested);
    connect(splitCjk_, &QCheckBox::toggled, this, [this](bool split) {
        if (!hasLoaded_) return;
        CorpusSource source = loadedSource_;
        source.tokenizer.splitCjkCharacters = split;
        Q_EMIT reloadRequested(source);
    });
    connect(openAlignments_, &QPushButton::clicked, this, [this] {
        const QString dir = QFileInfo(loadedSource_.path).absolutePath();
        const QString path = QFileDialog::getOpenFileName(this, tr("Add Word Alignments"), dir,
                                                          tr("Pharaoh alignments (*.align *.txt *.a);;All files (*)"));
        if (!path.isEmpty()) addAlignments(path);
    });
    updateDescription();
}

void DataPanel::addAlignments(const QString& path) {
    if (!hasLoaded_ || !loadedSource_.isFile()) return;
    CorpusSource source = loadedSource_;
    source.alignmentPath = path;
    Q_EMIT reloadRequested(source);
}

void DataPanel::updateDescription() {
    const int index = dataset_->currentIndex();
    const auto& all = builtinDatasets();
    if (index < 0 || index >= static_cast<int>(all.size())) return;
    description_->setText(datasetDescription(all[static_cast<std::size_t>(index)]));
}

QString DataPanel::datasetLabel(const DatasetInfo& info) {
    const DatasetText* text = datasetText(info.name);
    return text ? tr(text->label.source, text->label.comment) : QString::fromStdString(info.name);
}

QString DataPanel::datasetDescription(const DatasetInfo& info) {
    const DatasetText* text = datasetText(info.name);
    if (text) {
        const QString translated = tr(text->description);
        if (translated != QLatin1String(text->description)) return translated;
    }
    return QString::fromStdString(info.description);
}

CorpusSource DataPanel::datasetSource() const {
    DatasetOptions options;
    options.size = static_cast<std::size_t>(size_->value());
    options.seed = static_cast<std::uint64_t>(seed_->value());
    options.maxLen = maxLength_->value();
    CorpusSource source = CorpusSource::builtin(dataset_->currentData().toString(), options);
    if (hasLoaded_ && loadedSource_.kind == CorpusSource::Kind::Builtin && loadedSource_.dataset == source.dataset)
        source.tokenizer = loadedSource_.tokenizer;
    return source;
}

void DataPanel::setDatasetSource(const CorpusSource& source) {
    if (source.kind != CorpusSource::Kind::Builtin) return;
    const int index = dataset_->findData(source.dataset);
    if (index >= 0) dataset_->setCurrentIndex(index);
    size_->setValue(static_cast<int>(source.options.size));
    seed_->setValue(static_cast<int>(source.options.seed));
    maxLength_->setValue(source.options.maxLen);
}

void DataPanel::setLoading(const QString& name) {
    name_->setText(tr("Loading %1…").arg(name));
    generate_->setEnabled(false);
    splitCjk_->setEnabled(false);
    openAlignments_->setEnabled(false);
}

void DataPanel::setLoadFailed() {
    generate_->setEnabled(true);
    openAlignments_->setEnabled(hasLoaded_ && loadedSource_.isFile());
    splitCjk_->setEnabled(hasLoaded_);
}

void DataPanel::setLoaded(const LoadedCorpus& loaded) {
    generate_->setEnabled(true);
    if (!loaded.corpus) return;
    loadedSource_ = loaded.source;
    hasLoaded_ = true;
    {
        const QSignalBlocker quiet(splitCjk_);  // showing the state is not a request to change it
        splitCjk_->setChecked(loaded.source.tokenizer.splitCjkCharacters);
    }
    splitCjk_->setEnabled(true);
    const ParallelCorpus& corpus = *loaded.corpus;
    openAlignments_->setEnabled(loaded.source.isFile());
    if (!loaded.source.alignmentPath.isEmpty())
        alignments_->setText(QFileInfo(loaded.source.alignmentPath).fileName());
    else
        alignments_->setText(corpus.hasAlignments ? tr("built in") : tr("none"));
    alignments_->setToolTip(loaded.source.alignmentPath);
    const QLocale locale;
    QString name = loaded.source.displayName();
    if (loaded.source.kind == CorpusSource::Kind::Builtin)
        name = tr("%1 (built-in, seed %2)").arg(name).arg(loaded.source.options.seed);
    name_->setText(name);
    name_->setToolTip(loaded.source.isFile() ? loaded.source.path : QString());
    pairs_->setText(locale.toString(static_cast<qulonglong>(corpus.pairs.size())));
    skipped_->setText(locale.toString(static_cast<qulonglong>(corpus.skipped.size())));
    sourceVocabulary_->setText(locale.toString(static_cast<qulonglong>(loaded.sourceVocabulary)));
    targetVocabulary_->setText(locale.toString(static_cast<qulonglong>(loaded.targetVocabulary)));
    lengths_->setText(tr("%1 / %2 (longest %3 / %4)")
                          .arg(loaded.meanSourceTokens, 0, 'f', 1)
                          .arg(loaded.meanTargetTokens, 0, 'f', 1)
                          .arg(loaded.longestSource)
                          .arg(loaded.longestTarget));
    QStringList notes;
    for (const auto& w : corpus.warnings) notes << QString::fromStdString(w);
    if (!corpus.skipped.empty()) {
        const SkippedLine& first = corpus.skipped.front();
        notes << tr("First skipped line %1: %2").arg(first.line).arg(QString::fromStdString(first.reason));
    }
    warnings_->setText(notes.join(QLatin1Char('\n')));
    warnings_->setVisible(!notes.isEmpty());
}

}  // namespace attnlab
