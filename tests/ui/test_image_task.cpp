// The Images task in the main window: the Task box switches to it and back; a tiny ViT trains on
// glyphs while the Image view shows the probe's rollout; hovering a patch draws its row and column;
// a tiny captioner on a few scenes shows one attention row per word; a model is saved, reset and
// opened again; a broken model file and a file that is no image are reported in one line.
#include "ui/UiTestSupport.h"
#include "widgets/HeatmapWidget.h"
#include "base/io/Safetensors.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageDatasets.h"
#include "base/vision/ImageFiles.h"
#include "engine/translation/Seq2SeqModel.h"
#include "task/images/ImageSetupPanel.h"
#include "views/image/ImageCanvas.h"
#include "views/image/ImageCurvesView.h"
#include "views/image/ImageExplainView.h"
#include "views/image/ImageHeadsView.h"
#include "views/image/ImageView.h"
#include "task/TaskSupport.h"
#include "task/images/ImageTask.h"
#include "TinyModels.h"
#include "ui/WindowFixture.h"
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QTemporaryDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMouseEvent>
#include <QChart>
#include <QPushButton>
#include <QTableWidget>
#include <numeric>

using namespace attnlab;
using attnlab::test::chooseTask;
using attnlab::test::openAndWait;
using attnlab::test::saveThenReset;
using attnlab::test::waitUntil;
using attnlab::test::WindowFixture;

namespace {

double sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

void useData(ImageTask& task, const QString& dataset, int size) {
    ImageDataChoice data;
    data.dataset = dataset;
    data.size = size;
    data.seed = 1;
    task.panel()->setData(data);
    REQUIRE(waitUntil([&] {
        if (task.isLoadingData()) return false;
        const std::size_t n = task.images() ? task.images()->images.size()
                                            : task.captions() ? task.captions()->images.size() : 0;
        return n == static_cast<std::size_t>(size);
    }));
}

// A ViT of 4 x 4 patches of 8 pixels, 32 wide, 2 heads, 2 layers, on 256 glyphs.
void tinyVit(ImageTask& task, int epochs) {
    VitConfig vit = task.panel()->vitConfig();
    vit.patch = 8;
    vit.hidden = 32;
    vit.heads = 2;
    vit.layers = 2;
    task.panel()->setVitConfig(vit);
    VisionTrainingOptions o = task.panel()->options();
    o.epochs = epochs;
    o.batchSize = 32;
    o.learningRate = 3e-3;
    task.panel()->setOptions(o);
    useData(task, QStringLiteral("glyphs"), 256);
}

struct TrainedVit {
    WindowFixture f;
    MainWindow& w = *f.window;
    ImageTask& task = *w.task<ImageTask>();
    explicit TrainedVit(int epochs) {
        chooseTask(w, QStringLiteral("images"));
        tinyVit(task, epochs);
        task.train();
        REQUIRE(waitUntil([&] { return task.session()->hasModel() && !task.session()->isBusy(); }, 120000));
        REQUIRE(waitUntil([&] { return task.imageView()->classification() != nullptr; }));
    }
};

using attnlab::test::writeFile;
}  // namespace

