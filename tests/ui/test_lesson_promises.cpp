// What each built-in lesson's card promises, checked after the lesson has trained in the window on
// its own budget: its data, model, seed and epochs, nothing made smaller. The lessons that train in
// a few seconds run in the suite; those that take a minute or more each (heads, bottleneck, the ViT,
// the captioner, the forecaster at its full size) would take the suite past its 4 minutes, so they
// are [needs-full-lessons] and report a skip unless ATTNLAB_FULL_LESSONS=1 (docs/lessons.md, "What
// the cards promise"). "Is attention an explanation?" is checked at its full budget in
// test_classify_task.
#include "base/forecast/Series.h"
#include "session/LessonFiles.h"
#include "task/translate/TranslationSession.h"
#include "task/classify/ClassifierSetupPanel.h"
#include "task/forecast/ForecastTask.h"
#include "task/lm/LmTask.h"
#include "views/classify/ClassifierCurvesView.h"
#include "views/classify/ClassifyView.h"
#include "views/forecast/ForecastCurvesView.h"
#include "views/forecast/LagProfileView.h"
#include "views/image/ImageCurvesView.h"
#include "views/image/ImageExplainView.h"
#include "views/image/ImageView.h"
#include "views/lm/LmCircuitsView.h"
#include "views/lm/LmGenerateView.h"

#include <functional>

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QFile>
#include <QChart>
#include <QLineSeries>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Skip.h"
#include "ui/WindowFixture.h"

using namespace attnlab;
using test::waitUntil;
using test::WindowFixture;

namespace {

constexpr int kLessonTimeoutMs = 15 * 60 * 1000;

bool fullLessonsWanted() {
    const char* v = std::getenv("ATTNLAB_FULL_LESSONS");
    return v != nullptr && std::strcmp(v, "1") == 0;
}

#define NEEDS_FULL_LESSONS()                                                                        \
    do {                                                                                            \
        if (!fullLessonsWanted())                                                                   \
            ATTNLAB_SKIP("a lesson of a minute or more; set ATTNLAB_FULL_LESSONS=1 to check its card"); \
    } while (false)

double lastY(const QLineSeries* s) {
    REQUIRE(s != nullptr);
    REQUIRE(s->count() > 0);
    return s->points().last().y();
}

// Prints how long the lesson trained (the figures docs/lessons.md gives).
struct LessonClock {
    explicit LessonClock(const char* id) : id_(id) { timer_.start(); }
    ~LessonClock() { std::printf("lesson %s: %.1f s\n", id_, timer_.elapsed() / 1000.0); }
    const char* id_;
    QElapsedTimer timer_;
};

// --- translation --------------------------------------------------------------------------------

// Starts a translation lesson and waits until its run has finished all its epochs.
void trainTranslationLesson(WindowFixture& f, const QString& id) {
    REQUIRE(f.window->startLesson(id));
    TranslationSession* c = translation(*f.window).session();
    REQUIRE(waitUntil([&] { return c->isActive(); }, 60000));
    REQUIRE(waitUntil([&] { return c->state() == TranslationSession::State::Finished; }, kLessonTimeoutMs));
    CHECK(f.errors.isEmpty());
}

Translation translateNow(MainWindow& w, const QString& sentence) {
    TranslationSession* c = translation(w).session();
    Translation result;
    bool done = false;
    quint64 wanted = 0;
    auto connection = QObject::connect(c, &TranslationSession::translated, [&](quint64 id, const Translation& t) {
        if (id == wanted) {
            result = t;
            done = true;
        }
    });
    wanted = c->translate(sentence);
    REQUIRE(waitUntil([&] { return done; }, 60000));
    QObject::disconnect(connection);
    return result;
}

std::string joined(const std::vector<std::string>& tokens) {
    std::string out;
    for (const auto& t : tokens) out += t;
    return out;
}

// The source token output token `row` attends to most in `map`.
std::string peakSource(const Translation& t, const AttentionMap& map, int row) {
    int best = 0;
    for (int c = 1; c < map.cols; ++c)
        if (map.at(row, c) > map.at(row, best)) best = c;
    return t.sourceTokens.at(static_cast<std::size_t>(best));
}

// The output tokens (characters for Chinese) whose row's peak should sit on `source`; counts how
// many of them do, in the GRU's one map.
struct PeakCount {
    int right = 0, total = 0;
};
PeakCount peaksOn(const Translation& t, const AttentionMap& map, const std::string& characters, const std::string& source) {
    PeakCount n;
    for (std::size_t i = 0; i < t.outputTokens.size(); ++i) {
        if (characters.find(t.outputTokens[i]) == std::string::npos) continue;
        ++n.total;
        if (peakSource(t, map, static_cast<int>(i)) == source) ++n.right;
    }
    return n;
}

// --- classification -----------------------------------------------------------------------------

ClassifierTask& classifier(MainWindow& w) { return *w.task<ClassifierTask>(); }

void waitForClassifierRun(WindowFixture& f) {
    ClassifierTask& task = classifier(*f.window);
    REQUIRE(waitUntil([&] { return task.session()->runState() == ModelSession::RunState::Training; }, 60000));
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, kLessonTimeoutMs));
    CHECK(f.errors.isEmpty());
}

