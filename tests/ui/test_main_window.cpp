#include "views/attribution/AttributionView.h"
#include "widgets/WordStrip.h"
#include "widgets/AttentionPanel.h"
#include "views/corpus/CorpusTableModel.h"
#include "task/translate/DataPanel.h"
#include "views/heads/HeadsView.h"
#include "views/heads/ImportanceView.h"
#include "views/heads/ProjectorView.h"
#include "window/MainWindow.h"
#include "task/translate/ModelSettingsWidget.h"
#include "views/translate/ProbeView.h"
#include "views/translate/TranslationCurvesView.h"
#include "task/translate/TrainingSettingsWidget.h"
#include "views/translate/TranslateView.h"

#include <catch2/catch.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QSlider>
#include <QTableWidget>
#include <QToolButton>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QPushButton>
#include <QLineEdit>
#include <QLogValueAxis>
#include <QSettings>
#include <QStatusBar>
#include <QTest>

#include <algorithm>
#include <functional>
#include <memory>

#include "base/Tokenizer.h"
#include "engine/translation/Seq2SeqModel.h"

#include "TempDir.h"
#include "TinyModels.h"
#include "ui/UiTestSupport.h"
#include "ui/WindowFixture.h"

using namespace attnlab;
using State = TranslationSession::State;

