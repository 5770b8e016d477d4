// attnlab: the desktop application.
//
// The command line is read twice. First on a QCoreApplication, which needs no display: it answers
// --help (with the lessons) and --version, and when there is no display to open the window on it
// says so in one line (exit 2) instead of letting Qt abort. Then, for everything else, on the
// QApplication that opens the window.
#include "session/BackgroundJob.h"
#include "session/LessonFiles.h"
#include "task/BuiltinTasks.h"
#include "window/MainWindow.h"
#include "window/Translations.h"

#include "Version.h"
#include "engine/Runtime.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QLocale>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

void setApplicationNames() {
    QCoreApplication::setApplicationName(QStringLiteral("AttnLab"));
    QCoreApplication::setOrganizationName(QStringLiteral("AttnLab"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(attnlab::kVersion));
}

// The language: View > Language overrides the system locale; a change applies at the next start.
bool installLanguage(attnlab::Translations& translations, QString* language) {
    *language = attnlab::Translations::resolve(attnlab::Translations::storedLanguage(), QLocale::system().uiLanguages());
    return translations.install(*language);
}

QString lessonIds() {
    QStringList ids;
    for (const attnlab::LessonCard& card : attnlab::allLessonCards()) ids << card.id;
    return ids.join(QStringLiteral(", "));
}

// The window's options, described on whichever application object exists (their descriptions are
// translated, so the translator must be installed first).
struct CommandLine {
    QCommandLineParser parser;
    QCommandLineOption help;
    QCommandLineOption version;
    QCommandLineOption demo{
        QStringLiteral("demo"),
        QCoreApplication::translate("main", "Start with a built-in dataset (toy-en-zh, or the one given) loaded and "
                                            "a Transformer training."),
        QStringLiteral("dataset")};
    QCommandLineOption tab{
        QStringLiteral("tab"),
        QCoreApplication::translate("main", "Open on a view, by its name (an unknown name lists them)."),
        QStringLiteral("name")};
    QCommandLineOption setup{
        QStringLiteral("setup"),
        QCoreApplication::translate("main", "Open the setup panel on a page: data, model, training."),
        QStringLiteral("page")};
    QCommandLineOption lesson{
        QStringLiteral("lesson"),
        QCoreApplication::translate("main", "Start a lesson: one of those listed below (also in the Lessons menu), or "
                                            "a lesson file (.json, see docs/lessons.md)."),
        QStringLiteral("name")};
    QCommandLineOption paintAndQuit{
        QStringLiteral("paint-and-quit"),
        QCoreApplication::translate("main", "Open the window, do what the other options ask, paint it once and quit: "
                                            "a check that AttnLab starts on this machine (and how fast).")};
    QCommandLineOption task{
        QStringLiteral("task"),
        QCoreApplication::translate("main", "Open on a task: %1.").arg(attnlab::windowTaskList()),
        QStringLiteral("id")};

    CommandLine() : help(parser.addHelpOption()), version(parser.addVersionOption()) {
        parser.setApplicationDescription(
            QCoreApplication::translate("main", "Train small attention models and watch their attention live."));
        tab.setFlags(QCommandLineOption::HiddenFromHelp);
        setup.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOptions({tab, setup, lesson, task, demo, paintAndQuit});
        parser.addPositionalArgument(
            QStringLiteral("file"),
            QCoreApplication::translate("main", "A corpus (.tsv) or a model (.safetensors) to open."),
            QStringLiteral("[file]"));
    }

    // The parser's help, then the lessons with their titles.
    QString helpText() const {
        QString text = parser.helpText();
        text += QLatin1Char('\n') + QCoreApplication::translate("main", "Lessons (--lesson NAME):") + QLatin1Char('\n');
        const QList<attnlab::LessonCard> cards = attnlab::allLessonCards();
        qsizetype width = 0;
        for (const attnlab::LessonCard& card : cards) width = std::max(width, card.id.size());
        for (const attnlab::LessonCard& card : cards)
            text += QStringLiteral("  ") + card.id.leftJustified(width + 2) + card.title + QLatin1Char('\n');
        return text;
    }
};

// --demo may come without a value: "--demo" alone means toy-en-zh.
QStringList withDemoValue(QStringList arguments) {
    for (int i = 1; i < arguments.size(); ++i) {
        const bool last = i + 1 >= arguments.size();
        if (arguments[i] == QLatin1String("--demo") && (last || arguments[i + 1].startsWith(QLatin1Char('-'))))
            arguments[i] = QStringLiteral("--demo=toy-en-zh");
    }
    return arguments;
}

std::string variable(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

// The value of a Qt option given as "-NAME VALUE" or "--NAME VALUE" (as QGuiApplication reads them).
std::string qtArgument(int argc, char** argv, const char* name) {
    const std::string single = std::string("-") + name, dashed = "-" + single;
    for (int i = 1; i + 1 < argc; ++i)
        if (argv[i] == single || argv[i] == dashed) return argv[i + 1];
    return {};
}

// Why no window can be opened here, or "" when one can (as far as can be told before Qt tries: the
// platform comes from -platform, else QT_QPA_PLATFORM, else Qt's default, X11 or Wayland).
std::string whyNoDisplay(int argc, char** argv) {
    const bool x11 = !variable("DISPLAY").empty() || !qtArgument(argc, argv, "display").empty();
    const bool wayland = !variable("WAYLAND_DISPLAY").empty();
    std::string platforms = qtArgument(argc, argv, "platform");
    const char* source = "-platform";
    if (platforms.empty()) {
        platforms = variable("QT_QPA_PLATFORM");
        source = "QT_QPA_PLATFORM";
    }
    if (platforms.empty())
        return x11 || wayland ? "" : "DISPLAY and WAYLAND_DISPLAY are not set";
    // A list ("wayland;xcb") is tried in order; a name may carry options after ':'.
    std::string needs;
    std::size_t start = 0;
    while (start <= platforms.size()) {
        const std::size_t end = std::min(platforms.find(';', start), platforms.size());
        const std::string entry = platforms.substr(start, end - start);
        const std::string name = entry.substr(0, entry.find(':'));
        start = end + 1;
        if (name == "xcb") {
            if (x11) return "";
            needs = "DISPLAY";
        } else if (name.rfind("wayland", 0) == 0) {
            if (wayland) return "";
            needs = needs.empty() ? "WAYLAND_DISPLAY" : needs;
        } else if (!name.empty()) {
            return "";  // offscreen, minimal, vnc, eglfs, linuxfb...: no display server needed
        }
    }
    return std::string(source) + " is '" + platforms + "' but " + (needs.empty() ? "DISPLAY" : needs) +
           " is not set";
}

// The command as typed, to suggest under xvfb-run.
std::string commandLineOf(int argc, char** argv) {
    std::string command = "attnlab";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789-_=./:,+@%") == std::string::npos;
        std::string quoted = "'";
        for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        command += " " + (plain ? a : quoted + "'");
    }
    return command;
}

void reportNoDisplay(const std::string& why, int argc, char** argv) {
    std::fprintf(stderr, "error: no display to open the window on (%s); run it in a virtual one: xvfb-run -a %s\n",
                 why.c_str(), commandLineOf(argc, argv).c_str());
    std::fflush(stderr);
}

// While the QApplication connects to the display: Qt's messages are held back, and its fatal error
// (no platform plugin could be initialized) becomes one line naming the display, exit 2.
struct Connecting {
    static inline int argc = 0;
    static inline char** argv = nullptr;
    static inline std::vector<std::string> held;
    static inline QtMessageHandler previous = nullptr;

    static void handler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
        if (type != QtFatalMsg) {
            held.push_back(qFormatLogMessage(type, context, message).toStdString());
            return;
        }
        std::string why = "Qt could not initialize a platform plugin";
        for (const std::string& m : held)
            if (m.find("display") != std::string::npos) why = m.substr(0, m.find('\n'));  // "could not connect to display :9"
        reportNoDisplay(why, argc, argv);
        std::_Exit(2);
    }
    Connecting(int c, char** v) {
        argc = c;
        argv = v;
        previous = qInstallMessageHandler(handler);
    }
    ~Connecting() {  // connected: Qt's messages go where they went before
        qInstallMessageHandler(previous);
        for (const std::string& m : held) std::fprintf(stderr, "%s\n", m.c_str());
        held.clear();
    }
};

}  // namespace