TEST_CASE("the Task box switches to Images and back", "[ui][images]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    const QStringList translation = w.tabNames();
    CHECK(w.taskChooser()->count() == static_cast<int>(taskFactories().size()));
    chooseTask(w, QStringLiteral("images"));
    CHECK(w.tabNames() == QStringList({"image", "image-heads", "image-curves", "image-explain", "image-importance"}));
    ImageTask& task = *w.task<ImageTask>();
    CHECK(task.panel()->isVisibleTo(&w));
    // The glyphs are made when the task is first chosen, and the browser shows the first of them.
    REQUIRE(waitUntil([&] { return task.images() != nullptr && !task.isLoadingData(); }));
    CHECK(task.images()->images.size() == kDefaultGlyphCount);
    CHECK(task.imageView()->browser()->count() == ImageView::kBrowserImages);
    CHECK_FALSE(task.imageView()->image().pixels.empty());
    REQUIRE(w.showTab(QStringLiteral("translate")));
    CHECK(w.tabNames() == translation);
    REQUIRE(w.showTab(QStringLiteral("image-curves")));
    CHECK(w.taskChooser()->currentData().toString() == QStringLiteral("images"));
    chooseTask(w, QStringLiteral("classify"));
    CHECK_FALSE(w.tabNames().contains(QStringLiteral("image")));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("a ViT trains on glyphs while the probe shows its rollout; hovering a patch draws its row and column",
          "[ui][images]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("images"));
    ImageTask& task = *w.task<ImageTask>();
    tinyVit(task, 2);
    task.imageView()->selectDatasetImage(3);
    bool probedWhileTraining = false;
    QObject::connect(task.session(), &ImageSession::probedClassification, [&] {
        if (task.session()->isTraining()) probedWhileTraining = true;
    });
    task.run(RunCommand::Start);  // the window's Start (Run menu, toolbar, F5)
    REQUIRE(waitUntil([&] { return task.session()->isTraining(); }));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, 120000));
    CHECK(probedWhileTraining);
    CHECK(f.errors.isEmpty());
    CHECK(task.curvesView()->epochs() == 2);
    CHECK(task.curvesView()->snapshots() >= 1);
    REQUIRE(waitUntil([&] { return task.imageView()->classification() != nullptr; }));
    const ImageClassification& c = *task.imageView()->classification();
    CHECK(c.gridRows == 4);
    CHECK(c.gridCols == 4);
    CHECK(c.probabilities.size() == glyphClasses().size());
    REQUIRE(c.rollout.size() == 16);
    CHECK(sum(c.rollout) == Approx(1.0).epsilon(1e-4));
    ImageView* view = task.imageView();
    CHECK(view->shownWeights() == c.rollout);
    CHECK(view->selectionCount() == 1 + 2 + 2 * 2);  // rollout, two layers averaged, four heads

    // Layer 2, head 1; the mouse over a patch: its row is drawn and sums to 1, its column beside.
    view->setSelection(1 + 2 + 2);
    ImageCanvas* canvas = view->canvas();
    canvas->resize(320, 320);
    const QPointF centreOfPatch6 = canvas->pictureRect().topLeft() +
                                   QPointF(canvas->pictureRect().width() * 2.5 / 4, canvas->pictureRect().height() * 1.5 / 4);
    QMouseEvent move(QEvent::MouseMove, centreOfPatch6, canvas->mapToGlobal(centreOfPatch6), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(canvas, &move);
    CHECK(canvas->marked() == 6);
    REQUIRE(view->hoverRow().size() == 16);
    CHECK(sum(view->hoverRow()) == Approx(1.0).epsilon(1e-4));
    CHECK(view->hoverColumn().size() == 16);
    CHECK(view->shownWeights() == view->hoverRow());
    CHECK(view->hoverStatus().contains(QStringLiteral("row 2, column 3")));
    view->hoverCell(-1);
    CHECK(view->hoverRow().empty());

    // Exported like the other views.
    REQUIRE(w.showTab(QStringLiteral("image")));
    QString error;
    for (const char* name : {"vit.png", "vit.svg", "vit.pdf"}) {
        const QString path = f.dir.filePath(QString::fromLatin1(name));
        CHECK(w.exportCurrentView(path, 1.0, &error));
        CHECK(QFileInfo(path).size() > 0);
    }
    REQUIRE(w.showTab(QStringLiteral("image-curves")));
    CHECK(w.exportCurrentView(f.dir.filePath(QStringLiteral("curves.png")), 1.0, &error));

    // Every head at once: a 2 x 2 grid of [CLS] rows; a click enlarges one.
    ImageHeadsView* heads = task.headsView();
    REQUIRE(waitUntil([&] { return heads->layers() == 2; }));
    CHECK(heads->headsPerLayer() == 2);
    REQUIRE(heads->cells().size() == 4);
    CHECK(heads->cells()[3]->hasPicture());
    CHECK(sum(ImageHeadsView::clsRow(c.encoder[1][0])) == Approx(1.0).epsilon(1e-4));
    Q_EMIT heads->cells()[2]->clicked(0);  // layer 2, head 1
    CHECK(heads->enlargedLayer() == 1);
    CHECK(heads->enlargedHead() == 0);
    CHECK(heads->enlarged()->hasPicture());
    REQUIRE(w.showTab(QStringLiteral("image-heads")));
    CHECK(w.exportCurrentView(f.dir.filePath(QStringLiteral("heads.png")), 1.0, &error));

    // The explanation lab on the glyph shown, whose mark's box is known: five maps, the taus, the
    // deletion curves (five methods and random) and each method's mass in the box.
    ImageExplainView* explain = task.explainView();
    REQUIRE(w.showTab(QStringLiteral("image-explain")));
    REQUIRE(task.imageView()->box().has_value());
    REQUIRE(explain->explainButton()->isEnabled());
    explain->explainButton()->click();
    REQUIRE(waitUntil([&] { return explain->explanation() != nullptr; }, 60000));
    const ImageExplanation& e = *explain->explanation();
    CHECK(e.maps.size() == 5);
    CHECK(e.hasBox);
    CHECK(e.massInBox.size() == 5);
    CHECK(explain->deletionChart()->series().size() == 6);
    CHECK(explain->tauTable()->item(0, 1) != nullptr);
    for (ImageCanvas* map : explain->canvases()) CHECK(map->hasPicture());
    CHECK(explain->figureLabel(0)->text().contains(QStringLiteral("in the box")));
    CHECK(explain->completenessText().contains(QStringLiteral("Integrated gradients")));
    CHECK(w.exportCurrentView(f.dir.filePath(QStringLiteral("explain.png")), 1.0, &error));
    CHECK_FALSE(w.exportCurrentView(f.dir.filePath(QStringLiteral("explain.csv")), 1.0, &error));
    task.imageView()->selectDatasetImage(5);  // another image: the maps of the old one go
    CHECK(explain->explanation() == nullptr);
    CHECK(explain->explainButton()->isEnabled());

    // Importance: the ViT's heads (2 layers x 2) switched off in turn over the held-out images.
    measureImportance(w, QStringLiteral("image-importance"), task.importanceView(), 4, "accuracy", f.dir);
    CHECK(task.importanceView()->report().items == std::min<std::size_t>(200, task.session()->model().validationImages));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("a captioner on a few scenes shows one attention row per word", "[ui][images]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("images"));
    ImageTask& task = *w.task<ImageTask>();
    CaptionerConfig config = task.panel()->captionerConfig();
    config.features = 16;
    config.hidden = 32;
    config.embedding = 16;
    config.attentionSize = 16;
    task.panel()->setCaptionerConfig(config);
    VisionTrainingOptions o = task.panel()->options();
    o.epochs = 2;
    o.batchSize = 16;
    o.learningRate = 5e-3;
    task.panel()->setOptions(o);
    useData(task, QStringLiteral("scenes"), 160);
    task.train();
    REQUIRE(waitUntil([&] { return task.session()->isTraining(); }));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, 120000));
    CHECK(f.errors.isEmpty());
    CHECK(task.session()->model().isCaptioner());
    CHECK(task.curvesView()->epochs() == 2);
    REQUIRE(waitUntil([&] {
        const Captioning* c = task.imageView()->captioning();
        return c && !c->tokens.empty();
    }));
    const Captioning& c = *task.imageView()->captioning();
    REQUIRE(c.attention.size() == c.tokens.size());
    for (const auto& row : c.attention) {
        CHECK(row.size() == static_cast<std::size_t>(c.gridRows * c.gridCols));
        CHECK(sum(row) == Approx(1.0).epsilon(1e-3));
    }
    ImageView* view = task.imageView();
    CHECK(view->wordCount() == static_cast<int>(c.tokens.size()));
    CHECK(view->strip()->hasFigure());
    const int last = view->wordCount() - 1;
    view->selectWord(last);
    CHECK(view->selectedWord() == last);
    CHECK(view->shownWeights() == c.attention.back());
    REQUIRE(w.showTab(QStringLiteral("image")));
    QString error;
    CHECK(w.exportCurrentView(f.dir.filePath(QStringLiteral("caption.svg")), 1.0, &error));

    // The map says which step it is: the last word's.
    CHECK(view->mapLabel().contains(QStringLiteral("While writing “%1”").arg(QString::fromStdString(c.tokens.back()))));
    // A generated scene's objects are known: a row per word with its class and whether it peaks on
    // its own object, a column per object, and the counts per word class.
    REQUIRE(!view->objects().empty());
    QTableWidget* inBox = view->inBoxTable();
    CHECK(inBox->rowCount() == view->wordCount());
    CHECK(inBox->columnCount() == 3 + static_cast<int>(view->objects().size()));  // word, class, own object, each object
    REQUIRE(view->grounding() != nullptr);
    REQUIRE(view->grounding()->words.size() == c.tokens.size());
    for (int row = 0; row < inBox->rowCount(); ++row) {
        const GroundedWord& g = view->grounding()->words[static_cast<std::size_t>(row)];
        const std::string& token = c.tokens[static_cast<std::size_t>(row)];
        const bool article = token == "a";
        CHECK((g.wordClass == CaptionWordClass::Article) == article);
        CHECK(inBox->item(row, 1)->text() == QString::fromLatin1(wordClassName(g.wordClass)));
        CHECK(inBox->item(row, 2)->text() == (g.objects.empty() ? QStringLiteral("–") : g.peakNear ? QStringLiteral("yes") : QStringLiteral("no")));
    }
    CHECK_FALSE(view->inBoxSummary().isEmpty());
    // A captioner has no heads to show; its words are explained one at a time, per grid cell.
    CHECK(task.headsView()->messageText().contains(QStringLiteral("no self-attention heads")));
    ImageExplainView* explain = task.explainView();
    REQUIRE(w.showTab(QStringLiteral("image-explain")));
    REQUIRE(waitUntil([&] { return explain->wordChooser()->count() == view->wordCount(); }));
    CHECK(explain->wordChooser()->isVisibleTo(explain));
    explain->wordChooser()->setCurrentIndex(last);
    REQUIRE(explain->explainButton()->isEnabled());
    explain->explainButton()->click();
    REQUIRE(waitUntil([&] { return explain->explanation() != nullptr; }, 60000));
    const ImageExplanation& e = *explain->explanation();
    CHECK(e.wordIndex == last);
    CHECK(e.label == c.tokens.back());
    CHECK(methodsOf(e) == captionExplanationMethods());
    CHECK(e.gridRows == c.gridRows);
    CHECK(explain->deletionChart()->series().size() == 5);  // four methods and random
    CHECK(explain->tauTable()->rowCount() == 4);
    CHECK(explain->canvases()[3]->hasPicture());
    CHECK_FALSE(explain->canvases()[4]->isVisibleTo(explain));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("an image model is saved, reset and opened again; a broken or foreign file is reported", "[ui][images]") {
    TrainedVit t(1);
    ImageTask& task = t.task;
    WindowFixture& f = t.f;
    const QString path = f.dir.filePath(QStringLiteral("vit.safetensors"));
    saveThenReset(task, path);
    CHECK(task.imageView()->classification() == nullptr);
    openAndWait(task, path);
    CHECK(task.session()->model().task == QLatin1String(tasks::kImageClassify));
    CHECK(task.session()->model().classes.size() == static_cast<int>(glyphClasses().size()));
    REQUIRE(waitUntil([&] { return task.imageView()->classification() != nullptr; }));

    // A file that is no model at all.
    const QString broken = f.dir.filePath(QStringLiteral("broken.safetensors"));
    writeFile(broken, QByteArray("this is not a safetensors file"));
    task.openModel(broken);
    REQUIRE(waitUntil([&] { return !f.errors.isEmpty(); }));
    CHECK(f.errors.back().title == TaskSupport::tr("Cannot Open Model"));
    CHECK(f.errors.back().message.contains(QStringLiteral("broken.safetensors")));
    CHECK_FALSE(f.errors.back().message.contains(QLatin1Char('\n')));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }));
    CHECK(task.session()->hasModel());  // the model that was open stays

    // A translation model: an AttnLab file, but not an image model.
    const std::vector<std::string> words{"a", "b", "c"};
    const Vocabulary vocabulary = Vocabulary::build({words});
    const QString translation = f.dir.filePath(QStringLiteral("translation.safetensors"));
    Seq2SeqModel(test::tinyGru(), vocabulary, vocabulary, TokenizerOptions{}, 1).save(translation.toStdString());
    const int before = static_cast<int>(f.errors.size());
    task.openModel(translation);
    REQUIRE(waitUntil([&] { return static_cast<int>(f.errors.size()) > before; }));
    CHECK(f.errors.back().message.contains(QStringLiteral("translation.safetensors")));
    CHECK_FALSE(f.errors.back().message.contains(QLatin1Char('\n')));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }));
    CHECK(task.session()->hasModel());
    CHECK(task.session()->model().task == QLatin1String(tasks::kImageClassify));
}