namespace {

using test::waitUntil;

// The shared window fixture (settings in a temporary folder, errors recorded, every question
// answered "Discard") with the tiny model these tests train.
struct Fixture : test::WindowFixture {
    void tinyModel(Architecture architecture, int epochs) {
        ModelConfig config = test::tinyModel(architecture, AttentionKind::Dot);
        config.dropout = 0.0f;
        config.maxLength = 16;
        // Barely trained (a few batches): with these seeds the one-way, query-before model already
        // writes a non-empty probe translation, which the checks of its map need (the default
        // model writes "</s>" first at this point).
        config.bidirectional = false;
        config.query = QueryOrder::Before;
        translation(*window).modelSettings()->setConfig(config);
        TranslationTrainingOptions options = translation(*window).trainingSettings()->options();
        options.epochs = epochs;
        options.batchSize = 16;
        options.seed = 3;
        options.learningRate = 0.01;
        translation(*window).trainingSettings()->setOptions(options);
    }
};

TEST_CASE("a training run driven through the window fills the charts and redraws the probe", "[ui][mainwindow]") {
    Fixture f;
    f.loadTinyCopy();
    f.tinyModel(Architecture::Gru, 2);
    translation(*f.window).probeView()->setEveryBatches(1);
    translation(*f.window).probeView()->setSentence(f.firstSource());

    translation(*f.window).startTraining();
    CHECK(translation(*f.window).session()->state() == State::Running);
    REQUIRE(waitUntil([&] { return translation(*f.window).session()->state() == State::Finished; }));

    TranslationCurvesView* charts = translation(*f.window).chartsView();
    CHECK(charts->epochCount() == 2);
    CHECK(charts->trainLossSeries()->count() == 2);
    CHECK(charts->bleuSeries()->count() == 2);
    CHECK(charts->batchPointCount() > 0);
    // The probe was translated before the first batch and then after every batch.
    const int batches = static_cast<int>(translation(*f.window).session()->batchesTrained());
    REQUIRE(waitUntil([&] { return translation(*f.window).probeView()->updates() >= batches + 1; }));
    CHECK(translation(*f.window).probeView()->attention()->hasMap());
    const auto& heatmap = translation(*f.window).probeView()->attention()->heatmap()->renderer();
    CHECK(heatmap.columns() == 6);  // five letters and </s>
    CHECK(heatmap.rows() > 0);
    CHECK(f.window->isWindowModified());
    CHECK(f.errors.isEmpty());

    SECTION("the loss axis switches to a logarithmic scale and back") {
        charts->setLogScale(true);
        CHECK(qobject_cast<QLogValueAxis*>(charts->lossAxis()) != nullptr);
        charts->setLogScale(false);
        CHECK(qobject_cast<QLogValueAxis*>(charts->lossAxis()) == nullptr);
    }

    SECTION("the views export PNG, SVG, PDF, CSV and NumPy files") {
        test::TempDir out;
        QString error;
        REQUIRE(f.window->showTab(QStringLiteral("curves")));
        CHECK(f.window->exportCurrentView(out.filePath(QStringLiteral("curves.png")), 2.0, &error));
        CHECK(f.window->exportCurrentView(out.filePath(QStringLiteral("curves.svg")), 1.0, &error));
        CHECK_FALSE(f.window->exportCurrentView(out.filePath(QStringLiteral("curves.csv")), 1.0, &error));
        REQUIRE(f.window->showTab(QStringLiteral("probe")));
        CHECK(f.window->exportCurrentView(out.filePath(QStringLiteral("probe.pdf")), 1.0, &error));
        CHECK(f.window->exportCurrentView(out.filePath(QStringLiteral("probe.csv")), 1.0, &error));
        CHECK(f.window->exportCurrentView(out.filePath(QStringLiteral("probe.npy")), 1.0, &error));
        const QImage png(out.filePath(QStringLiteral("curves.png")));
        CHECK(png.width() >= 1800);  // 2x of at least 900 logical pixels
        CHECK(QFileInfo(out.filePath(QStringLiteral("curves.svg"))).size() > 1000);
        CHECK(QFileInfo(out.filePath(QStringLiteral("probe.pdf"))).size() > 0);
        QFile csv(out.filePath(QStringLiteral("probe.csv")));
        REQUIRE(csv.open(QIODevice::ReadOnly));
        CHECK(csv.readAll().count('\n') == heatmap.rows() + 1);  // a header and one line per output token
    }
}

TEST_CASE("a translation typed during training is answered while it runs", "[ui][mainwindow]") {
    Fixture f;
    f.loadTinyCopy();
    f.tinyModel(Architecture::Gru, 500);
    translation(*f.window).translateView()->setSentence(QString());
    translation(*f.window).startTraining();
    REQUIRE(waitUntil([&] { return translation(*f.window).session()->batchesTrained() >= 1; }));

    translation(*f.window).translateView()->setSentence(f.firstSource());
    QTest::keyClick(translation(*f.window).translateView()->input(), Qt::Key_Return);
    REQUIRE(waitUntil([&] { return translation(*f.window).translateView()->attention()->hasMap(); }));
    CHECK(translation(*f.window).session()->state() == State::Running);
    CHECK(translation(*f.window).translateView()->attention()->heatmap()->renderer().columns() == 6);
    // The Heads view shows the same translation: a GRU's one map.
    CHECK(translation(*f.window).headsView()->showsGru());

    // An empty sentence is a status-bar message, not an error dialog or a crash.
    translation(*f.window).translateView()->setSentence(QStringLiteral("   "));
    QTest::keyClick(translation(*f.window).translateView()->input(), Qt::Key_Return);
    REQUIRE(waitUntil([&] { return f.window->statusBar()->currentMessage().contains(QStringLiteral("Type a sentence")); }));
    CHECK(f.errors.isEmpty());
    CHECK(translation(*f.window).session()->state() == State::Running);

    // Closing while training stops the worker promptly (the unsaved-model question says Discard).
    QElapsedTimer timer;
    timer.start();
    CHECK(f.window->close());
    CHECK(timer.elapsed() < 5000);
}

TEST_CASE("a corpus that cannot be read is reported and the loaded corpus stays", "[ui][mainwindow]") {
    Fixture f;
    f.loadTinyCopy();
    const int rowsBefore = translation(*f.window).corpusTable()->rowCount();
    REQUIRE(rowsBefore == 64);

    const QString bad = f.dir.filePath(QStringLiteral("bad.tsv"));
    {
        QFile file(bad);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("one\tun\ntwo without a tab\nthree\ttrois\n");
    }
    translation(*f.window).openCorpusFile(bad);  // what File > Open Corpus and a drop do
    REQUIRE(waitUntil([&] { return !f.errors.isEmpty(); }));

    CHECK(f.errors.front().title.contains(QStringLiteral("Corpus")));
    CHECK(f.errors.front().message.contains(QStringLiteral("bad.tsv:2")));  // file and line
    CHECK(translation(*f.window).corpus().source.dataset == QLatin1String("copy"));
    CHECK(translation(*f.window).corpusTable()->rowCount() == rowsBefore);

    // A good file afterwards loads and lands in the recent list.
    const QString good = f.dir.filePath(QStringLiteral("good.tsv"));
    {
        QFile file(good);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("one\tun\ntwo\tdeux\n");
    }
    translation(*f.window).openCorpusFile(good);
    REQUIRE(waitUntil([&] { return translation(*f.window).corpus().source.path == good; }));
    CHECK(translation(*f.window).corpusTable()->rowCount() == 2);
}

TEST_CASE("a file corpus takes gold word links beside it: the panel names them, the curves show AER",
          "[ui][mainwindow]") {
    Fixture f;
    auto write = [&](const QString& name, const QByteArray& bytes) {
        const QString path = f.dir.filePath(name);
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        return path;
    };
    QByteArray tsv, links;
    const char* words[] = {"a", "b", "c", "d", "e"};
    for (int i = 0; i < 48; ++i) {  // "x y" -> "x y": each word links to itself
        const QByteArray x = words[i % 5], y = words[(i / 5) % 5];
        tsv += x + " " + y + "\t" + x + " " + y + "\n";
        links += i % 2 ? "0-0 1-1\n" : "0-0 1?1\n";
    }
    const QString corpus = write(QStringLiteral("pairs.tsv"), tsv);
    translation(*f.window).openCorpusFile(corpus);
    REQUIRE(waitUntil([&] { return translation(*f.window).corpus().source.path == corpus && !translation(*f.window).isLoadingCorpus(); }));
    DataPanel* panel = translation(*f.window).dataPanel();
    CHECK(panel->findChild<QPushButton*>(QStringLiteral("openAlignments"))->isEnabled());
    CHECK(panel->findChild<QLabel*>(QStringLiteral("alignments"))->text() == QStringLiteral("none"));

    // A bad file: reported with its name and line; the corpus stays as it was.
    QByteArray bad = links;
    bad.replace(bad.indexOf('\n') + 1, 7, "0-7 1-1");  // line 2 links a word the sentence lacks
    panel->addAlignments(write(QStringLiteral("bad.align"), bad));
    REQUIRE(waitUntil([&] { return !f.errors.isEmpty(); }));
    INFO(f.errors.front().message.toStdString());
    CHECK(f.errors.front().message.contains(QStringLiteral("bad.align:2")));  // word 7 is past the sentence
    CHECK_FALSE(translation(*f.window).corpus().corpus->hasAlignments);

    const QString good = write(QStringLiteral("pairs.align"), links);
    panel->addAlignments(good);
    REQUIRE(waitUntil([&] { return translation(*f.window).corpus().corpus->hasAlignments && !translation(*f.window).isLoadingCorpus(); }));
    CHECK(translation(*f.window).corpus().source.alignmentPath == good);
    CHECK(panel->findChild<QLabel*>(QStringLiteral("alignments"))->text() == QStringLiteral("pairs.align"));
    const SentencePair& first = translation(*f.window).corpus().corpus->pairs.front();
    CHECK(first.alignment.size() == 1);
    CHECK(first.possibleAlignment.size() == 1);

    // Training on it draws the alignment error on the quality chart.
    f.tinyModel(Architecture::Gru, 2);
    TranslationCurvesView* charts = translation(*f.window).chartsView();
    CHECK_FALSE(charts->alignmentErrorSeries()->isVisible());
    translation(*f.window).startTraining();
    REQUIRE(waitUntil([&] { return charts->alignmentErrorSeries()->count() == 2; }, 60000));
    CHECK(charts->alignmentErrorSeries()->isVisible());
    for (const QPointF& p : charts->alignmentErrorSeries()->points()) {
        CHECK(p.y() >= 0.0);
        CHECK(p.y() <= 100.0);
    }
}

TEST_CASE("the heads view shows every head of a Transformer and enlarges the one clicked", "[ui][mainwindow]") {
    Fixture f;
    f.loadTinyCopy();
    f.tinyModel(Architecture::Transformer, 4);  // long enough that the output is not empty
    f.window->resize(1300, 850);
    f.window->show();
    REQUIRE(f.window->showTab(QStringLiteral("heads")));
    HeadsView* heads = translation(*f.window).headsView();
    heads->setKind(MapKind::Encoder);  // shown whatever the young model outputs
    heads->setSentence(f.firstSource());
    translation(*f.window).startTraining();
    REQUIRE(waitUntil([&] { return translation(*f.window).session()->state() == State::Finished; }));
    QTest::keyClick(heads->findChild<QLineEdit*>(), Qt::Key_Return);
    REQUIRE(waitUntil([&] { return heads->showsTransformer(); }));

    CHECK(heads->layerGrid()->headCount() == 2);
    CHECK(heads->overview()->layerCount() == 2);
    CHECK(heads->overview()->showsLayers());

    CHECK(heads->enlarged()->renderer().rows() == 6);  // source x source
    CHECK(heads->enlarged()->renderer().columns() == 6);

    // Clicking the second head's thumbnail enlarges it.
    REQUIRE(waitUntil([&] {  // laid out: the second head's thumbnail lies inside the grid
        const QRectF r = heads->layerGrid()->thumbnailRect(0, 1);
        return heads->layerGrid()->isVisible() && r.isValid() && QRectF(heads->layerGrid()->rect()).contains(r);
    }));
    const QRectF second = heads->layerGrid()->thumbnailRect(0, 1);
    QTest::mouseClick(heads->layerGrid(), Qt::LeftButton, Qt::NoModifier, second.center().toPoint());
    CHECK(heads->selectedHead() == 1);  // index 1: "head 2", counted from 1 as the CLI
    CHECK(heads->enlarged()->renderer().options().title.contains(QStringLiteral("head 2")));

    test::TempDir out;
    QStringList written;
    QString error;
    REQUIRE(heads->exportAllHeads(out.qpath(), QStringLiteral("png"), 1.0, &written, &error));
    CHECK(written.size() == 4);  // 2 layers x 2 heads
    CHECK(QFileInfo::exists(out.filePath(QStringLiteral("encoder-layer2-head1.png"))));  // the second layer's first head

    // Head ablation. With "Switch Heads Off" pressed, clicking the first layer's first head in the
    // overview switches it off: the second layer's maps become the ablated model's.
    const auto encoderMap = [](const Translation& t, int layer, int head) {
        return t.attention.at(MapKind::Encoder)[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)];
    };
    heads->setAblationMode(true);
    const QRectF firstOfFirst = heads->overview()->thumbnailRect(0, 0);
    QTest::mouseClick(heads->overview(), Qt::LeftButton, Qt::NoModifier, firstOfFirst.center().toPoint());
    REQUIRE(heads->switchedOff().size() == 1);
    CHECK(heads->switchedOff()[0] == HeadId{MapKind::Encoder, 0, 0});
    REQUIRE(waitUntil([&] { return heads->showsAblation(); }));
    const Translation full = heads->fullTranslation();  // the full model's, made with the ablated one
    REQUIRE(full.attention.count(MapKind::Encoder) == 1);
    CHECK(heads->overview()->renderer().isSwitchedOff(0, 0));
    CHECK_FALSE(heads->overview()->renderer().isSwitchedOff(0, 1));
    CHECK_FALSE(heads->layerGrid()->renderer().isSwitchedOff(0, 0));  // the grid shows layer 2
    CHECK(encoderMap(heads->shownTranslation(), 0, 0).weights == encoderMap(full, 0, 0).weights);  // upstream: the same
    CHECK(encoderMap(heads->shownTranslation(), 1, 0).weights != encoderMap(full, 1, 0).weights);  // downstream: changed
    CHECK(heads->ablationSummary().contains(QStringLiteral("encoder:1:1")));
    CHECK(heads->ablationSummary().contains(QStringLiteral("probability")));
    CHECK(heads->selectedHead() == 1);  // a click in ablation mode does not enlarge

