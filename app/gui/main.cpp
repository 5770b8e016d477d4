// attnlab: the desktop application.
#include "task/translate/TranslationTask.h"
#include "window/MainWindow.h"
#include "session/TrainingController.h"
#include "window/Translations.h"

#include "Version.h"
#include "engine/Runtime.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QLocale>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

int main(int argc, char* argv[]) {
    // Training speed: on CPUs Debian's OpenBLAS does not know, pick its AVX2 kernels
    // (one re-exec, ~0.7 s of start-up; see preferFastBlasKernels).
    attnlab::preferFastBlasKernels(argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("AttnLab"));
    QApplication::setOrganizationName(QStringLiteral("AttnLab"));
    QApplication::setApplicationDisplayName(QStringLiteral("AttnLab"));
    QApplication::setApplicationVersion(QString::fromLatin1(attnlab::kVersion));
    QApplication::setWindowIcon(attnlab::MainWindow::applicationIcon());

    // The language: View > Language overrides the system locale; a change applies at the next start.
    attnlab::Translations translations;
    const QString language = attnlab::Translations::resolve(attnlab::Translations::storedLanguage(),
                                                            QLocale::system().uiLanguages());
    if (!translations.install(language))
        std::fprintf(stderr, "warning: no %s translation is built in; using English\n", qPrintable(language));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Train small attention models and watch their attention live."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QApplication::translate("main", "Start with a built-in dataset (toy-en-zh, or the one given) loaded and "
                                        "a Transformer training."),
        QStringLiteral("dataset"));
    QCommandLineOption tab(QStringLiteral("tab"),
                           QApplication::translate("main", "Open on a tab: corpus, translate, probe, heads, curves, "
                                                           "timeline, maths, diagnostics, compare, positions, attribution, experiments; "
                                                           "for text classification texts, classify, class-curves, "
                                                           "explain, needle; for images image, image-curves."),
                           QStringLiteral("name"));
    tab.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(tab);
    QCommandLineOption setup(QStringLiteral("setup"),
                             QApplication::translate("main", "Open the setup panel on a page: data, model, training."),
                             QStringLiteral("page"));
    setup.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(setup);
    const QCommandLineOption lesson(
        QStringLiteral("lesson"),
        QApplication::translate("main", "Start a lesson: alignment, bottleneck, heads, explanation, vit or "
                                        "captioner (also in the Lessons menu)."),
        QStringLiteral("name"));
    parser.addOption(lesson);
    const QCommandLineOption task(
        QStringLiteral("task"),
        QApplication::translate("main", "Open on a task: translate, classify, images (or image-classify, caption)."),
        QStringLiteral("id"));
    parser.addOption(task);
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QApplication::translate("main", "A corpus (.tsv) or a model (.safetensors) to open."),
                                 QStringLiteral("[file]"));
    // --demo may come without a value: accept "--demo" alone by checking for it before parsing.
    QStringList arguments = QApplication::arguments();
    for (int i = 1; i < arguments.size(); ++i) {
        const bool last = i + 1 >= arguments.size();
        if (arguments[i] == QLatin1String("--demo") && (last || arguments[i + 1].startsWith(QLatin1Char('-'))))
            arguments[i] = QStringLiteral("--demo=toy-en-zh");
    }
    parser.addOption(demo);
    parser.process(arguments);

    int code = 0;
    {
        attnlab::MainWindow window;
        window.show();
        if (parser.isSet(task) && !window.switchTask(parser.value(task))) {
            std::fprintf(stderr, "error: --task: unknown task '%s' (translate, classify, images, image-classify, caption)\n",
                         qPrintable(parser.value(task)));
            return 2;
        }
        if (parser.isSet(tab) && !window.showTab(parser.value(tab))) {
            std::fprintf(stderr, "warning: unknown tab '%s'\n", qPrintable(parser.value(tab)));
        }
        if (parser.isSet(setup) && !window.showSetupPage(parser.value(setup))) {
            std::fprintf(stderr, "warning: unknown setup page '%s'\n", qPrintable(parser.value(setup)));
        }
        if (parser.isSet(lesson)) {
            if (!window.startLesson(parser.value(lesson))) {
                QStringList ids;
                for (const attnlab::Task* t : window.tasks())
                    for (const attnlab::LessonCard& card : t->lessons()) ids << card.id;
                std::fprintf(stderr, "error: --lesson: unknown lesson '%s' (%s)\n", qPrintable(parser.value(lesson)),
                             qPrintable(ids.join(QStringLiteral(", "))));
                return 2;
            }
        } else if (parser.isSet(demo)) {
            // The demo is the translation task's "heads" lesson on the dataset given.
            auto* translation = window.task<attnlab::TranslationTask>();
            window.switchTask(translation->id());
            translation->startDemo(parser.value(demo));
        } else if (!parser.positionalArguments().isEmpty()) {
            window.openFiles({QFileInfo(parser.positionalArguments().constFirst()).absoluteFilePath()});
        }
        if (qEnvironmentVariableIsSet("ATTNLAB_QUIT_AFTER_FIRST_PAINT")) {
            // Benchmark hook (bench/run-benchmarks.sh): the cold-start figure is the wall
            // time until the window has painted once.
            QTimer::singleShot(0, &window, [&window] {
                window.repaint();
                QApplication::quit();
            });
        }
        code = QApplication::exec();
    }  // the window (and its training thread) is gone before the process ends
    if (attnlab::TrainingController::hasAbandonedThreads()) {
        // A worker did not stop in time; static destructors must not run under it.
        std::fflush(nullptr);
        std::_Exit(code);
    }
    return code;
}