int main(int argc, char* argv[]) {
    attnlab::tuneAllocator();  // before any thread allocates
    // What needs no window: --help, --version, and saying there is no display.
    {
        QCoreApplication core(argc, argv);
        setApplicationNames();
        attnlab::Translations translations;
        QString language;
        installLanguage(translations, &language);  // a missing catalogue is reported below, once
        CommandLine commandLine;
        // Errors (an unknown option, or one of Qt's own such as -platform) are the window's parser's to report.
        commandLine.parser.parse(withDemoValue(QCoreApplication::arguments()));
        const std::string why = whyNoDisplay(argc, argv);
        // --help-all (Qt's own options too) is the window's parser's when there is a display.
        const bool helpAll = commandLine.parser.isSet(QStringLiteral("help-all"));
        if (commandLine.parser.isSet(commandLine.help) || (helpAll && !why.empty())) {
            std::fputs(qPrintable(commandLine.helpText()), stdout);
            return 0;
        }
        if (commandLine.parser.isSet(commandLine.version)) {
            std::printf("%s %s\n", qPrintable(QCoreApplication::applicationName()),
                        qPrintable(QCoreApplication::applicationVersion()));
            return 0;
        }
        if (!why.empty()) {
            reportNoDisplay(why, argc, argv);
            return 2;
        }
    }

    // Training speed: on CPUs Debian's OpenBLAS does not know, pick its faster kernels
    // (one re-exec, ~0.6 s of start-up; see preferFastBlasKernels).
    attnlab::preferFastBlasKernels(argv);
    std::unique_ptr<QApplication> application;
    {
        Connecting connecting(argc, argv);
        application = std::make_unique<QApplication>(argc, argv);
    }
    setApplicationNames();
    QApplication::setApplicationDisplayName(QStringLiteral("AttnLab"));
    QApplication::setWindowIcon(attnlab::MainWindow::applicationIcon());

    attnlab::Translations translations;
    QString language;
    if (!installLanguage(translations, &language))
        std::fprintf(stderr, "warning: no %s translation is built in; using English\n", qPrintable(language));

    CommandLine commandLine;
    QCommandLineParser& parser = commandLine.parser;
    parser.process(withDemoValue(QApplication::arguments()));
    const QCommandLineOption& demo = commandLine.demo;
    const QCommandLineOption& tab = commandLine.tab;
    const QCommandLineOption& setup = commandLine.setup;
    const QCommandLineOption& lesson = commandLine.lesson;
    const QCommandLineOption& task = commandLine.task;

    int code = 0;
    {
        attnlab::MainWindow window;
        window.show();
        if (parser.isSet(task) && !window.switchTask(parser.value(task))) {
            std::fprintf(stderr, "error: --task: unknown task '%s' (%s)\n", qPrintable(parser.value(task)),
                         qPrintable(attnlab::windowTaskList()));
            return 2;
        }
        if (parser.isSet(tab) && !window.showTab(parser.value(tab))) {
            std::fprintf(stderr, "warning: unknown tab '%s' (%s)\n", qPrintable(parser.value(tab)),
                         qPrintable(window.navigator()->allNames().join(QStringLiteral(", "))));
        }
        if (parser.isSet(setup) && !window.showSetupPage(parser.value(setup))) {
            std::fprintf(stderr, "warning: unknown setup page '%s'\n", qPrintable(parser.value(setup)));
        }
        if (parser.isSet(lesson) && (QFileInfo(parser.value(lesson)).isFile() ||
                                     parser.value(lesson).endsWith(QLatin1String(".json"), Qt::CaseInsensitive))) {
            // A lesson file: a broken one is one line naming the file and the field (exit 3).
            const QString path = QFileInfo(parser.value(lesson)).absoluteFilePath();
            try {
                attnlab::readLessonFile(path.toStdString());
            } catch (const std::exception& e) {
                std::fprintf(stderr, "error: %s\n", e.what());
                return 3;
            }
            if (!window.openLesson(path)) return 3;
        } else if (parser.isSet(lesson)) {
            if (!window.startLesson(parser.value(lesson))) {
                std::fprintf(stderr, "error: --lesson: unknown lesson '%s' (%s)\n", qPrintable(parser.value(lesson)),
                             qPrintable(lessonIds()));
                return 2;
            }
        } else if (parser.isSet(demo)) {
            if (!window.startDemo(parser.value(demo))) {
                std::fprintf(stderr, "error: --demo: no task has a demo on '%s'\n", qPrintable(parser.value(demo)));
                return 2;
            }
        } else if (!parser.positionalArguments().isEmpty()) {
            window.openFiles({QFileInfo(parser.positionalArguments().constFirst()).absoluteFilePath()});
        }
        if (parser.isSet(commandLine.paintAndQuit)) {
            // bench/run-benchmarks.sh's cold-start figure is the wall time until the window has
            // painted once.
            QTimer::singleShot(0, &window, [&window] {
                window.repaint();
                QApplication::quit();
            });
        }
        code = QApplication::exec();
    }  // the window (and its training thread) is gone before the process ends
    if (attnlab::anyThreadAbandoned()) {
        // A worker did not stop in time; static destructors must not run under it.
        std::fflush(nullptr);
        std::_Exit(code);
    }
    return code;
}