    // "Kind Off" on cross-attention: all four of its heads go too; "All On" brings the full model back.
    heads->setKind(MapKind::Cross);
    for (QToolButton* b : heads->findChildren<QToolButton*>())
        if (b->text() == HeadsView::tr("Kind Off")) b->click();
    CHECK(heads->switchedOff().size() == 5);
    REQUIRE(waitUntil([&] { return heads->showsAblation() && heads->ablationSummary().contains(QStringLiteral("5 heads")); }));
    for (QToolButton* b : heads->findChildren<QToolButton*>())
        if (b->text() == HeadsView::tr("All On")) b->click();
    CHECK(heads->switchedOff().empty());
    CHECK_FALSE(heads->showsAblation());
    CHECK(heads->ablationSummary().isEmpty());
    CHECK(encoderMap(heads->shownTranslation(), 1, 0).weights == encoderMap(full, 1, 0).weights);

    // Show: Lines draws the shown layer's heads as lines; the threshold slider thins them.
    heads->setKind(MapKind::Encoder);
    heads->setShowLines(true);
    REQUIRE(heads->showsLines());
    CHECK(heads->lineView()->renderer().headCount() == 2);
    CHECK(heads->lineView()->renderer().leftCount() == 6);
    const std::size_t all = heads->lineView()->renderer().keptLines().size();
    f.window->setMassShare(0.5);  // the toolbar's Keep slider
    CHECK(heads->lineView()->renderer().keptLines().size() < all);
    CHECK(heads->enlarged()->massShare() == 0.5);
    auto* keep = f.window->findChild<QSlider*>(QStringLiteral("massSlider"));
    REQUIRE(keep != nullptr);
    CHECK(keep->value() == 50);
    keep->setValue(100);
    CHECK(heads->lineView()->renderer().keptLines().size() == all);
    CHECK(heads->exportsFigure());
    QString lineError;
    CHECK(heads->exportView(out.filePath(QStringLiteral("lines.svg")), 1.0, &lineError));
    heads->setShowLines(false);
    CHECK(heads->showsTransformer());

