// Regenerates the README's screenshots from real training runs: the heads lesson (a Transformer),
// the alignment lesson (GRU + additive on toy-en-zh), then every view of the teaching lab. Each image
// is the main window grabbed at 1400 x 900. Then the text-classification task: the lesson "Is attention
// an explanation?", its Classify, Explain (with the permutation test and the uniform baseline), Texts
// and Curves views, and the needle experiment. With --only image, the Images task's two lessons: a ViT
// on glyphs (image-vit.png, its curves image-curves.png, its heads image-heads.png, the explanation
// lab on the glyph shown image-explain.png) and a captioner on scenes (image-caption.png, the
// explanation lab on its third word image-explain-word.png).
// With --only heads, the heads lesson's Transformer with its second layer's cross heads switched
// off (heads-ablation.png), as lines (heads-lines.png) and measured (head-importance.png), and a
// token edit in the Translate view (translate-edit.png). With
// --only long-range, a short long-range experiment run to its end (long-range.png). With --only
// decoding, the decoding lab on the heads lesson's Transformer (decoding-greedy, -sampling, -beam);
// with --only guided, the guided-alignment lesson's curves and its guided head (guided-alignment*).
// Not a test; see bench/run-screenshots.sh.
//   attnlab-screenshots OUTPUT_DIR [--only classify|attribution|image|heads|long-range|importance|decoding|guided]
#include "views/attribution/AttributionView.h"
#include "views/experiments/LongRangePage.h"
#include "views/heads/HeadsView.h"
#include "task/forecast/ForecastTask.h"
#include "views/heads/ImportanceView.h"
#include "views/classify/ClassifyView.h"
#include "views/classify/ExplainView.h"
#include "views/classify/NeedleView.h"
#include "views/classify/TextsView.h"
#include "views/compare/CompareView.h"
#include "views/decoding/DecodingView.h"
#include "widgets/WordStrip.h"
#include "task/classify/ClassifierTask.h"
#include "task/images/ImageTask.h"
#include "views/image/ImageExplainView.h"
#include "views/image/ImageView.h"
#include "views/experiments/ExperimentsView.h"
#include "task/translate/TranslationTask.h"
#include "window/MainWindow.h"
#include "views/maths/MathsView.h"
#include "views/timeline/TimelineView.h"
#include "views/translate/TranslateView.h"
#include "engine/Runtime.h"
#include "engine/translation/TranslationTrainer.h"

#include <QApplication>
#include <algorithm>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QDir>
#include <QElapsedTimer>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <string>
#include <functional>

using namespace attnlab;

namespace {

TranslationTask& translation(MainWindow& w) { return *w.task<TranslationTask>(); }


bool waitFor(const std::function<bool()>& condition, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs) return false;
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    return true;
}

void settle(int ms = 400) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) QApplication::processEvents(QEventLoop::AllEvents, 20);
}

}  // namespace

