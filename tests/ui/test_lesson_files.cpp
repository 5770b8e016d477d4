// Lesson files in the window (docs/lessons.md): File > Save Setup as Lesson writes a file that
// reopens to the same setup, a lesson's hidden controls stay hidden and its locked ones disabled
// whatever the panels do afterwards, and a broken file is one error line naming the file and field.
#include "base/lesson/Lesson.h"
#include "session/LessonFiles.h"
#include "task/translate/Lessons.h"
#include "task/classify/ClassifierSetupPanel.h"
#include "setup/LessonControls.h"
#include "task/translate/ModelSettingsWidget.h"
#include "task/translate/TrainingSettingsWidget.h"
#include "views/classify/ClassifyView.h"
#include "views/translate/ProbeView.h"
#include "views/translate/TranslateView.h"

#include <catch2/catch.hpp>

#include <QFormLayout>
#include <QLabel>
#include <QWidget>

#include "ui/UiTestSupport.h"
#include "task/forecast/ForecastTask.h"
#include "ui/WindowFixture.h"

using namespace attnlab;
using test::waitUntil;

namespace {

// The setup control of that lesson name under root (the first, when several share it).
QWidget* control(const QWidget* root, const char* name) {
    for (QWidget* w : root->findChildren<QWidget*>())
        if (lessonControlName(w) == QLatin1String(name)) return w;
    FAIL("no control " << name);
    return nullptr;
}

// Whether the control's row is hidden: the control and its label in a form.
bool rowHidden(QWidget* w) {
    for (QFormLayout* form : w->parentWidget()->findChildren<QFormLayout*>()) {
        if (form->indexOf(w) < 0) continue;
        QWidget* label = form->labelForField(w);
        return w->isHidden() && (label == nullptr || label->isHidden());
    }
    return w->isHidden();
}

void stopTranslation(MainWindow& w) {
    translation(w).session()->stop();
    REQUIRE(waitUntil([&] { return !translation(w).session()->isActive(); }));
}

// A tiny translation lesson (64 pairs of five letters, one epoch) with these extra fields.
QString writeTinyLesson(const test::TempDir& dir, const char* name, const std::string& extra) {
    const std::string json = R"({"format": "attnlab-lesson", "version": 1, "id": "tiny", "task": "translate",
        "title": {"en": "Tiny", "zh_CN": "小"}, "card": {"en": "Watch the diagonal."},
        "data": {"dataset": "copy", "size": 64, "seed": 1, "max_length": 5},
        "model": {"architecture": "gru", "attention": "dot", "hidden": 32},
        "training": {"epochs": 1, "batch_size": 16}, "seed": 3, "view": "curves")" + extra + "}";
    return QString::fromStdString(dir.file(name, json));
}

}  // namespace

TEST_CASE("a setup saved as a lesson reopens to the same setup", "[ui][lessons]") {
    test::WindowFixture w;
    w.loadTinyCopy();
    TranslationTask& t = translation(*w.window);
    ModelConfig config = t.modelSettings()->config();
    config.architecture = Architecture::Transformer;
    config.hidden = 32;
    config.heads = 2;
    config.layers = 1;
    config.feedForward = 64;
    t.modelSettings()->setConfig(config);
    TranslationTrainingOptions options = t.trainingSettings()->options();
    options.epochs = 2;
    options.learningRate = 0.004;
    options.batchSize = 16;
    options.seed = 7;
    options.guidedAlignment = 0.5;  // the attention losses travel too (copy has gold links)
    options.alignmentLayer = 0;
    options.alignmentHead = 1;
    options.coveragePenalty = 0.2;
    t.trainingSettings()->setOptions(options);
    t.probeView()->setSentence(QStringLiteral("a b c"));
    t.translateView()->setSentence(QStringLiteral("c b a"));
    REQUIRE(w.window->showTab(QStringLiteral("heads")));
    const ModelConfig saved = t.modelSettings()->config();
    const TranslationTrainingOptions savedOptions = t.trainingSettings()->options();

    const QString path = w.dir.filePath(QStringLiteral("my setup.json"));
    REQUIRE(w.window->saveSetupAsLesson(path));
    const LessonFile written = readLessonFile(path.toStdString());
    CHECK(written.id == "my-setup");
    CHECK(written.task == "translate");
    CHECK(written.dataset == "copy");
    CHECK(written.view == "heads");

    // Everything changed, then the lesson opened: the saved setup is back, and it trains.
    t.modelSettings()->setConfig(ModelConfig{});
    t.trainingSettings()->setOptions(TranslationTrainingOptions{});
    t.probeView()->setSentence(QStringLiteral("x"));
    t.translateView()->setSentence(QStringLiteral("y"));
    w.window->showTab(QStringLiteral("corpus"));
    REQUIRE(w.window->openLesson(path));
    REQUIRE(waitUntil([&] { return t.session()->isActive(); }, 30000));
    CHECK(w.window->currentLesson() == QLatin1String("my-setup"));
    CHECK(w.window->currentTabName() == QLatin1String("heads"));
    CHECK(toJson(t.modelSettings()->config()) == toJson(saved));
    const TranslationTrainingOptions back = t.trainingSettings()->options();
    CHECK(back.epochs == savedOptions.epochs);
    CHECK(back.learningRate == Approx(savedOptions.learningRate));
    CHECK(back.batchSize == savedOptions.batchSize);
    CHECK(back.seed == savedOptions.seed);
    CHECK(back.clip == Approx(savedOptions.clip));
    CHECK(back.teacherForcing == Approx(savedOptions.teacherForcing));
    CHECK(back.guidedAlignment == Approx(0.5));
    CHECK(back.coveragePenalty == Approx(0.2));
    CHECK(back.alignmentLayer == 0);
    CHECK(back.alignmentHead == 1);
    CHECK(written.training.guidedAlignment == Approx(0.5));
    CHECK(t.probeView()->sentence() == QLatin1String("a b c"));
    CHECK(t.translateView()->sentence() == QLatin1String("c b a"));
    CHECK(t.corpus().source.dataset == QLatin1String("copy"));
    CHECK(t.corpus().corpus->pairs.size() == 64);
    stopTranslation(*w.window);

    // Saved again, it is the same lesson.
    const QString again = w.dir.filePath(QStringLiteral("my setup 2.json"));
    REQUIRE(w.window->saveSetupAsLesson(again));
    LessonFile second = readLessonFile(again.toStdString());
    second.id = written.id;
    CHECK(second == written);
    CHECK(w.errors.isEmpty());
}