    // Layer "rollout" of the encoder self-attention: one map through both layers, rows summing to 1.
    heads->setShowRollout(true);
    REQUIRE(heads->showsRollout());
    CHECK(heads->layerGrid()->headCount() == 1);
    CHECK(heads->overview()->layerCount() == 2);
    REQUIRE(heads->enlarged()->renderer().rows() == 6);
    for (int r = 0; r < 6; ++r) {
        double sum = 0;
        for (int c = 0; c < 6; ++c) sum += heads->enlarged()->renderer().weight(r, c);
        CHECK_THAT(sum, Catch::Matchers::WithinAbs(1.0, 1e-5));
    }
    heads->setKind(MapKind::Cross);  // no rollout there
    CHECK_FALSE(heads->showsRollout());
    heads->setKind(MapKind::Encoder);

    // Head Importance: every head measured over the run's validation pairs, on the worker.
    ImportanceView* importance = translation(*f.window).importanceView();
    REQUIRE(f.window->showTab(QStringLiteral("head-importance")));
    REQUIRE(importance->measureButton()->isEnabled());
    QTest::mouseClick(importance->measureButton(), Qt::LeftButton);
    REQUIRE(waitUntil([&] { return importance->hasReport(); }, 60000));
    INFO(importance->status().toStdString());
    REQUIRE(importance->report().heads.size() == 12);  // 3 kinds x 2 layers x 2 heads
    for (const HeadStudyEffect& e : importance->report().heads) CHECK(e.importance >= 0.0);
    CHECK(importance->report().metric == "BLEU");
    CHECK(importance->csv().startsWith("kind,layer,head,importance,gradient,delta_loss,delta_bleu,loss,bleu\n"));
    CHECK(importance->pruningSeries()->count() == 13);  // 0 to 12 heads off
    CHECK(importance->grid(MapKind::Cross)->renderer().rows() == 2);
    CHECK(importance->grid(MapKind::Cross)->renderer().columns() == 2);
    CHECK(importance->table()->rowCount() == 12);
    CHECK(importance->csv().count('\n') == 13);
    CHECK(importance->exportView(out.filePath(QStringLiteral("pruning.png")), 1.0, &lineError));
    CHECK(importance->exportView(out.filePath(QStringLiteral("heads.csv")), 1.0, &lineError));
    CHECK_FALSE(importance->exportView(out.filePath(QStringLiteral("heads.npy")), 1.0, &lineError));