// Waits until the classifier run has finished `epochs` epochs, then stops it there (the model stays):
// for promises made about the first epochs of a longer lesson.
void stopClassifierAfter(WindowFixture& f, int epochs) {
    ClassifierTask& task = classifier(*f.window);
    REQUIRE(waitUntil([&] { return task.session()->runState() == ModelSession::RunState::Training; }, 60000));
    REQUIRE(waitUntil([&] { return task.curvesView()->accuracySeries()->count() >= epochs || !task.session()->isBusy(); },
                      kLessonTimeoutMs));
    task.session()->stop();
    REQUIRE(waitUntil([&] { return !task.session()->isBusy(); }, kLessonTimeoutMs));
    CHECK(f.errors.isEmpty());
}

// The probe text classified by the model just trained.
const Classification& classifyProbe(ClassifierTask& task) {
    const int before = task.classifyView()->classificationCount();
    task.classifyView()->classifyButton()->click();
    REQUIRE(waitUntil([&] { return task.classifyView()->classificationCount() > before; }, 60000));
    REQUIRE(task.classifyView()->classification() != nullptr);
    return *task.classifyView()->classification();
}

// The word the attention's largest weight sits on ([CLS] left out).
std::string attendedWord(const Classification& c) {
    const std::vector<double> row = wordAttention(c);
    REQUIRE_FALSE(row.empty());
    const auto top = static_cast<std::size_t>(std::max_element(row.begin(), row.end()) - row.begin());
    const std::size_t offset = !c.tokens.empty() && c.tokens.front() == kClsToken ? 1 : 0;
    return c.tokens.at(top + offset);
}

void retrainWith(WindowFixture& f, const std::function<void(ClassifierConfig&)>& change) {
    ClassifierTask& task = classifier(*f.window);
    ClassifierConfig config = task.panel()->config();
    change(config);
    task.panel()->setConfig(config);
    task.train();
    waitForClassifierRun(f);
}

}  // namespace