TEST_CASE("a lesson's hidden controls stay hidden and its locked ones disabled", "[ui][lessons]") {
    test::WindowFixture w;
    TranslationTask& t = translation(*w.window);
    const QString path = writeTinyLesson(
        w.dir, "locked.json",
        R"(, "controls": {"hide": ["architecture", "heads", "open_corpus"], "lock": ["learning_rate", "epochs"]})");
    REQUIRE(w.window->openLesson(path));
    QWidget* page = t.setupPage();
    QWidget* architecture = control(page, "architecture");
    QWidget* heads = control(page, "heads");
    QWidget* rate = control(page, "learning_rate");
    QWidget* batch = control(page, "batch_size");
    CHECK(rowHidden(architecture));
    CHECK(rowHidden(heads));
    CHECK(control(page, "open_corpus")->isHidden());
    CHECK_FALSE(rate->isEnabled());
    CHECK_FALSE(control(page, "epochs")->isEnabled());
    CHECK(hiddenLessonControls(page) == QStringList({QStringLiteral("open_corpus"), QStringLiteral("architecture"),
                                                      QStringLiteral("heads")}));
    // The run ends (the panels enable what fits again) and the model settings change (the form
    // enables and shows its rows): the lesson's choices hold.
    REQUIRE(waitUntil([&] { return t.session()->hasModel() && !t.session()->isActive(); }, 60000));
    ModelConfig transformer = t.modelSettings()->config();
    transformer.architecture = Architecture::Transformer;
    t.modelSettings()->setConfig(transformer);
    heads->show();  // as a panel that shows its rows would
    REQUIRE(waitUntil([&] { return heads->isHidden(); }));
    CHECK(rowHidden(architecture));
    CHECK_FALSE(rate->isEnabled());
    rate->setEnabled(true);  // as a panel's own enabling would
    CHECK_FALSE(rate->isEnabled());
    CHECK(batch->isEnabled());
    CHECK(w.errors.isEmpty());

    // The next lesson without controls shows and unlocks them again.
    REQUIRE(w.window->openLesson(writeTinyLesson(w.dir, "free.json", "")));
    CHECK_FALSE(rowHidden(architecture));
    CHECK(rate->isEnabled());
    CHECK(hiddenLessonControls(page).isEmpty());
    stopTranslation(*w.window);
}

TEST_CASE("a classification lesson file hides and locks the classifier's controls", "[ui][lessons]") {
    test::WindowFixture w;
    const QString path = QString::fromStdString(w.dir.file("classify.json", R"({"format": "attnlab-lesson",
        "version": 1, "id": "tiny-classify", "task": "classify", "title": "Tiny", "card": "Look at the words.",
        "data": {"dataset": "sentiment", "size": 60, "seed": 2}, "model": {"hidden": 16},
        "training": {"epochs": 1, "clip": 2.5, "validation_fraction": 0.2}, "seed": 4,
        "probe": {"text": "the plot was good"}, "view": "classify",
        "controls": {"hide": ["pooling"], "lock": ["epochs", "dataset"]}})"));
    REQUIRE(w.window->openLesson(path));
    auto* task = w.window->task<ClassifierTask>();
    CHECK(w.window->currentLesson() == QLatin1String("tiny-classify"));
    CHECK(w.window->currentTabName() == QLatin1String("classify"));
    CHECK(task->panel()->config().hidden == 16);
    CHECK(task->panel()->options().seed == 4);
    CHECK(task->panel()->options().clip == Approx(2.5));  // shown in the Training group, and kept
    CHECK(task->panel()->options().validationFraction == Approx(0.2));
    CHECK(task->classifyView()->text() == QLatin1String("the plot was good"));
    CHECK(rowHidden(control(task->setupPage(), "pooling")));
    REQUIRE(waitUntil([&] { return task->session()->hasModel() && !task->session()->isBusy(); }, 60000));
    CHECK(rowHidden(control(task->setupPage(), "pooling")));
    CHECK_FALSE(control(task->setupPage(), "epochs")->isEnabled());
    CHECK_FALSE(control(task->setupPage(), "dataset")->isEnabled());
    CHECK(control(task->setupPage(), "hidden")->isEnabled());
    CHECK(task->corpus()->examples.size() == 60);
    CHECK(task->session()->model().validationTexts == 12);  // the lesson's validation share, 0.2 of 60
    CHECK(w.errors.isEmpty());
}