    // Token edits in the Translate view: mask a word (the model reads <unk>), drop one, undo.
    REQUIRE(f.window->showTab(QStringLiteral("translate")));
    TranslateView* translate = translation(*f.window).translateView();
    translate->setSentence(f.firstSource());
    translate->clear();  // so that the wait below sees this request's answer
    translate->requestTranslation();
    REQUIRE(waitUntil([&] { return translate->attention()->translation().sourceTokens.size() == 6; }));
    const std::vector<std::string> typed = translate->attention()->translation().sourceTokens;
    REQUIRE(translate->editToken(1, TranslateView::TokenEdit::Mask));
    REQUIRE(waitUntil([&] { return translate->showsEdit(); }));
    CHECK(translate->attention()->translation().sourceTokens[1] == "<unk>");
    CHECK(translate->attention()->translation().sourceTokens.size() == 6);
    CHECK(translate->editSummary().contains(QStringLiteral("masked")));
    REQUIRE(translate->editToken(0, TranslateView::TokenEdit::Drop));
    REQUIRE(waitUntil([&] { return translate->showsEdit() && translate->attention()->translation().sourceTokens.size() == 5; }));
    CHECK(translate->attention()->translation().sourceTokens[0] == "<unk>");  // the masked word, now first
    CHECK(translate->editSummary().contains(QStringLiteral("dropped")));
    CHECK_FALSE(translate->editToken(9, TranslateView::TokenEdit::Mask));  // no such word
    translate->undoEdits();
    CHECK_FALSE(translate->showsEdit());
    CHECK(translate->attention()->translation().sourceTokens == typed);