int main(int argc, char* argv[]) {
    const std::string only = argc == 4 && std::string(argv[2]) == "--only" ? argv[3] : "";
    if (argc != 2 && only != "classify" && only != "attribution" && only != "image" && only != "heads" &&
        only != "long-range" && only != "importance" && only != "decoding" && only != "guided") {
        std::fprintf(stderr,
                     "Usage: attnlab-screenshots OUTPUT_DIR [--only classify|attribution|image|heads|long-range|importance|decoding|guided]\n");
        return 2;
    }
    preferFastBlasKernels(argv);
    QApplication app(argc, argv);
    QTemporaryDir work;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, work.filePath(QStringLiteral("settings")));
    const QDir out(QString::fromLocal8Bit(argv[1]));
    if (!QDir().mkpath(out.path())) {
        std::fprintf(stderr, "error: %s: cannot create the folder\n", argv[1]);
        return 1;
    }
    MainWindow window;
    window.setErrorReporter([](const QString& title, const QString& message) {
        std::fprintf(stderr, "error dialog: %s: %s\n", qPrintable(title), qPrintable(message));
    });
    window.setPrompt([](const QString&, const QString&, QMessageBox::StandardButtons) { return QMessageBox::Discard; });
    window.resize(1400, 900);
    window.show();
    int failures = 0;
    auto shot = [&](const char* name) {
        settle();
        const QString path = out.filePath(QString::fromLatin1(name) + QStringLiteral(".png"));
        if (!window.grab().save(path)) {
            std::fprintf(stderr, "error: %s: cannot write\n", qPrintable(path));
            ++failures;
            return;
        }
        std::printf("wrote %s\n", qPrintable(path));
    };
    auto must = [&](bool ok, const char* what) {
        if (!ok) {
            std::fprintf(stderr, "error: timed out waiting for %s\n", what);
            ++failures;
        }
        return ok;
    };
    auto trainLesson = [&](const char* lesson) {
        window.startLesson(QString::fromLatin1(lesson));
        return must(waitFor([&] { return translation(window).session()->state() == TranslationSession::State::Finished; },
                            15 * 60 * 1000),
                    lesson);
    };

    // A translation model explained word by word: the alignment lesson's GRU, its attribution view.
    const auto attribution = [&] {
        window.showTab(QStringLiteral("attribution"));
        auto* view = qobject_cast<AttributionView*>(window.navigator()->currentWidget());
        view->setSentence(QStringLiteral("tom chases jerry in the park now"));
        view->explain(2);
        must(waitFor([&] { return view->result() != nullptr; }, 60000), "an attribution");
        shot("attribution");
    };
    // What the heads do: switched off, as lines, measured.
    if (only == "heads") {
        if (!trainLesson("heads")) return 1;
        window.showTab(QStringLiteral("heads"));
        HeadsView* heads = translation(window).headsView();
        heads->setKind(MapKind::Cross);
        Q_EMIT heads->findChild<QLineEdit*>()->returnPressed();
        must(waitFor([&] { return heads->showsTransformer(); }, 60000), "the heads");
        const int layers = heads->overview()->layerCount(), perLayer = heads->overview()->headCount();
        std::vector<HeadId> secondLayer;
        for (int h = 0; h < perLayer; ++h) secondLayer.push_back(HeadId{MapKind::Cross, layers - 1, h});
        heads->setAblationMode(true);
        heads->setSwitchedOff(secondLayer);
        must(waitFor([&] { return heads->showsAblation(); }, 60000), "the ablated translation");
        shot("heads-ablation");
        heads->setSwitchedOff({});
        heads->setAblationMode(false);
        heads->setKind(MapKind::Encoder);
        heads->setShowLines(true);
        shot("heads-lines");
        heads->setShowLines(false);
        window.showTab(QStringLiteral("head-importance"));
        ImportanceView* importance = translation(window).importanceView();
        importance->measureButton()->click();
        must(waitFor([&] { return importance->hasReport(); }, 10 * 60 * 1000), "the head importance");
        shot("head-importance");
        // A token edit: the sentence without its verb.
        window.showTab(QStringLiteral("translate"));
        TranslateView* translate = translation(window).translateView();
        translate->setSentence(QStringLiteral("mary draws the cat in the red library this morning"));
        translate->clear();
        translate->requestTranslation();
        must(waitFor([&] { return !translate->attention()->translation().sourceTokens.empty(); }, 60000), "a translation");
        translate->editToken(1, TranslateView::TokenEdit::Mask);
        must(waitFor([&] { return translate->showsEdit(); }, 60000), "the edited translation");
        shot("translate-edit");
        translation(window).session()->shutdown();
        return failures == 0 ? 0 : 1;
    }
    // The decoding lab on the heads lesson's Transformer: greedy with its key/value cache, three
    // samples side by side, and beam search as a tree.
    if (only == "decoding") {
        if (!trainLesson("heads")) return 1;
        window.showTab(QStringLiteral("decoding"));
        auto* view = qobject_cast<DecodingView*>(window.navigator()->currentWidget());
        view->setSentence(QStringLiteral("the small cat sees the red car"));
        int decoded = 0;
        QObject::connect(view, &DecodingView::decoded, view, [&decoded] { ++decoded; });
        const auto decode = [&](const char* what) {
            const int before = decoded;
            view->decode();
            return must(waitFor([&] { return decoded > before && !view->isBusy(); }, 60000), what);
        };
        view->setMethod(DecodingView::Method::Greedy);
        if (decode("a greedy decoding")) {
            view->setStep(3);
            shot("decoding-greedy");
        }
        view->setMethod(DecodingView::Method::Sampling);
        view->setSampling(2.5, 5, 0.95, 1, 3);
        if (decode("three samples")) {
            view->setStep(2);
            shot("decoding-sampling");
        }
        view->setMethod(DecodingView::Method::Beam);
        view->setBeamWidth(3);
        if (decode("a beam search")) shot("decoding-beam");
        translation(window).session()->shutdown();
        return failures == 0 ? 0 : 1;
    }
    // Guided alignment: the lesson's curves (AER of the guided head), then that head's map.
    if (only == "guided") {
        if (!trainLesson("guided-alignment")) return 1;
        window.showTab(QStringLiteral("curves"));
        shot("guided-alignment");
        window.showTab(QStringLiteral("heads"));
        HeadsView* heads = translation(window).headsView();
        heads->setKind(MapKind::Cross);
        Q_EMIT heads->findChild<QLineEdit*>()->returnPressed();
        must(waitFor([&] { return heads->showsTransformer(); }, 60000), "the heads");
        shot("guided-alignment-heads");
        translation(window).session()->shutdown();
        return failures == 0 ? 0 : 1;
    }
    // The long-range experiment, a short run to its end: every pattern at three lengths.
    if (only == "long-range") {
        window.showTab(QStringLiteral("experiments"));
        ExperimentsView* experiments = translation(window).experimentsView();
        experiments->showPage(QStringLiteral("long-range"));
        LongRangePage* page = experiments->longRangePage();
        LongRangeOptions options;
        options.lengths = {64, 256, 1024};
        options.extend = false;
        options.steps = 20;
        options.texts = 32;
        page->setOptions(options);
        page->run();
        must(waitFor([&] { return page->isRunning(); }, 10000) || !page->rows().empty(), "the long-range run to start");
        must(waitFor([&] { return !page->isRunning(); }, 30 * 60 * 1000), "the long-range run");
        shot("long-range");
        return failures == 0 ? 0 : 1;
    }
    // Which heads matter, for the other tasks' Transformers: each lesson's model, measured.
    if (only == "importance") {
        const auto measure = [&](const char* lesson, ModelSession* session, const char* tab, ImportanceView* view) {
            window.startLesson(QString::fromLatin1(lesson));
            if (!must(waitFor([&] { return session->isTraining(); }, 60000) &&
                          waitFor([&] { return !session->isBusy() && session->hasModel(); }, 15 * 60 * 1000),
                      lesson))
                return;
            window.showTab(QString::fromLatin1(tab));
            view->measureButton()->click();
            if (must(waitFor([&] { return view->hasReport(); }, 10 * 60 * 1000), tab)) shot(tab);
        };
        ClassifierTask* classifier = window.task<ClassifierTask>();
        measure("long-inputs", classifier->session(), "class-importance", classifier->importanceView());
        // Live ablation in Classify: the probe with the classifier's most important head off.
        if (classifier->importanceView()->hasReport()) {
            const HeadStudyReport& r = classifier->importanceView()->report();
            const auto top = std::max_element(r.heads.begin(), r.heads.end(), [](const auto& a, const auto& b) {
                return a.deltaLoss < b.deltaLoss;
            });
            window.showTab(QStringLiteral("classify"));
            ClassifyView* view = classifier->classifyView();
            view->classifyButton()->click();
            must(waitFor([&] { return view->classification() != nullptr; }, 60000), "a classification");
            view->setAblationMode(true);
            view->setSwitchedOff({top->head});
            if (must(waitFor([&] { return !view->ablationSummary().isEmpty(); }, 60000), "the ablated classification"))
                shot("classify-ablation");
        }
        ImageTask* images = window.task<ImageTask>();
        measure("vit", images->session(), "image-importance", images->importanceView());
        ForecastTask* forecast = window.task<ForecastTask>();
        measure("lookback", forecast->session(), "forecast-importance", forecast->importanceView());
        classifier->shutdown();
        images->shutdown();
        forecast->shutdown();
        translation(window).session()->shutdown();
        return failures == 0 ? 0 : 1;
    }
    // The Images task: where a ViT looks, and a captioner that looks at what it names.
    if (only == "image") {
        ImageTask* images = window.task<ImageTask>();
        const auto trained = [&] { return !images->session()->isBusy() && images->session()->hasModel(); };
        window.startLesson(QStringLiteral("vit"));
        if (must(waitFor([&] { return images->session()->isTraining(); }, 60000) && waitFor(trained, 10 * 60 * 1000),
                 "the ViT lesson") &&
            must(waitFor([&] { return images->imageView()->classification() != nullptr; }, 60000), "a classification")) {
            window.showTab(QStringLiteral("image"));
            // The mouse over the mark: what its patch attends to, and what attends to it.
            const ImageClassification& c = *images->imageView()->classification();
            const Image& shown = images->imageView()->image();
            if (!images->images()->boxes.empty() && shown.height > 0) {
                const Box& b = images->images()->boxes.front();
                const int row = (b.top + b.height / 2) * c.gridRows / shown.height;
                const int col = (b.left + b.width / 2) * c.gridCols / shown.width;
                images->imageView()->setSelection(0);  // the rollout
                images->imageView()->hoverCell(row * c.gridCols + col);
            }
            shot("image-vit");
            window.showTab(QStringLiteral("image-curves"));
            shot("image-curves");
            window.showTab(QStringLiteral("image-heads"));
            shot("image-heads");
            // The explanation lab on the glyph shown: the five maps, the taus, the deletion chart.
            window.showTab(QStringLiteral("image-explain"));
            images->explainView()->explainButton()->click();
            if (must(waitFor([&] { return images->explainView()->explanation() != nullptr; }, 120000), "an explanation"))
                shot("image-explain");
        }
        window.startLesson(QStringLiteral("captioner"));
        if (must(waitFor([&] { return images->session()->isTraining(); }, 60000) && waitFor(trained, 10 * 60 * 1000),
                 "the captioner lesson") &&
            must(waitFor([&] {
                     const Captioning* c = images->imageView()->captioning();
                     return c != nullptr && !c->tokens.empty();
                 }, 60000),
                 "a caption")) {
            window.showTab(QStringLiteral("image"));
            images->imageView()->selectWord(std::min(2, images->imageView()->wordCount() - 1));  // "a red disk": disk
            shot("image-caption");
            // The explanation lab on a word of the caption: its attention beside the gradient maps.
            window.showTab(QStringLiteral("image-explain"));
            ImageExplainView* explain = images->explainView();
            if (must(waitFor([&] { return explain->explainButton()->isEnabled(); }, 60000), "a caption to explain")) {
                explain->explainButton()->click();
                if (must(waitFor([&] { return explain->explanation() != nullptr; }, 120000), "a word's explanation"))
                    shot("image-explain-word");
            }
        }
        images->shutdown();
        translation(window).session()->shutdown();
        return failures == 0 ? 0 : 1;
    }
    if (only == "attribution") {
        if (trainLesson("alignment")) attribution();
        translation(window).session()->shutdown();
        return failures == 0 ? 0 : 1;
    }

    // Text classification: is attention an explanation?
    window.startLesson(QStringLiteral("explanation"));
    ClassifierTask* task = window.task<ClassifierTask>();
    const auto idle = [&] { return !task->session()->isBusy() && task->session()->hasModel(); };
    if (must(waitFor(idle, 10 * 60 * 1000), "the classifier lesson") &&
        must(waitFor([&] { return task->explainView()->explanation() != nullptr; }, 60000), "an explanation")) {
        shot("classify");
        window.showTab(QStringLiteral("class-curves"));
        shot("class-curves");
        window.showTab(QStringLiteral("explain"));
        Q_EMIT task->explainView()->faithfulnessRequested(true);  // the permutation test and the uniform baseline
        must(waitFor([&] { return task->session()->isExperimenting(); }, 10000) && waitFor(idle, 10 * 60 * 1000),
             "the faithfulness run");
        shot("explain");
        // The validation-set figures, below the single text's rows.
        if (auto* area = qobject_cast<QScrollArea*>(task->explainView()->parentWidget()->parentWidget())) {
            area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
            shot("explain-validation");
            area->verticalScrollBar()->setValue(0);
        }
        window.showTab(QStringLiteral("texts"));
        task->textsView()->selectExample(3);
        must(waitFor([&] { return task->textsView()->strip()->rows().size() == 2; }, 60000), "the texts' attention");
        shot("texts");
    }
    window.showTab(QStringLiteral("needle"));
    NeedleView* needle = task->needleView();
    needle->run();
    must(waitFor([&] { return !needle->isRunning(); }, 30 * 60 * 1000), "the needle experiment");
    shot("needle");
    if (only == "classify") {
        translation(window).session()->shutdown();
        return failures == 0 ? 0 : 1;
    }

    // A Transformer: heads, positions; kept in a file for the comparison.
    const QString transformerPath = work.filePath(QStringLiteral("transformer.safetensors"));
    if (trainLesson("heads")) {
        window.showTab(QStringLiteral("heads"));
        shot("heads");
        window.showTab(QStringLiteral("positions"));
        shot("positions");
        bool saved = false;
        QObject::connect(translation(window).session(), &TranslationSession::modelSaved, [&] { saved = true; });
        translation(window).saveModelTo(transformerPath);
        must(waitFor([&] { return saved; }, 60000), "the Transformer to be saved");
    }

    // The classic example: GRU + additive on toy-en-zh.
    if (trainLesson("alignment")) {
        window.showTab(QStringLiteral("probe"));
        shot("lesson");
        window.showTab(QStringLiteral("translate"));
        must(waitFor([&] { return translation(window).translateView()->attention()->hasMap(); }, 60000), "a translation");
        shot("translate");
        window.showTab(QStringLiteral("timeline"));
        TimelineView* timeline = translation(window).timelineView();
        timeline->setCurrentIndex(std::max(0, timeline->snapshotCount() / 6));  // attention still forming
        shot("timeline");
        timeline->exportSmallMultiples(out.filePath(QStringLiteral("timeline-grid.png")), 8, 4);
        window.showTab(QStringLiteral("maths"));
        MathsView* maths = translation(window).mathsView();
        maths->setSentence(QStringLiteral("tom chases jerry"));
        maths->requestTrace();
        if (must(waitFor([&] { return maths->hasTrace(); }, 60000), "a trace")) {
            if (maths->tokenChooser()->count() > 1) {
                maths->tokenChooser()->setCurrentIndex(1);
                waitFor([&] { return maths->hasTrace() && maths->trace().step == 1; }, 60000);
            }
        }
        shot("maths");
        window.showTab(QStringLiteral("diagnostics"));
        shot("diagnostics");
        window.showTab(QStringLiteral("compare"));
        CompareView* compare = translation(window).compareView();
        bool loaded = false;
        QObject::connect(compare, &CompareView::modelLoaded, [&] { loaded = true; });
        compare->loadModelFile(1, transformerPath);
        must(waitFor([&] { return loaded; }, 60000), "the comparison model");
        compare->setSentence(QStringLiteral("tom chases jerry in the park now"));
        compare->compare();
        must(waitFor([&] { return !compare->isBusy() && compare->hasFigure(); }, 60000), "the comparison");
        shot("compare");
        attribution();
    }

    // The measured experiments.
    window.showTab(QStringLiteral("experiments"));
    ExperimentsView* experiments = translation(window).experimentsView();
    experiments->showPage(QStringLiteral("complexity"));
    experiments->runComplexity();
    must(waitFor([&] { return !experiments->complexityRunning(); }, 10 * 60 * 1000), "the complexity run");
    shot("complexity");
    experiments->showPage(QStringLiteral("bottleneck"));
    experiments->applyPreset(ExperimentsView::BottleneckPreset::Classroom);
    experiments->runBottleneck();
    must(waitFor([&] { return !experiments->bottleneckRunning(); }, 30 * 60 * 1000), "the bottleneck run");
    shot("bottleneck");
    translation(window).session()->shutdown();
    return failures == 0 ? 0 : 1;
}