TEST_CASE("a forecasting lesson file hides and locks the forecaster's controls", "[ui][lessons]") {
    test::WindowFixture w;
    const QString path = QString::fromStdString(w.dir.file("forecast.json", R"({"format": "attnlab-lesson",
        "version": 1, "id": "tiny-forecast", "task": "forecast", "title": "Tiny", "card": "Look back.",
        "data": {"dataset": "seasonal", "size": 300, "seed": 2, "period": 7},
        "model": {"context": 28, "horizon": 4, "d_model": 16, "heads": 2, "encoder_layers": 1, "decoder_layers": 1,
                  "feed_forward": 32},
        "training": {"epochs": 1, "validation_fraction": 0.3}, "seed": 3, "view": "forecast",
        "controls": {"hide": ["pattern", "window", "time_features"], "lock": ["context", "horizon", "period"]}})"));
    REQUIRE(w.window->openLesson(path));
    auto* task = w.window->task<ForecastTask>();
    QWidget* page = task->setupPage();
    CHECK(control(page, "pattern")->isHidden());
    CHECK(control(page, "time_features")->isHidden());
    CHECK_FALSE(control(page, "context")->isEnabled());
    CHECK_FALSE(control(page, "horizon")->isEnabled());
    CHECK_FALSE(control(page, "period")->isEnabled());
    CHECK(control(page, "heads")->isEnabled());
    CHECK(hiddenLessonControls(page) == QStringList({QStringLiteral("pattern"), QStringLiteral("window"),
                                                      QStringLiteral("time_features")}));
    REQUIRE(waitUntil([&] { return task->session()->hasModel() && !task->session()->isBusy(); }, 60000));
    CHECK_FALSE(control(page, "context")->isEnabled());  // the run's end does not unlock them
    CHECK(control(page, "pattern")->isHidden());
    CHECK(task->session()->model().config.context == 28);
    CHECK(task->panel()->options().tailFraction == Approx(0.3));  // a forecaster holds out its tail
    CHECK(w.errors.isEmpty());
}

TEST_CASE("a broken lesson file is one error line naming the file and the field", "[ui][lessons]") {
    test::WindowFixture w;
    const QString bad = writeTinyLesson(w.dir, "bad.json", R"(, "probe": {"sentence": 5})");
    const QString before = w.window->currentLesson();
    CHECK(MainWindow::isLessonFile(bad));
    CHECK_FALSE(w.window->openLesson(bad));
    REQUIRE(w.errors.size() == 1);
    CHECK(w.errors.front().title == MainWindow::tr("Cannot Open Lesson"));
    CHECK(w.errors.front().message == bad + QStringLiteral(": probe.sentence: must be a string"));
    CHECK_FALSE(w.errors.front().message.contains(QLatin1Char('\n')));
    CHECK(w.window->currentLesson() == before);
    CHECK_FALSE(translation(*w.window).session()->isActive());

    // Not JSON at all, and a file that is no lesson.
    const QString garbage = QString::fromStdString(w.dir.file("garbage.json", "{\"format\": \"attnlab-lesson\", "));
    CHECK_FALSE(w.window->openLesson(garbage));
    REQUIRE(w.errors.size() == 2);
    CHECK(w.errors.back().message.startsWith(garbage + QStringLiteral(": not valid JSON")));
    CHECK_FALSE(MainWindow::isLessonFile(QString::fromStdString(w.dir.file("other.json", "{\"a\": 1}"))));
}

TEST_CASE("the built-in lessons come from the lesson files, in the interface language", "[ui][lessons]") {
    REQUIRE_FALSE(builtinLessonFolder().isEmpty());
    const std::vector<LessonFile>& files = builtinLessonFiles();
    REQUIRE(files.size() >= 6);
    const LessonFile* alignment = findBuiltinLessonFile(QStringLiteral("ALIGNMENT"));
    REQUIRE(alignment != nullptr);
    const Lesson l = lessonFromFile(*alignment);
    CHECK(l.title == QString::fromStdString(alignment->title.in("en")));
    setLessonLanguage(QStringLiteral("zh_CN"));
    CHECK(lessonFromFile(*alignment).title == QString::fromStdString(alignment->title.byLanguage.at("zh_CN")));
    setLessonLanguage(QStringLiteral("en"));
    CHECK(findLesson(QStringLiteral("alignment")).probeSentence == QLatin1String("tom chases jerry"));
}