    // The projector: every word of the validation sentences placed by PCA; a point's neighbours.
    REQUIRE(f.window->showTab(QStringLiteral("projector")));
    ProjectorView* projector = translation(*f.window).projectorView();
    REQUIRE(projector->projectButton()->isEnabled());
    QTest::mouseClick(projector->projectButton(), Qt::LeftButton);
    REQUIRE(waitUntil([&] { return projector->hasProjection(); }, 60000));
    INFO(projector->status().toStdString());
    const std::size_t points = projector->projection().points.size();
    REQUIRE(points > 5);
    int plotted = 0;
    for (QScatterSeries* s : projector->series()) plotted += s->count();
    CHECK(plotted == static_cast<int>(points));
    projector->selectPoint(0);
    CHECK(projector->details().contains(QStringLiteral("Nearest")));
    CHECK(projector->csv().count('\n') == static_cast<int>(points) + 1);
    projector->colourBy()->setCurrentIndex(1);  // by position
    plotted = 0;
    for (QScatterSeries* s : projector->series()) plotted += s->count();
    CHECK(plotted == static_cast<int>(points));
    CHECK(projector->exportView(out.filePath(QStringLiteral("projector.png")), 1.0, &lineError));
}

// Mean target length counted by hand: space-separated words, or characters other than spaces.
double meanTargetWords(const ParallelCorpus& corpus) {
    double n = 0;
    for (const auto& p : corpus.pairs) n += 1 + static_cast<double>(std::count(p.target.begin(), p.target.end(), ' '));
    return n / static_cast<double>(corpus.pairs.size());
}
double meanTargetCharacters(const ParallelCorpus& corpus) {
    double n = 0;
    for (const auto& p : corpus.pairs) n += QString::fromStdString(p.target).remove(QLatin1Char(' ')).size();
    return n / static_cast<double>(corpus.pairs.size());
}