TEST_CASE("a file that is no image, opened in the Image view, is reported in one line", "[ui][images]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("images"));
    ImageTask& task = *w.task<ImageTask>();
    REQUIRE(waitUntil([&] { return task.hasData() && !task.isLoadingData(); }));
    const Image shown = task.imageView()->image();
    const QString notes = f.dir.filePath(QStringLiteral("notes.txt"));
    writeFile(notes, QByteArray("not a picture\nat all\n"));
    CHECK_FALSE(task.imageView()->openImageFile(notes));
    const QString error = task.imageView()->errorText();
    CHECK(error.contains(QStringLiteral("notes.txt")));
    CHECK_FALSE(error.contains(QLatin1Char('\n')));
    CHECK(task.imageView()->image().pixels == shown.pixels);  // the image shown stays
    CHECK_FALSE(task.imageView()->openImageFile(f.dir.filePath(QStringLiteral("missing.png"))));
    CHECK(task.imageView()->errorText().contains(QStringLiteral("missing.png")));
    // Dropped on the window: the same one line.
    task.openFiles({notes});
    CHECK(task.imageView()->errorText().contains(QStringLiteral("notes.txt")));
    CHECK(f.errors.isEmpty());
}

TEST_CASE("the lesson 'vit' switches to the Images task and trains", "[ui][images][lessons]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    REQUIRE(w.startLesson(QStringLiteral("vit")));
    CHECK(w.currentLesson() == QStringLiteral("vit"));
    CHECK(w.currentTabName() == QStringLiteral("image"));
    ImageTask& task = *w.task<ImageTask>();
    REQUIRE(waitUntil([&] { return task.session()->isTraining(); }, 30000));
    CHECK(task.images()->images.size() == kDefaultGlyphCount);
    REQUIRE(waitUntil([&] { return task.imageView()->classification() != nullptr; }, 60000));
    task.session()->stop();
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, 60000));
    CHECK(task.session()->hasModel());
    CHECK(f.errors.isEmpty());
}