TEST_CASE("lesson 'alignment': each Chinese word looks at the word it translates, and off the diagonal "
          "when Chinese moves the place and the time",
          "[ui][lessons][promise]") {
    WindowFixture f;
    {
        LessonClock clock("alignment");
        trainTranslationLesson(f, QStringLiteral("alignment"));
    }
    const Translation shortOne = translateNow(*f.window, QStringLiteral("tom chases jerry"));
    CHECK(joined(shortOne.outputTokens) == "汤姆追逐杰瑞");
    const AttentionMap& a = shortOne.attention.at(MapKind::Cross).at(0).at(0);
    for (const auto& [characters, word] : std::vector<std::pair<std::string, std::string>>{
             {"汤姆", "tom"}, {"追逐", "chases"}, {"杰瑞", "jerry"}}) {
        INFO(characters << " -> " << word);
        const PeakCount n = peaksOn(shortOne, a, characters, word);
        CHECK(n.total >= 1);  // the word, as one token or its characters
        CHECK(n.right == n.total);
    }
    // "tom chases jerry in the park now": the place and the time come before the verb in Chinese.
    const Translation longOne = translateNow(*f.window, QStringLiteral("tom chases jerry in the park now"));
    const std::string out = joined(longOne.outputTokens);
    INFO(out);
    const auto verb = out.find("追逐"), park = out.find("公园"), now = out.find("现在");
    REQUIRE(verb != std::string::npos);
    REQUIRE(park != std::string::npos);
    REQUIRE(now != std::string::npos);
    CHECK(park < verb);
    CHECK(now < verb);
    const AttentionMap& b = longOne.attention.at(MapKind::Cross).at(0).at(0);
    // The attention follows them: 公园 looks at "park" and 现在 at "now", though they come early.
    const PeakCount onPark = peaksOn(longOne, b, "公园", "park");
    const PeakCount onNow = peaksOn(longOne, b, "现在", "now");
    CHECK(onPark.right >= 1);
    CHECK(onNow.right >= 1);
    const PeakCount onVerb = peaksOn(longOne, b, "追逐", "chases");
    CHECK(onVerb.right == onVerb.total);
}

TEST_CASE("lesson 'needle': attention pooling finds the colour word in 200; the last state alone stays "
          "near chance",
          "[ui][lessons][promise]") {
    WindowFixture f;
    ClassifierTask* task = nullptr;
    {
        LessonClock clock("needle");
        REQUIRE(f.window->startLesson(QStringLiteral("needle")));
        task = &classifier(*f.window);
        waitForClassifierRun(f);
    }
    CHECK(task->panel()->config().maxLength >= 200);  // the texts are read whole, not cut at 256 or less
    CHECK(lastY(task->curvesView()->accuracySeries()) >= 0.95);
    CHECK(lastY(task->curvesView()->rationaleMassSeries()) >= 0.5);  // uniform weights: 1/200
    // Accuracy reaches 1.00 within two epochs.
    REQUIRE(task->curvesView()->accuracySeries()->count() >= 2);
    CHECK(task->curvesView()->accuracySeries()->at(1).y() >= 0.99);
    const Classification& c = classifyProbe(*task);
    CHECK(c.label == "red");  // "crimson"
    CHECK(attendedWord(c) == "crimson");

    // Pooling "none: the last state": near chance (0.25).
    {
        LessonClock clock("needle, last state");
        retrainWith(f, [](ClassifierConfig& config) { config.pooling = Pooling::None; });
    }
    CHECK(lastY(task->curvesView()->accuracySeries()) <= 0.45);
    // "mean: uniform weights" does well too.
    {
        LessonClock clock("needle, mean");
        retrainWith(f, [](ClassifierConfig& config) { config.pooling = Pooling::Mean; });
    }
    CHECK(lastY(task->curvesView()->accuracySeries()) >= 0.75);
}