TEST_CASE("toy-en-zh loads as Chinese words, the check box splits them, and training uses the choice",
          "[ui][mainwindow]") {
    Fixture f;
    // The window starts on toy-en-zh, in the dataset's own tokens: words.
    REQUIRE(translation(*f.window).corpus().source.dataset == QLatin1String("toy-en-zh"));
    QCheckBox* split = translation(*f.window).dataPanel()->findChild<QCheckBox*>(QStringLiteral("splitCjk"));
    CHECK(split->isEnabled());
    CHECK_FALSE(split->isChecked());
    CHECK_FALSE(translation(*f.window).corpus().source.tokenizer.splitCjkCharacters);
    const double words = meanTargetWords(*translation(*f.window).corpus().corpus);
    const double characters = meanTargetCharacters(*translation(*f.window).corpus().corpus);
    REQUIRE(characters > words * 1.2);  // most Chinese words here have two characters
    CHECK(translation(*f.window).corpus().meanTargetTokens == Approx(words));

    split->click();
    REQUIRE(waitUntil([&] {
        return translation(*f.window).corpus().source.tokenizer.splitCjkCharacters && !translation(*f.window).isLoadingCorpus();
    }));
    CHECK(split->isChecked());
    CHECK(translation(*f.window).corpus().meanTargetTokens == Approx(characters));
    // Generating the same dataset again (another seed, say) keeps the choice.
    CHECK(translation(*f.window).dataPanel()->datasetSource().tokenizer.splitCjkCharacters);

    split->click();
    REQUIRE(waitUntil([&] {
        return !translation(*f.window).corpus().source.tokenizer.splitCjkCharacters && !translation(*f.window).isLoadingCorpus();
    }));
    CHECK(translation(*f.window).corpus().meanTargetTokens == Approx(words));
    CHECK_FALSE(translation(*f.window).dataPanel()->datasetSource().tokenizer.splitCjkCharacters);

    SECTION("a run trains on the tokens the panel shows, and the model keeps them") {
        DatasetOptions data;
        data.size = 64;
        data.maxLen = 5;
        translation(*f.window).loadCorpus(CorpusSource::builtin(QStringLiteral("toy-en-zh"), data));
        REQUIRE(waitUntil([&] { return translation(*f.window).corpus().corpus->pairs.size() == 64 && !translation(*f.window).isLoadingCorpus(); }));
        f.tinyModel(Architecture::Gru, 1);
        translation(*f.window).startTraining();
        REQUIRE(waitUntil([&] { return translation(*f.window).session()->state() == State::Finished; }));
        const QString path = f.dir.filePath(QStringLiteral("zh.safetensors"));
        translation(*f.window).session()->saveModel(path);
        REQUIRE(waitUntil([&] { return QFileInfo::exists(path); }));
        const Seq2SeqModel model = Seq2SeqModel::load(path.toStdString());
        CHECK_FALSE(model.tokenizerOptions().splitCjkCharacters);
        CHECK(model.targetVocabulary().contains("汤姆"));
        CHECK_FALSE(model.targetVocabulary().contains("汤"));
    }

    SECTION("a file starts per character; unchecking keeps its words, and a built-in dataset gets its own") {
        const QString path = f.dir.filePath(QStringLiteral("segmented.tsv"));
        {
            QFile file(path);
            REQUIRE(file.open(QIODevice::WriteOnly));
            file.write("tom sleeps\t汤姆 睡觉\nmary sings\t玛丽 唱歌\n");
        }
        translation(*f.window).openCorpusFile(path);
        REQUIRE(waitUntil([&] { return translation(*f.window).corpus().source.path == path && !translation(*f.window).isLoadingCorpus(); }));
        CHECK(split->isChecked());
        CHECK(translation(*f.window).corpus().targetVocabulary == 8);
        split->click();
        REQUIRE(waitUntil([&] {
            return !translation(*f.window).corpus().source.tokenizer.splitCjkCharacters && !translation(*f.window).isLoadingCorpus();
        }));
        CHECK(translation(*f.window).corpus().source.path == path);
        CHECK(translation(*f.window).corpus().targetVocabulary == 4);
        DatasetOptions data;
        translation(*f.window).dataPanel()->setDatasetSource(CorpusSource::builtin(QStringLiteral("toy-en-fr"), data));
        CHECK(translation(*f.window).dataPanel()->datasetSource().tokenizer.splitCjkCharacters);
    }
    CHECK(f.errors.isEmpty());
}

TEST_CASE("the heads combo offers only divisors of the hidden size", "[ui][mainwindow]") {
    CHECK(ModelSettingsWidget::headChoices(64) == QList<int>{1, 2, 4, 8, 16});
    CHECK(ModelSettingsWidget::headChoices(24) == QList<int>{1, 2, 3, 4, 6, 8, 12});
    ModelSettingsWidget settings;
    ModelConfig config;
    config.architecture = Architecture::Transformer;
    config.hidden = 96;
    config.heads = 6;
    settings.setConfig(config);
    CHECK(settings.config().heads == 6);
    config.hidden = 64;  // 6 does not divide 64: the nearest smaller divisor is chosen
    settings.setConfig(config);
    CHECK(64 % settings.config().heads == 0);
}

TEST_CASE("the model form starts on core's GRU defaults and carries the query order and dropout placement",
          "[ui][mainwindow]") {
    ModelSettingsWidget settings;
    const ModelConfig defaults;
    // A learner who never opens the Model section trains core's default: a GRU with additive attention.
    CHECK(settings.config().architecture == defaults.architecture);
    CHECK(settings.config().attention == defaults.attention);
    CHECK(settings.config().attention == AttentionKind::Additive);
    CHECK(settings.config().hidden == defaults.hidden);
    CHECK(settings.config().bidirectional == defaults.bidirectional);
    CHECK(settings.config().query == defaults.query);
    CHECK(settings.config().dropoutOn == defaults.dropoutOn);
    CHECK(settings.config().dropout == defaults.dropout);
    for (QueryOrder query : {QueryOrder::Before, QueryOrder::After})
        for (DropoutPlacement placement :
             {DropoutPlacement::Embeddings, DropoutPlacement::Attention, DropoutPlacement::Both}) {
            ModelConfig config;
            config.query = query;
            config.dropoutOn = placement;
            config.bidirectional = query == QueryOrder::Before;
            settings.setConfig(config);
            CHECK(settings.config().query == query);
            CHECK(settings.config().dropoutOn == placement);
            CHECK(settings.config().bidirectional == (query == QueryOrder::Before));
        }
}

}  // namespace