TEST_CASE("Fashion-MNIST loads from Debian's package, or says in one line how to get it", "[ui][images]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("images"));
    ImageTask& task = *w.task<ImageTask>();
    REQUIRE(waitUntil([&] { return task.hasData() && !task.isLoadingData(); }));
    ImageDataChoice data;
    data.dataset = QStringLiteral("fashion-mnist");
    data.size = 300;
    task.panel()->setData(data);
    if (QDir(QString::fromLatin1(kFashionMnistDir)).exists()) {
        REQUIRE(waitUntil([&] { return !task.isLoadingData() && task.images() && task.images()->images.size() == 300; },
                          60000));
        CHECK(task.images()->classes == fashionMnistClasses());
        CHECK(task.images()->images.front().height == 28);
        CHECK(f.errors.isEmpty());
    } else {
        REQUIRE(waitUntil([&] { return !f.errors.isEmpty(); }, 60000));
        CHECK(f.errors.front().title == ImageTask::tr("Cannot Open Images"));
        CHECK_FALSE(f.errors.front().message.contains(QLatin1Char('\n')));
        CHECK(task.images()->name == "glyphs");  // the data that was open stays
    }
}

TEST_CASE("an image folder is read with its skipped files reported", "[ui][images]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    chooseTask(w, QStringLiteral("images"));
    ImageTask& task = *w.task<ImageTask>();
    REQUIRE(waitUntil([&] { return task.hasData() && !task.isLoadingData(); }));
    const ImageDataset glyphs = makeGlyphs(8, 3);
    const QDir root(f.dir.filePath(QStringLiteral("folder")));
    for (const char* name : {"plus", "ring"}) REQUIRE(root.mkpath(QString::fromLatin1(name)));
    for (int i = 0; i < 8; ++i)
        writePng(glyphs.images[static_cast<std::size_t>(i)],
                 root.filePath(QStringLiteral("%1/%2.png").arg(i % 2 ? "ring" : "plus").arg(i)).toStdString());
    writeFile(root.filePath(QStringLiteral("ring/damaged.png")), QByteArray("\x89PNG but not really"));
    task.openFiles({root.path()});
    REQUIRE(waitUntil([&] { return !task.isLoadingData() && task.images() && task.images()->images.size() == 8; }));
    CHECK(task.panel()->data().dataset == QStringLiteral("folder"));
    CHECK(task.images()->classes == std::vector<std::string>({"plus", "ring"}));
    CHECK(task.images()->images.front().channels == 3);
    CHECK(task.dataReport().contains(QStringLiteral("damaged.png")));
    CHECK(task.panel()->status().contains(QStringLiteral("damaged.png")));
    CHECK(task.imageView()->browser()->count() == 8);
    CHECK(f.errors.isEmpty());
}