TEST_CASE("lesson 'long-inputs': full attention finds the colour word among 256 words; a local window "
          "keeps [CLS] near chance",
          "[ui][lessons][promise]") {
    WindowFixture f;
    ClassifierTask* task = nullptr;
    {
        // The card's promises are about the first two epochs: the run stops there (the lesson trains 4).
        LessonClock clock("long-inputs");
        REQUIRE(f.window->startLesson(QStringLiteral("long-inputs")));
        task = &classifier(*f.window);
        stopClassifierAfter(f, 2);
    }
    const ClassifierConfig config = task->panel()->config();
    CHECK(config.architecture == ClassifierArchitecture::Transformer);
    CHECK(config.pattern == AttentionPattern::Full);
    CHECK(config.maxLength >= 256);
    REQUIRE(task->curvesView()->accuracySeries()->count() >= 2);
    CHECK(task->curvesView()->accuracySeries()->at(1).y() >= 0.95);  // within two epochs
    const Classification& c = classifyProbe(*task);
    CHECK(c.label == "yellow");  // "golden", the probe's last word
    CHECK(attendedWord(c) == "golden");  // the rollout gathers on it

    // A local window (W 8): in two layers [CLS] reaches the first 16 words only. Two epochs are
    // enough to see it (the pattern cannot reach the word, however long it trains).
    {
        LessonClock clock("long-inputs, local");
        ClassifierConfig local = task->panel()->config();
        local.pattern = AttentionPattern::Local;
        task->panel()->setConfig(local);
        task->train();
        stopClassifierAfter(f, 2);
    }
    CHECK(task->panel()->config().window == 8);
    REQUIRE(task->curvesView()->accuracySeries()->count() >= 2);
    CHECK(lastY(task->curvesView()->accuracySeries()) <= 0.4);
}

// Opt-in: 30 s more on one core would take the suite near its four minutes.
TEST_CASE("lesson 'long-inputs': chunked attention finds the colour word too within the lesson's epochs",
          "[ui][lessons][promise][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    WindowFixture f;
    REQUIRE(f.window->startLesson(QStringLiteral("long-inputs")));
    ClassifierTask* task = &classifier(*f.window);
    waitForClassifierRun(f);
    // Chunked attention reaches every word in two layers, through the chunks' summaries: within the
    // lesson's 4 epochs it finds the word too (1.00 by epoch 3 for seeds 1-3 from the CLI).
    {
        LessonClock clock("long-inputs, chunked");
        retrainWith(f, [](ClassifierConfig& cfg) { cfg.pattern = AttentionPattern::Chunked; });
    }
    CHECK(lastY(task->curvesView()->accuracySeries()) >= 0.95);
}

// `out` has the letters of `in` in its order, or with one pair of neighbours swapped.
static bool nearCopy(const std::string& out, const std::string& in) {
    if (out == in) return true;
    for (std::size_t i = 0; i + 1 < in.size(); ++i) {
        std::string swapped = in;
        std::swap(swapped[i], swapped[i + 1]);
        if (out == swapped) return true;
    }
    return false;
}

TEST_CASE("lesson 'bottleneck': without attention the GRU copies short sequences but not long ones",
          "[ui][lessons][promise][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    WindowFixture f;
    {
        LessonClock clock("bottleneck");
        trainTranslationLesson(f, QStringLiteral("bottleneck"));
    }
    // Short sequences: every letter copied, at most one pair of neighbours swapped (at 10 epochs
    // the CLI's model copied 4 of 8 five-letter words exactly, the others with one such swap).
    for (const char* word : {"hello", "qwert", "plane", "stone"}) {
        std::string spacedWord;
        for (const char* ch = word; *ch; ++ch) spacedWord += std::string(spacedWord.empty() ? "" : " ") + *ch;
        const std::string out = joined(translateNow(*f.window, QString::fromStdString(spacedWord)).outputTokens);
        INFO(word << " -> " << out);
        CHECK(nearCopy(out, word));
    }
    const std::string longInput = "qwertyuiopasdfghjklzxcvbn";
    std::string spaced;
    for (char ch : longInput) spaced += std::string(spaced.empty() ? "" : " ") + ch;
    const std::string copied = joined(translateNow(*f.window, QString::fromStdString(spaced)).outputTokens);
    INFO(copied);
    CHECK(copied != longInput);
    // Position by position, most of a 25-letter copy is wrong.
    int same = 0;
    for (std::size_t i = 0; i < std::min(copied.size(), longInput.size()); ++i) same += copied[i] == longInput[i];
    CHECK(same <= 15);
}