TEST_CASE("the sentence box keeps its undo history for normal editing but not without bound", "[ui][mainwindow]") {
    TranslateView view;
    QLineEdit* input = view.input();
    int requests = 0;
    QObject::connect(&view, &TranslateView::translateRequested, [&](const QString&, int) { ++requests; });
    // A few sentences: undo reaches back across a translation request.
    QTest::keyClicks(input, QStringLiteral("the cat"));
    QTest::keyClick(input, Qt::Key_Return);
    QTest::keyClicks(input, QStringLiteral(" sees"));
    QTest::keyClick(input, Qt::Key_Return);
    CHECK(requests == 2);
    CHECK(input->text() == QStringLiteral("the cat sees"));
    for (int i = 0; i < 20 && input->isUndoAvailable(); ++i) input->undo();
    CHECK(input->text().isEmpty());  // back to before the first request
    input->redo();
    CHECK_FALSE(input->text().isEmpty());
    // Hours of typing: past 2,000 edits the history restarts at the sentence being translated.
    for (int i = 0; i < 80; ++i) {
        input->selectAll();
        QTest::keyClick(input, Qt::Key_Backspace);
        QTest::keyClicks(input, QStringLiteral("the small girl reads a book"));  // 27 edits
        QTest::keyClick(input, Qt::Key_Return);
        if (!input->isUndoAvailable()) break;
    }
    CHECK_FALSE(input->isUndoAvailable());  // reset within the 80 sentences (~2,240 edits)
    CHECK(input->text() == QStringLiteral("the small girl reads a book"));
    CHECK(input->cursorPosition() == input->text().size());
    QTest::keyClicks(input, QStringLiteral(" now"));
    input->undo();  // undo still works after the reset, back to the translated sentence
    CHECK(input->text() == QStringLiteral("the small girl reads a book"));
}

TEST_CASE("the Attribution view explains an output word of the window's model", "[ui][attribution]") {
    Fixture f;
    f.loadTinyCopy();
    f.tinyModel(Architecture::Gru, 3);
    translation(*f.window).startTraining();
    REQUIRE(waitUntil([&] { return translation(*f.window).session()->state() == State::Finished; }, 60000));
    REQUIRE(f.window->showTab(QStringLiteral("attribution")));
    auto* view = qobject_cast<AttributionView*>(f.window->navigator()->currentWidget());
    REQUIRE(view != nullptr);
    view->setSentence(f.firstSource());
    view->explain(0);
    REQUIRE(waitUntil([&] { return view->result() != nullptr || view->message().startsWith(QStringLiteral("Cannot")); }));
    // Trained long enough (seed 3) to write at least one word: the view explains it.
    INFO(view->message().toStdString());
    REQUIRE(view->result() != nullptr);
    const OutputTokenExplanation& r = *view->result();
    CHECK(r.outputIndex == 0);
    CHECK(view->tokenChooser()->count() == static_cast<int>(r.outputTokens.size()));
    CHECK(view->strip()->rows().size() == 5);  // cross-attention and four methods
    CHECK(view->strip()->words().size() == static_cast<int>(r.explanation.tokens.size()));
    double sum = 0;
    for (double v : view->strip()->rows().front().values) sum += v;
    CHECK(sum == Approx(1.0).epsilon(1e-4));  // the attention row over the source
    CHECK(view->agreement()->rowCount() == 4);
    const QString png = f.dir.filePath(QStringLiteral("attribution.png"));
    QString error;
    CHECK(f.window->exportCurrentView(png, 1.0, &error));
    CHECK_FALSE(f.window->exportCurrentView(f.dir.filePath(QStringLiteral("a.csv")), 1.0, &error));
    CHECK(f.errors.isEmpty());
}