TEST_CASE("choosing captions switches the training defaults to the captioner's, and back", "[ui][images]") {
    ImageSetupPanel panel;
    auto* dataset = panel.findChild<QComboBox*>(QStringLiteral("imageDataset"));
    REQUIRE(dataset != nullptr);
    CHECK(panel.options().learningRate == Approx(defaultVitTraining().learningRate));
    CHECK(panel.data().size == static_cast<int>(kDefaultGlyphCount));
    dataset->setCurrentIndex(dataset->findData(QStringLiteral("scenes")));
    CHECK(panel.options().learningRate == Approx(defaultCaptionerTraining().learningRate));
    CHECK(panel.options().epochs == defaultCaptionerTraining().epochs);
    CHECK(panel.options().batchSize == defaultCaptionerTraining().batchSize);
    CHECK(panel.data().size == static_cast<int>(kDefaultSceneCount));
    // The scenes' noise is a data setting of the scenes only.
    auto* noise = panel.findChild<QDoubleSpinBox*>(QStringLiteral("sceneNoise"));
    REQUIRE(noise != nullptr);
    CHECK(noise->isEnabled());
    noise->setValue(0.1);
    CHECK(panel.data().noise == Approx(0.1));
    CHECK(panel.data().describe().contains(QStringLiteral("noise")));
    // A value the learner chose stays.
    VisionTrainingOptions mine = panel.options();
    mine.learningRate = 0.0042;
    panel.setOptions(mine);
    dataset->setCurrentIndex(dataset->findData(QStringLiteral("glyphs")));
    CHECK(panel.options().learningRate == Approx(0.0042));
    CHECK(panel.options().epochs == defaultVitTraining().epochs);
    CHECK(panel.options().batchSize == defaultVitTraining().batchSize);
    CHECK(panel.data().size == static_cast<int>(kDefaultGlyphCount));
    CHECK_FALSE(noise->isEnabled());
    CHECK(panel.data().noise == 0.0);
}