TEST_CASE("lesson 'heads': the Transformer translates, and a cross-attention head jumps to the moved phrase",
          "[ui][lessons][promise][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    WindowFixture f;
    {
        LessonClock clock("heads");
        trainTranslationLesson(f, QStringLiteral("heads"));
    }
    const Translation t = translateNow(*f.window, QStringLiteral("mary draws the cat in the red library this morning"));
    const std::string out = joined(t.outputTokens);
    INFO(out);
    CHECK(out == "玛丽今天早上在红图书馆里画猫");
    // 今天早上 ("this morning") comes second in Chinese, last in English: some head's peak for it
    // lands on "this" or "morning"; and some head follows the words in order (画 on "draws").
    const LayeredAttention& cross = t.attention.at(MapKind::Cross);
    REQUIRE(cross.size() == 2);
    int jumpHeads = 0, verbHeads = 0;
    for (const auto& layer : cross) {
        for (const AttentionMap& head : layer) {
            int onMorning = 0, chars = 0;
            for (std::size_t i = 0; i < t.outputTokens.size(); ++i) {
                const std::string& ch = t.outputTokens[i];
                const std::string peak = peakSource(t, head, static_cast<int>(i));
                if (std::string("今天早上").find(ch) != std::string::npos) {
                    ++chars;
                    onMorning += peak == "this" || peak == "morning";
                }
                if (ch == "画" && peak == "draws") ++verbHeads;
            }
            if (chars > 0 && onMorning * 2 >= chars) ++jumpHeads;
        }
    }
    CHECK(jumpHeads >= 1);
    CHECK(verbHeads >= 1);
}

TEST_CASE("lesson 'guided-alignment': the guided head's AER falls to about 0 while BLEU reaches 99",
          "[ui][lessons][promise][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    WindowFixture f;
    TranslationSession* c = translation(*f.window).session();
    std::vector<TranslationEpochMetrics> epochs;
    QObject::connect(c, &TranslationSession::epochFinished, [&](const TranslationEpochMetrics& m) { epochs.push_back(m); });
    {
        LessonClock clock("guided-alignment");
        trainTranslationLesson(f, QStringLiteral("guided-alignment"));
    }
    REQUIRE(epochs.size() == 8);
    const TranslationEpochMetrics& last = epochs.back();
    INFO("AER " << last.alignmentErrorRate << ", BLEU " << last.bleu);
    // "falls to about 0 within a few epochs while BLEU climbs to 99"
    CHECK(last.alignmentErrorRate < 0.03);
    CHECK(epochs[3].alignmentErrorRate < 0.05);
    CHECK(last.bleu >= 97.0);
}

TEST_CASE("lesson 'vit': the ViT learns the glyphs and its rollout gathers on the mark",
          "[ui][lessons][promise][images][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    WindowFixture f;
    ImageTask* task = nullptr;
    {
        LessonClock clock("vit");
        REQUIRE(f.window->startLesson(QStringLiteral("vit")));
        task = f.window->task<ImageTask>();
        REQUIRE(waitUntil([&] { return task->session()->isTraining(); }, 60000));
        REQUIRE(waitUntil([&] { return !task->session()->isBusy(); }, kLessonTimeoutMs));
    }
    CHECK(f.errors.isEmpty());
    ImageCurvesView* curves = task->curvesView();
    CHECK(lastY(curves->accuracySeries()) >= 0.9);
    // The rollout's mass on the mark's box, against what uniform attention puts there.
    const double onBox = lastY(curves->rolloutOnBoxSeries()), share = lastY(curves->boxShareSeries());
    INFO("rollout on the box " << onBox << ", the box's share " << share);
    CHECK(onBox >= 2.0 * share);
}

// The card promises, on two scene settings (the lesson's own clean scenes, and the same lesson on
// noisy scenes of another data seed: the setting it was not written on), that the captioner names
// the objects and that a shape word's map, drawn while writing it, sits on the object it names for
// about nine shape words in ten (its peak cell within half a cell of the object's box). Measured:
// 0.952 and 0.945 named, 0.933 and 0.916 on their object.
TEST_CASE("lesson 'captioner': the captioner names the objects and each shape word's map is on its object",
          "[ui][lessons][promise][images][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    const LessonFile* lesson = findBuiltinLessonFile(QStringLiteral("captioner"));
    REQUIRE(lesson != nullptr);
    LessonFile noisy = *lesson;
    noisy.noise = 0.08;
    noisy.dataSeed = lesson->dataSeed + 1;
    for (const LessonFile* setting : {lesson, static_cast<const LessonFile*>(&noisy)}) {
        const bool clean = setting == lesson;
        INFO((clean ? "the lesson's scenes" : "noisy scenes, another data seed"));
        WindowFixture f;
        ImageTask* task = f.window->task<ImageTask>();
        {
            LessonClock clock(clean ? "captioner" : "captioner on noisy scenes");
            if (clean) {
                REQUIRE(f.window->startLesson(QStringLiteral("captioner")));
            } else {  // as a teacher would: the lesson saved with other data and opened
                const QString path = f.dir.filePath(QStringLiteral("captioner-noisy.json"));
                QFile out(path);
                REQUIRE(out.open(QIODevice::WriteOnly));
                out.write(QByteArray::fromStdString(lessonToJson(*setting, path.toStdString())));
                out.close();
                REQUIRE(f.window->openLesson(path));
            }
            REQUIRE(waitUntil([&] { return task->session()->isTraining(); }, 60000));
            REQUIRE(waitUntil([&] { return !task->session()->isBusy(); }, kLessonTimeoutMs));
        }
        CHECK(f.errors.isEmpty());
        ImageCurvesView* curves = task->curvesView();
        const double named = lastY(curves->objectsNamedSeries()), peaks = lastY(curves->peakInBoxSeries());
        std::printf("captioner lesson, %s: objects named %.3f, shape words on their object %.3f\n",
                    clean ? "clean" : "noisy", named, peaks);
        INFO("held-out scenes with every object named " << named << ", shape words peaking on their object " << peaks);
        CHECK(named >= 0.9);
        CHECK(peaks >= 0.85);  // the card: "for about nine shape words in ten"
    }
}

TEST_CASE("lesson 'evidence': the run ends in the Explain view, whose best method beats random deletion",
          "[ui][lessons][promise][images][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    WindowFixture f;
    ImageTask* task = nullptr;
    {
        LessonClock clock("evidence");
        REQUIRE(f.window->startLesson(QStringLiteral("evidence")));
        task = f.window->task<ImageTask>();
        REQUIRE(waitUntil([&] { return task->session()->isTraining(); }, 60000));
        REQUIRE(waitUntil([&] { return !task->session()->isBusy(); }, kLessonTimeoutMs));
        REQUIRE(waitUntil([&] { return task->explainView()->explanation() != nullptr; }, 120000));
    }
    CHECK(f.errors.isEmpty());
    CHECK(f.window->currentTabName() == QStringLiteral("image-explain"));
    const ImageExplanation& e = *task->explainView()->explanation();
    double best = 0;
    for (const auto& [method, area] : e.deletion.areaOverCurve)
        if (method != "random") best = std::max(best, area);
    INFO("best AOPC " << best << ", random " << e.deletion.areaOverCurve.at("random"));
    CHECK(best > e.deletion.areaOverCurve.at("random"));
    CHECK(task->explainView()->deletionChart()->series().size() == 6);
}