TEST_CASE("a captioner given to the window opens in the Images task, whichever task is shown", "[ui][images]") {
    WindowFixture f;
    MainWindow& w = *f.window;
    REQUIRE(w.currentTask()->id() == QLatin1String("translate"));
    // A file that says it holds a captioner (and holds nothing else): the window goes to Images,
    // whose loader then says in one line what is wrong with it.
    const QString path = f.dir.filePath(QStringLiteral("captioner.safetensors"));
    SafetensorsContent content;
    content.metadata = {{"format", "attnlab"}, {"format_version", "1"}, {"task", "caption"}};
    writeSafetensors(path.toStdString(), content);
    w.openFiles({path});
    CHECK(w.currentTask()->id() == QLatin1String("images"));
    REQUIRE(waitUntil([&] { return !f.errors.isEmpty(); }));
    CHECK(f.errors.front().message.contains(QStringLiteral("captioner.safetensors")));
    // A file that is no model at all stays with the task shown, which reports it.
    const QString notes = f.dir.filePath(QStringLiteral("notes.safetensors"));
    writeFile(notes, QByteArray("not a model"));
    f.errors.clear();
    w.openFiles({notes});
    CHECK(w.currentTask()->id() == QLatin1String("images"));
}

TEST_CASE("a scene file opened in the Image view brings its objects from the objects.tsv beside images/",
          "[ui][images]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const CaptionDataset scenes = makeScenes(2, 4);
    writeCaptionFolder(scenes, dir.path().toStdString());
    ImageView view;
    view.setDataset(std::make_shared<const ImageDataset>(makeGlyphs(4, 1)));  // a grey dataset shown
    REQUIRE(view.openImageFile(dir.filePath(QStringLiteral("images/00002.png"))));
    CHECK(view.image().channels == 3);  // the scene stays in colour
    CHECK(view.image().pixels == scenes.images[1].pixels);
    REQUIRE(view.objects().size() == scenes.objects[1].size());
    for (std::size_t k = 0; k < scenes.objects[1].size(); ++k) {
        CHECK(view.objects()[k].colour == scenes.objects[1][k].colour);
        CHECK(view.objects()[k].box == scenes.objects[1][k].box);
    }
    // A broken objects.tsv: one line naming it and its line.
    QFile tsv(dir.filePath(QStringLiteral("objects.tsv")));
    REQUIRE(tsv.open(QIODevice::WriteOnly));
    tsv.write("images/00001.png\t0\tred\tdisk\t1\t2\tten\t4\n");
    tsv.close();
    CHECK_FALSE(view.openImageFile(dir.filePath(QStringLiteral("images/00001.png"))));
    CHECK(view.errorText().contains(QStringLiteral("objects.tsv:1")));
}