TEST_CASE("lesson 'lookback': the forecaster's attention looks back by whole periods",
          "[ui][lessons][promise][forecast][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    WindowFixture f;
    ForecastTask* task = nullptr;
    {
        LessonClock clock("lookback");
        REQUIRE(f.window->startLesson(QStringLiteral("lookback")));
        task = f.window->task<ForecastTask>();
        REQUIRE(waitUntil([&] { return task->session()->isTraining(); }, 60000));
        REQUIRE(waitUntil([&] { return !task->session()->isBusy(); }, kLessonTimeoutMs));
    }
    CHECK(f.errors.isEmpty());
    LagProfileView* lags = task->lagProfileView();
    REQUIRE(lags->epochs() >= 1);
    CHECK(lags->ratioOf(0) > 1.0);  // from the first epoch on
    CHECK(lags->ratioOf(lags->epochs() - 1) > 1.0);
    // Curves shows MASE against seasonal naive.
    REQUIRE(task->curvesView()->maseSeries()->count() == lags->epochs());
    const double mase = lastY(task->curvesView()->maseSeries());
    INFO("MASE " << mase);
    CHECK(mase < 1.0);
}

// --- language model -----------------------------------------------------------------------------

namespace {

double bestOfLayer(const std::vector<std::vector<double>>& scores, std::size_t layer) {
    double best = 0;
    for (double v : scores.at(layer)) best = std::max(best, v);
    return best;
}

}  // namespace

TEST_CASE("lesson 'induction-heads': the loss bumps as a layer-2 induction head forms over a layer-1 "
          "previous-token head; with one layer no head learns it",
          "[ui][lessons][promise][lm][needs-full-lessons]") {
    NEEDS_FULL_LESSONS();
    WindowFixture f;
    LmTask* task = nullptr;
    {
        LessonClock clock("induction-heads");
        REQUIRE(f.window->startLesson(QStringLiteral("induction-heads")));
        task = f.window->task<LmTask>();
        REQUIRE(waitUntil([&] { return task->session()->isTraining(); }, 60000));
        REQUIRE(waitUntil([&] { return !task->session()->isBusy(); }, kLessonTimeoutMs));
    }
    CHECK(f.errors.isEmpty());
    LmCircuitsView* circuits = task->circuitsView();
    REQUIRE(circuits->reports().size() >= 10);
    // "for the first few hundred steps the loss sits on a plateau; then it falls in a bump, and the
    // induction score rises at the same step"
    const LmStepMetrics& first = circuits->reports().front();
    CHECK(first.validationLoss > 4.5);
    const int rise = circuits->inductionRiseStep();
    const int bump = circuits->lossBumpStep();
    INFO("rise " << rise << ", bump " << bump);
    CHECK(rise >= 150);
    CHECK(rise <= 1000);
    CHECK(std::abs(rise - bump) <= 100);
    // "a layer-1 head learns to attend to the previous token, and a layer-2 head to the token after
    // the earlier copy"
    const LmCircuitScores& last = circuits->reports().back().circuits;
    CHECK(bestOfLayer(last.heads.previousToken, 0) >= 0.4);
    CHECK(bestOfLayer(last.heads.induction, 1) >= 0.5);
    // "In Generate, the model finishes the repeat"
    CHECK(last.copyAccuracy >= 0.7);
    LmGenerateView* gen = task->generateView();
    REQUIRE(waitUntil([&] { return gen->hasAnswer(); }));

    // "Then set Layers to 1 and train again: no head learns it, and the model cannot copy."
    task->panel()->layersBox()->setValue(1);
    task->run(RunCommand::Start);
    REQUIRE(waitUntil([&] { return task->session()->isTraining(); }, 60000));
    REQUIRE(waitUntil([&] { return !task->session()->isBusy(); }, kLessonTimeoutMs));
    const LmCircuitScores& one = circuits->reports().back().circuits;
    REQUIRE(one.heads.induction.size() == 1);
    CHECK(bestOfLayer(one.heads.induction, 0) < 0.15);
    CHECK(one.copyAccuracy < 0.35);
    CHECK(circuits->inductionRiseStep() == 0);
}
