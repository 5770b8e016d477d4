// The soak test: the real main window runs for a long time while a script uses it as a learner
// would. By default it cycles through every task of the window in turn (the registry's tasks, in
// Task box order), a few minutes each: each phase starts one of that task's lessons
// (MainWindow::startLesson; its lessons in turn over the cycles) or switches task and presses Start,
// often while the previous task still trains, and switches lesson again half-way through; meanwhile
// the task's first Watch view is used every second (a sentence typed into its text box, another item
// picked in its list, its slider moved) and one of the task's views is exported every minute (PNG,
// SVG, PDF in turn) through the window's export path. It reports the resident
// memory over time (and its slopes after the warm-up), the event-loop gaps, every failed
// prediction, export or error dialog, and per task what was asked, answered, exported and trained.
// --translation-only keeps the original soak (GRU + additive on toy-en-fr, one long run).
// Scripted, not part of the test suite: see bench/run-soak.sh.
#include "Stats.h"
#include "engine/Runtime.h"
#include "engine/translation/TranslationTrainer.h"
#include "session/LessonCard.h"
#include "session/ModelSession.h"
#include "task/Task.h"
#include "task/translate/DataPanel.h"  // --translation-only sets translation up through its panels
#include "task/translate/ModelSettingsWidget.h"
#include "task/translate/TrainingSettingsWidget.h"
#include "task/translate/TranslationTask.h"
#include "views/View.h"
#include "views/ViewNavigator.h"
#include "views/translate/ProbeView.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <cctype>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <malloc.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace attnlab;

using attnlab::bench::percentile;

namespace {

// Resident memory from /proc/self/status, MB: all of it, the anonymous part (heap, stacks,
// everything the process allocates) and the file-backed part (pages of the program and its
// libraries, read in as code paths run for the first time: shared, clean, and not
// something a leak can grow).
struct Resident {
    double total = 0, anonymous = 0, file = 0;
};

Resident residentMegabytes() {
    std::ifstream status("/proc/self/status");
    Resident r;
    std::string key;
    double kb = 0;
    while (status >> key) {
        if (key == "VmRSS:" || key == "RssAnon:" || key == "RssFile:") {
            status >> kb;
            (key == "VmRSS:" ? r.total : key == "RssAnon:" ? r.anonymous : r.file) = kb / 1024.0;
        }
        status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return r;
}

// The main arena (the GUI thread's heap; the training worker allocates from an arena of its own)
// from glibc's malloc_info, and the resident part of its [heap] mapping from /proc/self/smaps, MB:
// if the resident size grows while the arena's in-use bytes do not, the growth is free memory the
// allocator cannot give back (fragmentation), not objects that pile up.
struct MainArena {
    double resident = 0, inUse = 0, freeSmall = 0;  // freeSmall: free in chunks under a page
};

MainArena mainArena() {
    MainArena a;
    char* text = nullptr;
    std::size_t size = 0;
    if (FILE* f = open_memstream(&text, &size)) {
        malloc_info(0, f);
        std::fclose(f);
        const std::string xml(text, size);
        std::free(text);
        const std::size_t end = xml.find("</heap>");
        const std::string heap0 = xml.substr(0, end);
        auto attribute = [](const std::string& tag, const char* name) {
            const std::size_t at = tag.find(std::string(name) + "=\"");
            return at == std::string::npos ? 0.0 : std::atof(tag.c_str() + at + std::strlen(name) + 2);
        };
        double freeBytes = 0, system = 0;
        for (std::size_t at = heap0.find('<'); at != std::string::npos; at = heap0.find('<', at + 1)) {
            const std::string tag = heap0.substr(at, heap0.find('>', at) - at);
            if (tag.rfind("<size ", 0) == 0 && attribute(tag, "to") < 4096) a.freeSmall += attribute(tag, "total");
            if (tag.rfind("<total type=\"fast\"", 0) == 0 || tag.rfind("<total type=\"rest\"", 0) == 0)
                freeBytes += attribute(tag, "size");
            if (tag.rfind("<system type=\"current\"", 0) == 0) system = attribute(tag, "size");
        }
        a.inUse = (system - freeBytes) / (1024.0 * 1024.0);
        a.freeSmall /= 1024.0 * 1024.0;
    }
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inHeap = false;
    while (std::getline(smaps, line)) {
        if (line.size() > 6 && line.compare(line.size() - 6, 6, "[heap]") == 0) inHeap = true;
        else if (inHeap && line.rfind("Rss:", 0) == 0) {
            a.resident = std::atof(line.c_str() + 4) / 1024.0;
            break;
        }
    }
    return a;
}

// The anonymous mappings outside the main heap, from /proc/self/smaps, MB resident: the other
// threads' malloc arenas (glibc maps each arena's heaps as 64 MB-aligned regions of 64 MB)
// and the rest (large malloc blocks, thread stacks, the BLAS buffers, LibTorch's own mappings).
// And the number of threads (/proc/self/status): a worker that is not joined stays counted.
struct AnonymousSplit {
    double arenas = 0, other = 0;
    int arenaHeaps = 0, threads = 0;
};

AnonymousSplit anonymousSplit() {
    AnonymousSplit a;
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool anonymous = false, arena = false;
    constexpr unsigned long long kHeapSize = 64ull << 20;
    while (std::getline(smaps, line)) {
        const std::size_t dash = line.find('-');
        const std::size_t space = line.find(' ');
        if (dash != std::string::npos && space != std::string::npos && dash < space &&
            std::isxdigit(static_cast<unsigned char>(line[0])) && line.find(':') > space) {
            // "start-end perms offset dev inode [path]"
            const unsigned long long start = std::strtoull(line.c_str(), nullptr, 16);
            std::string fields[6];
            std::size_t at = 0;
            for (int f = 0; f < 6 && at != std::string::npos; ++f) {
                const std::size_t from = line.find_first_not_of(' ', at);
                if (from == std::string::npos) break;
                at = f < 5 ? line.find(' ', from) : std::string::npos;
                fields[f] = line.substr(from, at == std::string::npos ? std::string::npos : at - from);
            }
            anonymous = fields[4] == "0" && (fields[5].empty() || fields[5].rfind("[anon", 0) == 0);
            // Adjacent heaps with the same permissions show as one mapping: aligned start, any size.
            arena = anonymous && start % kHeapSize == 0;
            if (arena && fields[1].rfind("rw", 0) == 0) ++a.arenaHeaps;
        } else if (anonymous && line.rfind("Rss:", 0) == 0) {
            (arena ? a.arenas : a.other) += std::atof(line.c_str() + 4) / 1024.0;
        }
    }
    std::ifstream status("/proc/self/status");
    while (std::getline(status, line))
        if (line.rfind("Threads:", 0) == 0) a.threads = std::atoi(line.c_str() + 8);
    return a;
}

// Least-squares slope of y against x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
    const double n = static_cast<double>(x.size());
    if (x.size() < 2) return 0.0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    const double d = n * sxx - sx * sx;
    return d == 0 ? 0.0 : (n * sxy - sx * sy) / d;
}

// Key presses as a user's typing produces them, through the normal event path: select all, delete,
// type, Return.
void typeInto(QWidget* widget, const QString& text) {
    if (auto* edit = qobject_cast<QLineEdit*>(widget)) edit->selectAll();
    QKeyEvent del(QEvent::KeyPress, Qt::Key_Backspace, Qt::NoModifier);
    QCoreApplication::sendEvent(widget, &del);
    for (const QChar c : text) {
        QKeyEvent press(QEvent::KeyPress, 0, Qt::NoModifier, QString(c));
        QCoreApplication::sendEvent(widget, &press);
        QKeyEvent release(QEvent::KeyRelease, 0, Qt::NoModifier, QString(c));
        QCoreApplication::sendEvent(widget, &release);
    }
    QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
    QCoreApplication::sendEvent(widget, &enter);
}

// Whether a written file starts as its format says (PNG signature, an SVG document, a PDF header).
bool looksLikeFormat(const QString& path, const QString& suffix) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    const QByteArray head = f.read(512);
    if (suffix == QLatin1String("png")) return head.startsWith("\x89PNG\r\n\x1a\n");
    if (suffix == QLatin1String("pdf")) return head.startsWith("%PDF-");
    if (suffix == QLatin1String("svg")) return head.contains("<svg") || head.contains("<?xml");
    return !head.isEmpty();
}

// A user's hand on a view: a sentence typed into its first text box, else another item picked in
// its first list, else its first slider moved. False if the view has none of them enabled.
bool pokeView(QWidget* view, int n, const QStringList& sentences) {
    auto usable = [](QWidget* w) { return w->isVisible() && w->isEnabled(); };
    for (QLineEdit* edit : view->findChildren<QLineEdit*>()) {
        if (!usable(edit) || edit->isReadOnly() || qobject_cast<QSpinBox*>(edit->parentWidget())) continue;
        typeInto(edit, sentences[n % sentences.size()]);
        return true;
    }
    for (QListWidget* list : view->findChildren<QListWidget*>()) {
        if (!usable(list) || list->count() < 2) continue;
        list->setCurrentRow((std::max(0, list->currentRow()) + 1 + n % 5) % list->count());
        return true;
    }
    for (QSlider* slider : view->findChildren<QSlider*>()) {
        if (!usable(slider) || slider->maximum() <= slider->minimum()) continue;
        const int range = slider->maximum() - slider->minimum() + 1;
        int at = slider->minimum() + (n * 37) % range;
        if (at == slider->value()) at = at == slider->maximum() ? slider->minimum() : at + 1;
        slider->setValue(at);
        return true;
    }
    return false;
}

// What happened to each task over the run.
struct Counts {
    int phases = 0;
    int lessonStarts = 0, lessonStartsWhileTraining = 0;  // while this task's own run was still going
    int trainPresses = 0, stopsBeforeTrain = 0;            // Train pressed after a plain task switch
    int switchesAwayWhileTraining = 0;                     // the next phase began while this one trained
    double longestStopMs = 0;                              // Stop pressed -> the task idle (its worker joined)
    int asked = 0, answered = 0, failed = 0;               // predictions the script asked / answers / failures
    int exports = 0, failedExports = 0, skippedExports = 0;
    int epochs = 0, trainingFailures = 0;
    double memoryDeltaMb = 0, anonDeltaMb = 0, arenaInUseDeltaMb = 0;  // summed over the phases after the warm-up
    int memoryPhases = 0;
};

struct Snapshot {
    double minutes = 0;
    Resident resident;
    MainArena arena;
};

Snapshot snapshot(double minutes) { return Snapshot{minutes, residentMegabytes(), mainArena()}; }

int qtWarnings = 0;
QtMessageHandler previousHandler = nullptr;

void countWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type == QtWarningMsg || type == QtCriticalMsg) {
        ++qtWarnings;
        if (qtWarnings > 20) return;  // the first few are printed
    }
    if (previousHandler != nullptr) previousHandler(type, context, message);
}

void usage() {
    std::fprintf(stderr,
                 "Usage: attnlab-soak [--minutes M] [--phase-minutes P] [--warmup-minutes W] [--out DIR] [--translation-only]\n"
                 "                    [--no-teardown]\n"
                 "Drives the main window for M minutes (default 30): every task in turn, P minutes each\n"
                 "(default 2; translation, classification, ViT, captioner, forecasting), each phase a lesson\n"
                 "or a task switch and Train, half-way a lesson switch, a prediction asked every second and\n"
                 "an export of the view shown every minute into DIR (default: a temporary folder).\n"
                 "--warmup-minutes W: the slopes after the warm-up leave out the first W minutes (default: the\n"
                 "first cycle when the run holds two, else the first five minutes or a third of the run).\n"
                 "--translation-only: the original soak, GRU + additive on toy-en-fr for the whole run.\n"
                 "Writes DIR/soak-memory.csv and DIR/soak-phases.csv and prints a summary.\n"
                 "--no-teardown exits without destroying the window, so that a heap profiler reports\n"
                 "everything still allocated at the end (diff a short and a long run to see what grows).\n");
}

}  // namespace

int main(int argc, char* argv[]) {
    attnlab::tuneAllocator();  // before any thread allocates
    double minutes = 30.0, phaseMinutes = 2.0, warmupOption = -1.0;
    QString outDir;
    bool teardown = true, translationOnly = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--minutes" && i + 1 < argc) {
            minutes = std::atof(argv[++i]);
        } else if (arg == "--phase-minutes" && i + 1 < argc) {
            phaseMinutes = std::atof(argv[++i]);
        } else if (arg == "--warmup-minutes" && i + 1 < argc) {
            warmupOption = std::atof(argv[++i]);
            if (!(warmupOption >= 0)) {
                std::fprintf(stderr, "error: --warmup-minutes must be 0 or more\n");
                return 2;
            }
        } else if (arg == "--out" && i + 1 < argc) {
            outDir = QString::fromLocal8Bit(argv[++i]);
        } else if (arg == "--no-teardown") {
            teardown = false;
        } else if (arg == "--translation-only") {
            translationOnly = true;
        } else {
            usage();
            return 2;
        }
    }
    if (!(minutes > 0) || !(phaseMinutes > 0)) {
        std::fprintf(stderr, "error: --minutes and --phase-minutes must be positive\n");
        return 2;
    }
    preferFastBlasKernels(argv);
    QApplication app(argc, argv);
    previousHandler = qInstallMessageHandler(countWarnings);
    QApplication::setOrganizationName(QStringLiteral("AttnLab-soak"));  // leave the user's settings alone
    if (outDir.isEmpty()) outDir = QDir::temp().filePath(QStringLiteral("attnlab-soak-%1").arg(getpid()));
    if (!QDir().mkpath(outDir)) {
        std::fprintf(stderr, "error: %s: cannot create the folder\n", qPrintable(outDir));
        return 1;
    }

    MainWindow window;
    int errors = 0;
    window.setErrorReporter([&](const QString& title, const QString& message) {
        ++errors;
        std::fprintf(stderr, "error dialog: %s: %s\n", qPrintable(title), qPrintable(message));
    });
    window.setPrompt([](const QString&, const QString&, QMessageBox::StandardButtons) { return QMessageBox::Discard; });
    window.resize(1400, 900);
    window.show();

    // The window's tasks, from the registry (task/BuiltinTasks.h), in Task box order.
    const std::vector<Task*> tasks(window.tasks().begin(), window.tasks().end());
    auto* translation = window.task<TranslationTask>();  // --translation-only's
    if (tasks.empty() || (translationOnly && translation == nullptr)) {
        std::fprintf(stderr, "error: the window has %s\n", tasks.empty() ? "no task" : "no translation task");
        return 1;
    }
    const std::size_t kinds = tasks.size();
    std::vector<std::string> names;
    std::vector<ModelSession*> sessions;
    for (Task* t : tasks) {
        names.push_back(t->id().toStdString());
        sessions.push_back(t->modelSession());
        if (sessions.back() == nullptr) {
            std::fprintf(stderr, "error: the task %s has no model session\n", names.back().c_str());
            return 1;
        }
    }
    const std::size_t translationKind =
        static_cast<std::size_t>(std::find(tasks.begin(), tasks.end(), static_cast<Task*>(translation)) - tasks.begin());
    std::vector<Counts> counts(kinds);

    QElapsedTimer clock;
    clock.start();
    auto nowMinutes = [&] { return static_cast<double>(clock.elapsed()) / 60000.0; };
    const double totalMs = minutes * 60000.0;

    // ---- what the tasks answer --------------------------------------------------------------------
    // Every session's answers and failures (ModelSession's signals); its epochs, from its count.
    std::vector<int> epochsSeen(kinds, 0);
    for (std::size_t k = 0; k < kinds; ++k) {
        ModelSession* s = sessions[k];
        QObject::connect(s, &ModelSession::requestAnswered, [&, k](quint64) { ++counts[k].answered; });
        QObject::connect(s, &ModelSession::requestFailed, [&, k](quint64, const QString& m) {
            ++counts[k].failed;
            std::fprintf(stderr, "%.2f min: %s request failed: %s\n", nowMinutes(), names[k].c_str(), qPrintable(m));
        });
        auto jobFailed = [&, k](const QString& m) {
            ++counts[k].trainingFailures;
            std::fprintf(stderr, "%.2f min: %s job failed: %s\n", nowMinutes(), names[k].c_str(), qPrintable(m));
        };
        QObject::connect(s, &ModelSession::trainingFailed, jobFailed);
        QObject::connect(s, &ModelSession::openFailed, jobFailed);
        QObject::connect(s, &ModelSession::saveFailed, jobFailed);
    }
    QTimer epochWatch;
    QObject::connect(&epochWatch, &QTimer::timeout, [&] {
        for (std::size_t k = 0; k < kinds; ++k) {
            const int e = sessions[k]->completedEpochs();
            if (e > epochsSeen[k]) counts[k].epochs += e - epochsSeen[k];
            epochsSeen[k] = e;  // a new run starts again from 0
        }
    });
    epochWatch.start(200);

    // A message box or any other dialog that opens (none should: errors go to the reporter above and
    // questions to the prompt): counted, printed and closed.
    int dialogs = 0;
    QTimer dialogWatch;
    QObject::connect(&dialogWatch, &QTimer::timeout, [&] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            auto* dialog = qobject_cast<QDialog*>(w);
            if (dialog == nullptr || !dialog->isVisible()) continue;
            ++dialogs;
            const auto* box = qobject_cast<QMessageBox*>(dialog);
            std::fprintf(stderr, "%.2f min: dialog shown: %s: %s\n", nowMinutes(), qPrintable(dialog->windowTitle()),
                         box ? qPrintable(box->text()) : "");
            dialog->reject();
        }
    });
    dialogWatch.start(250);

    // ---- the event-loop gaps ------------------------------------------------------------------------
    // Room for every gap, written (zeros) now: a reserved but untouched buffer would become resident
    // page by page as the samples arrive (~6 MB per hour), which the memory slope below would then
    // count against the application.
    std::vector<double> gapBuffer(static_cast<std::size_t>(totalMs / 5) + 100000, 0.0);
    std::size_t gapCount = 0;
    qint64 last = clock.nsecsElapsed();
    // An export runs on the GUI thread (the user clicked and waits for the file); the gap that
    // contains one is reported on its own, not as a stutter while training. The gap that contains a
    // lesson start or a task switch stays among the others, and its longest is reported too.
    qint64 exportEnd = -1, switchEnd = -1;
    double longestExportGap = 0.0, longestSwitchGap = 0.0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const double gap = static_cast<double>(now - last) / 1e6;
        if (last <= switchEnd) longestSwitchGap = std::max(longestSwitchGap, gap);
        if (last <= exportEnd) longestExportGap = std::max(longestExportGap, gap);
        else if (gapCount < gapBuffer.size()) gapBuffer[gapCount++] = gap;
        last = now;
    });
    probe.start(5);

    // ---- the phases ---------------------------------------------------------------------------------
    const qint64 phaseMs = static_cast<qint64>(phaseMinutes * 60000.0);
    const int phasesPerCycle = translationOnly ? 1 : static_cast<int>(kinds);
    // The warm-up: the first cycle (every task has made its data, model and views once) when the run
    // holds two cycles or more, else as before the first five minutes (a third of a short run).
    // --warmup-minutes replaces it (a long run whose memory settles after a few cycles).
    const double warmupMinutes = warmupOption >= 0 ? std::min(warmupOption, minutes * 0.9)
                                 : !translationOnly && minutes >= 2.0 * phasesPerCycle * phaseMinutes
                                     ? phasesPerCycle * phaseMinutes
                                     : std::min(5.0, minutes / 3.0);
    int phaseNumber = -1, kind = translationOnly ? static_cast<int>(translationKind) : 0, cycle = 0;
    int pendingTrain = -1, stuckStops = 0, lessonRefusals = 0;
    QElapsedTimer stopClock;
    std::vector<Snapshot> phaseStart;  // memory when each phase began
    std::vector<int> phaseKind;
    std::ofstream phaseCsv(QDir(outDir).filePath(QStringLiteral("soak-phases.csv")).toStdString());
    phaseCsv << "phase,cycle,task,start_minutes,how,task_was_training,previous_still_training,rss_mb,rss_anon_mb,rss_file_mb,"
                "main_heap_rss_mb,main_arena_in_use_mb\n";

    // The window's Stop (when a run can stop); a task busy otherwise (loading) ends on its own.
    auto stopTask = [&](int k) {
        Task* task = tasks[static_cast<std::size_t>(k)];
        if (task->runState().stop) task->run(RunCommand::Stop);
    };
    // Start as the window's Run menu does it, with the task's current setup.
    auto pressTrain = [&](int k) {
        ++counts[static_cast<std::size_t>(k)].trainPresses;
        tasks[static_cast<std::size_t>(k)]->run(RunCommand::Start);
    };
    // A task switch and Train: a run of the task that still goes is stopped first (the worker
    // finishes its batch and the task becomes idle), as the Stop button does.
    auto userTrain = [&](int k) {
        if (tasks[static_cast<std::size_t>(k)]->isBusy()) {
            ++counts[static_cast<std::size_t>(k)].stopsBeforeTrain;
            stopTask(k);
            pendingTrain = k;
            stopClock.restart();
            return;
        }
        pressTrain(k);
    };
    QTimer pendingWatch;
    QObject::connect(&pendingWatch, &QTimer::timeout, [&] {
        if (pendingTrain < 0 || tasks[static_cast<std::size_t>(pendingTrain)]->isBusy()) return;
        Counts& c = counts[static_cast<std::size_t>(pendingTrain)];
        c.longestStopMs = std::max(c.longestStopMs, static_cast<double>(stopClock.elapsed()));
        const int k = pendingTrain;
        pendingTrain = -1;
        pressTrain(k);
    });
    pendingWatch.start(20);

    // The task's lessons in turn: the n-th (from the registry's cards, as the Lessons menu lists them).
    auto lessonOf = [&](int k, int n) {
        const QList<LessonCard> cards = tasks[static_cast<std::size_t>(k)]->lessons();
        return cards.isEmpty() ? QString() : cards[n % cards.size()].id;
    };
    auto startLesson = [&](const QString& id) {
        Counts& c = counts[static_cast<std::size_t>(kind)];
        ++c.lessonStarts;
        if (tasks[static_cast<std::size_t>(kind)]->isBusy()) ++c.lessonStartsWhileTraining;
        if (!window.startLesson(id)) {
            ++lessonRefusals;
            std::fprintf(stderr, "%.2f min: lesson %s was not started\n", nowMinutes(), qPrintable(id));
        }
        switchEnd = clock.nsecsElapsed();
    };
    auto addPhaseMemory = [&](const Snapshot& now) {
        if (phaseStart.empty()) return;
        const Snapshot& begun = phaseStart.back();
        if (begun.minutes < warmupMinutes) return;
        Counts& c = counts[static_cast<std::size_t>(phaseKind.back())];
        c.memoryDeltaMb += now.resident.total - begun.resident.total;
        c.anonDeltaMb += now.resident.anonymous - begun.resident.anonymous;
        c.arenaInUseDeltaMb += now.arena.inUse - begun.arena.inUse;
        ++c.memoryPhases;
    };
    QTimer midPhase;
    midPhase.setSingleShot(true);
    QObject::connect(&midPhase, &QTimer::timeout, [&] {
        // Half-way: a lesson switch inside the task, usually while it still trains (its worker is
        // stopped and the model dropped), in every other cycle; translation goes on to another lesson.
        if (tasks[static_cast<std::size_t>(kind)]->lessons().isEmpty()) return;
        if (cycle % 2 == 0) startLesson(lessonOf(kind, cycle / 2 + 1));
        else if (tasks[static_cast<std::size_t>(kind)]->lessons().size() > 1) startLesson(lessonOf(kind, cycle / 2 + 2));
    });
    auto beginPhase = [&] {
        const Snapshot now = snapshot(nowMinutes());
        addPhaseMemory(now);
        if (pendingTrain >= 0) {
            ++stuckStops;
            std::fprintf(stderr, "%.2f min: %s did not become idle within its phase after Stop\n", now.minutes,
                         names[static_cast<std::size_t>(pendingTrain)].c_str());
            pendingTrain = -1;
        }
        const int previous = kind;
        ++phaseNumber;
        kind = translationOnly ? static_cast<int>(translationKind) : phaseNumber % static_cast<int>(kinds);
        cycle = phaseNumber / phasesPerCycle;
        const bool previousTraining = phaseNumber > 0 && tasks[static_cast<std::size_t>(previous)]->isBusy();
        if (previousTraining && previous != kind) ++counts[static_cast<std::size_t>(previous)].switchesAwayWhileTraining;
        Counts& c = counts[static_cast<std::size_t>(kind)];
        ++c.phases;
        const bool ownTraining = tasks[static_cast<std::size_t>(kind)]->isBusy();
        const bool byLesson = cycle % 2 == 0 && !tasks[static_cast<std::size_t>(kind)]->lessons().isEmpty();
        if (byLesson) {
            startLesson(lessonOf(kind, cycle / 2));
        } else {
            window.switchTask(tasks[static_cast<std::size_t>(kind)]->id());
            userTrain(kind);
            switchEnd = clock.nsecsElapsed();
        }
        phaseStart.push_back(now);
        phaseKind.push_back(kind);
        phaseCsv << phaseNumber << ',' << cycle << ',' << names[static_cast<std::size_t>(kind)].c_str() << ',' << now.minutes << ','
                 << (byLesson ? "lesson" : "switch+train") << ',' << (ownTraining ? 1 : 0) << ',' << (previousTraining ? 1 : 0)
                 << ',' << now.resident.total << ',' << now.resident.anonymous << ',' << now.resident.file << ','
                 << now.arena.resident << ',' << now.arena.inUse << '\n';
        phaseCsv.flush();
        std::printf("%6.2f min: phase %d (cycle %d) %s by %s%s%s\n", now.minutes, phaseNumber, cycle,
                    names[static_cast<std::size_t>(kind)].c_str(), byLesson ? "lesson" : "task switch and Train",
                    ownTraining ? ", the task still training" : "", previousTraining ? ", the previous task still training" : "");
        std::fflush(stdout);
        midPhase.start(static_cast<int>(phaseMs / 2));
    };

    if (translationOnly) {
        // The original soak: GRU + additive on toy-en-fr, with enough epochs to outlast it; the probe
        // follows every 5 batches as in the demo. Set up through the panels, as a user would.
        phaseNumber = 0;
        kind = static_cast<int>(translationKind);
        counts[translationKind].phases = 1;
        phaseStart.push_back(snapshot(0.0));
        phaseKind.push_back(kind);
        DatasetOptions data;
        data.size = 2000;
        data.seed = 1;
        translation->dataPanel()->setDatasetSource(CorpusSource::builtin(QStringLiteral("toy-en-fr"), data));
        ModelConfig config;
        config.architecture = Architecture::Gru;
        config.attention = AttentionKind::Additive;
        config.hidden = 128;
        translation->modelSettings()->setConfig(config);
        TranslationTrainingOptions options = translation->trainingSettings()->options();
        options.epochs = 10000;
        options.seed = 1;
        translation->trainingSettings()->setOptions(options);
        translation->probeView()->setEveryBatches(5);
        translation->probeView()->setSentence(QStringLiteral("the small cat sees the red car"));
        auto started = std::make_shared<bool>(false);
        QObject::connect(translation, &TranslationTask::corpusLoaded, [&, started] {
            if (!*started) translation->startTraining();
            *started = true;
        });
        translation->loadCorpus(translation->dataPanel()->datasetSource());
    } else {
        beginPhase();
    }
    QTimer phaseTimer;
    QObject::connect(&phaseTimer, &QTimer::timeout, beginPhase);
    if (!translationOnly) phaseTimer.start(static_cast<int>(phaseMs));

    // ---- a prediction asked every second ------------------------------------------------------------
    const QStringList fallbackSentences{QStringLiteral("the cat sees the red car"), QStringLiteral("my mother likes the big dog"),
                                        QStringLiteral("the small girl reads a book"), QStringLiteral("the boy eats the green apple")};
    // The exporter's processEvents() can run a due typist tick, which would switch back to the typing
    // view before the export: the typist waits while an export is under way.
    bool exporting = false;
    int typed = 0;
    QTimer typist;
    QObject::connect(&typist, &QTimer::timeout, [&] {
        if (exporting) return;
        const std::size_t k = static_cast<std::size_t>(kind);
        Task* task = tasks[k];
        if (window.currentTask() != task || !task->hasModel()) return;
        // The task's first Watch view (Translate, Classify, Image, Forecast: where a learner tries the model).
        QString watch = task->defaultView();
        for (const QString& name : window.navigator()->names()) {
            if (window.navigator()->groupTitleOf(name) != ViewNavigator::groupTitle(ViewGroup::Watch)) continue;
            watch = name;
            break;
        }
        if (window.currentTabName() != watch) window.showTab(watch);
        QWidget* view = window.navigator()->currentWidget();
        if (view == nullptr || !pokeView(view, typed++, fallbackSentences)) return;
        ++counts[k].asked;
    });
    typist.start(1000);

    // ---- an export every minute ---------------------------------------------------------------------
    std::vector<int> exportTurn(kinds, 0);
    int exportsTried = 0;
    std::ofstream exportCsv(QDir(outDir).filePath(QStringLiteral("soak-exports.csv")).toStdString());
    exportCsv << "minutes,task,view,format,ms,bytes,ok\n";
    double slowestExportMs = 0;
    QString slowestExport;
    QTimer exporter;
    auto exportNow = [&] {
        const std::size_t k = static_cast<std::size_t>(kind);
        Counts& c = counts[k];
        QStringList views;  // the task's views, as the navigator lists them
        for (const QString& name : window.navigator()->allNames())
            if (window.navigator()->taskOf(name) == tasks[k]->id()) views << name;
        if (views.isEmpty()) return;
        const QString tab = views[exportTurn[k]++ % views.size()];
        const QStringList suffixes = translationOnly ? QStringList{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("png"), QStringLiteral("pdf")}
                                                     : QStringList{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
        const QString suffix = suffixes[exportsTried % suffixes.size()];
        const int n = exportsTried++;
        exporting = true;
        window.showTab(tab);
        QApplication::processEvents();
        exporting = false;
        const QString path = QDir(outDir).filePath(QStringLiteral("export-%1-%2.%3").arg(n, 3, 10, QLatin1Char('0')).arg(tab, suffix));
        QString error;
        const View* shown = window.navigator()->currentView();
        if (window.currentTabName() != tab || shown == nullptr) {
            error = QStringLiteral("the %1 view was not shown").arg(tab);
        } else if (!shown->exportsFigure()) {
            // Export Image is disabled for a view with nothing to show yet (a model just rebuilt).
            ++c.skippedExports;
            std::fprintf(stderr, "%.2f min: export of %s skipped: the view has nothing to export yet\n", nowMinutes(), qPrintable(tab));
            exportEnd = clock.nsecsElapsed();
            return;
        } else {
            QElapsedTimer took;
            took.start();
            const bool written = window.exportCurrentView(path, 1.0, &error);
            const double ms = static_cast<double>(took.nsecsElapsed()) / 1e6;
            if (written) error = looksLikeFormat(path, suffix) ? QString() : QStringLiteral("the file is not a %1").arg(suffix.toUpper());
            else if (error.isEmpty()) error = QStringLiteral("unknown error");
            exportCsv << nowMinutes() << ',' << names[k].c_str() << ',' << tab.toStdString() << ',' << suffix.toStdString() << ',' << ms
                      << ',' << QFileInfo(path).size() << ',' << (error.isEmpty() ? 1 : 0) << '\n';
            exportCsv.flush();
            if (ms > slowestExportMs) {
                slowestExportMs = ms;
                slowestExport = QStringLiteral("%1 (%2, %3)").arg(QFileInfo(path).fileName()).arg(QFileInfo(path).size()).arg(names[k].c_str());
            }
        }
        if (error.isEmpty()) {
            ++c.exports;
        } else {
            ++c.failedExports;
            std::fprintf(stderr, "%.2f min: export %s failed: %s\n", nowMinutes(), qPrintable(path), qPrintable(error));
        }
        exportEnd = clock.nsecsElapsed();
    };
    QObject::connect(&exporter, &QTimer::timeout, exportNow);
    // The first export 40 s in, then every minute: not on a phase's first seconds (its model is
    // being rebuilt) when the phases last whole minutes.
    QTimer::singleShot(40000, &exporter, [&] {
        exporter.start(60000);
        exportNow();
    });

    // ---- memory samples -----------------------------------------------------------------------------
    std::vector<double> sampleMinutes, sampleMb, anonMb, fileMb, heapMb, mainResident, mainInUse, sampleLongestGap;
    std::vector<std::size_t> sampleGapIndex;
    std::vector<double> threadArenas, otherAnon;
    std::vector<int> threadCounts;
    std::ofstream csv(QDir(outDir).filePath(QStringLiteral("soak-memory.csv")).toStdString());
    // Heap in use (malloc'ed and not freed, all arenas) beside the resident size: if the heap stays
    // flat while the resident size grows, the growth is memory the allocator keeps, not a leak.
    csv << "minutes,rss_mb,rss_anon_mb,rss_file_mb,heap_in_use_mb,heap_free_mb,task,epochs,longest_gap_ms,"
           "main_heap_rss_mb,main_arena_in_use_mb,main_arena_free_small_mb,thread_arenas_rss_mb,thread_arena_mappings,"
           "other_anon_rss_mb,threads\n";
    std::size_t gapsSampled = 0;  // gaps up to the previous sample: each row reports the longest since
    auto totalEpochs = [&] {
        int e = 0;
        for (const Counts& c : counts) e += c.epochs;
        return e;
    };
    auto sample = [&] {
        const double t = nowMinutes();
        const Resident resident = residentMegabytes();
        const struct mallinfo2 info = mallinfo2();
        const double inUse = static_cast<double>(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
        const double freeMb = static_cast<double>(info.fordblks) / (1024.0 * 1024.0);
        const MainArena arena = mainArena();
        const AnonymousSplit split = anonymousSplit();
        const double longest = gapCount > gapsSampled ? *std::max_element(gapBuffer.begin() + static_cast<std::ptrdiff_t>(gapsSampled),
                                                                          gapBuffer.begin() + static_cast<std::ptrdiff_t>(gapCount))
                                                      : 0.0;
        mainResident.push_back(arena.resident);
        mainInUse.push_back(arena.inUse);
        sampleMinutes.push_back(t);
        sampleMb.push_back(resident.total);
        anonMb.push_back(resident.anonymous);
        fileMb.push_back(resident.file);
        heapMb.push_back(inUse);
        sampleLongestGap.push_back(longest);
        sampleGapIndex.push_back(gapCount);
        csv << t << ',' << resident.total << ',' << resident.anonymous << ',' << resident.file << ',' << inUse << ',' << freeMb << ','
            << names[static_cast<std::size_t>(kind)].c_str() << ',' << totalEpochs() << ',' << longest << ',' << arena.resident << ','
            << arena.inUse << ',' << arena.freeSmall << ',' << split.arenas << ',' << split.arenaHeaps << ',' << split.other << ','
            << split.threads << '\n';
        threadArenas.push_back(split.arenas);
        otherAnon.push_back(split.other);
        threadCounts.push_back(split.threads);
        gapsSampled = gapCount;
        csv.flush();
    };
    sample();
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, sample);
    sampler.start(10000);

    // The end: the script stops, then the window is closed as a user closes it (MainWindow::closeEvent:
    // every task is asked, the settings saved, every task's worker stopped and joined, bounded), timed.
    // The threads by name (/proc/self/task/*/comm), before and after.
    auto threadNames = [] {
        QStringList threads;
        for (const QString& id : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(id));
            if (comm.open(QIODevice::ReadOnly)) threads << QString::fromLocal8Bit(comm.readAll()).trimmed();
        }
        threads.sort();
        return threads.join(QLatin1Char(' '));
    };
    bool translationStillTraining = false;
    std::vector<bool> busyAtEnd(kinds, false);
    QString threadsBefore, threadsAfter;
    double closeMs = 0;
    bool closed = false;
    QTimer::singleShot(static_cast<int>(totalMs), &app, [&] {
        probe.stop();
        typist.stop();
        exporter.stop();
        sampler.stop();
        phaseTimer.stop();
        midPhase.stop();
        pendingWatch.stop();
        dialogWatch.stop();
        sample();
        addPhaseMemory(snapshot(nowMinutes()));
        epochWatch.stop();
        translationStillTraining = translation != nullptr && translation->session()->state() == TranslationSession::State::Running;
        for (std::size_t k = 0; k < kinds; ++k) busyAtEnd[k] = tasks[k]->isBusy();
        threadsBefore = threadNames();
        QElapsedTimer s;
        s.start();
        closed = window.close();
        closeMs = static_cast<double>(s.nsecsElapsed()) / 1e6;
        threadsAfter = threadNames();
        app.quit();
    });
    app.exec();
    const std::vector<double> gaps(gapBuffer.begin(), gapBuffer.begin() + static_cast<std::ptrdiff_t>(gapCount));
    bool shutDown = true;
    for (ModelSession* session : sessions) shutDown = shutDown && session->isShutDown();
    const bool abandoned = TranslationSession::hasAbandonedThreads();

    // ---- the report ---------------------------------------------------------------------------------
    std::vector<double> lateX, lateY, lateHeap, lateAnon, lateFile, lateMainResident, lateMainInUse;
    for (std::size_t i = 0; i < sampleMinutes.size(); ++i) {
        if (sampleMinutes[i] >= warmupMinutes) {
            lateX.push_back(sampleMinutes[i]);
            lateY.push_back(sampleMb[i]);
            lateHeap.push_back(heapMb[i]);
            lateAnon.push_back(anonMb[i]);
            lateFile.push_back(fileMb[i]);
            lateMainResident.push_back(mainResident[i]);
            lateMainInUse.push_back(mainInUse[i]);
        }
    }
    const double peak = *std::max_element(sampleMb.begin(), sampleMb.end());
    std::printf("\nsoak: %.1f minutes, %s, phases of %.1f minutes (%d phases, %d cycles begun), warm-up %.1f minutes\n",
                nowMinutes(), translationOnly ? "translation only" : "every task in turn", phaseMinutes, phaseNumber + 1,
                cycle + 1, warmupMinutes);
    int asked = 0, answered = 0, failed = 0, exported = 0, failedExports = 0, skipped = 0, trainingFailures = 0;
    std::printf("%-15s %6s %7s %7s %8s %8s %6s %7s %7s %7s %6s %7s %8s %8s %8s\n", "task", "phases", "lessons", "(train)",
                "switch+T", "stops/ms", "away", "asked", "answers", "failed", "export", "fail/sk", "epochs", "dRSS/ph", "dArena/ph");
    for (std::size_t k = 0; k < kinds; ++k) {
        const Counts& c = counts[k];
        if (c.phases == 0 && c.answered == 0) continue;
        asked += c.asked;
        answered += c.answered;
        failed += c.failed;
        exported += c.exports;
        failedExports += c.failedExports;
        skipped += c.skippedExports;
        trainingFailures += c.trainingFailures;
        const double n = std::max(1, c.memoryPhases);
        std::printf("%-15s %6d %7d %7d %8d %3d/%-4.0f %6d %7d %7d %7d %6d %3d/%-3d %8d %8.2f %8.2f\n", names[k].c_str(), c.phases,
                    c.lessonStarts, c.lessonStartsWhileTraining, c.trainPresses, c.stopsBeforeTrain, c.longestStopMs, c.switchesAwayWhileTraining,
                    c.asked, c.answered, c.failed, c.exports, c.failedExports, c.skippedExports, c.epochs, c.memoryDeltaMb / n,
                    c.arenaInUseDeltaMb / n);
    }
    std::printf("  (lessons: lesson starts, (train): of them while the task still trained; switch+T: Train pressed after a task\n"
                "   switch, stops/ms: of them found still training and stopped first, the longest wait from Stop to idle; away: the next phase began while it trained;\n"
                "   dRSS/ph, dArena/ph: mean change of resident memory and of the GUI heap in use over its phases after the warm-up, MB)\n");
    std::printf("predictions asked %d, answers %d, failed %d; exports written %d, failed %d, skipped %d; training failures %d;\n"
                "error reports %d, dialogs shown %d; lessons refused %d; stops that did not end within a phase %d; Qt warnings %d\n",
                asked, answered, failed, exported, failedExports, skipped, trainingFailures, errors, dialogs, lessonRefusals,
                stuckStops, qtWarnings);
    std::printf("at the end still training:");
    for (std::size_t k = 0; k < kinds; ++k)
        if (busyAtEnd[k]) std::printf(" %s", names[k].c_str());
    std::printf("; closing the window (every worker stopped and joined): %.1f ms, %s, every session shut down: %s, "
                "abandoned threads: %s\n  threads before: %s\n  threads after:  %s\n",
                closeMs, closed ? "closed" : "NOT closed", shutDown ? "yes" : "no", abandoned ? "yes" : "no", qPrintable(threadsBefore),
                qPrintable(threadsAfter));
    std::printf("resident memory: start %.1f MB, end %.1f MB, peak %.1f MB\n", sampleMb.front(), sampleMb.back(), peak);
    std::printf("memory slope: %.2f MB/hour over the run, %.2f MB/hour after the warm-up\n",
                slope(sampleMinutes, sampleMb) * 60.0, slope(lateX, lateY) * 60.0);
    std::printf("  of which anonymous: start %.1f MB, end %.1f MB, slope after the warm-up %.2f MB/hour\n", anonMb.front(),
                anonMb.back(), slope(lateX, lateAnon) * 60.0);
    std::printf("  of which file-backed (code pages): start %.1f MB, end %.1f MB, slope after the warm-up %.2f MB/hour\n",
                fileMb.front(), fileMb.back(), slope(lateX, lateFile) * 60.0);
    std::printf("heap in use: start %.1f MB, end %.1f MB; slope after the warm-up %.2f MB/hour\n", heapMb.front(), heapMb.back(),
                slope(lateX, lateHeap) * 60.0);
    std::printf("main arena (GUI thread): [heap] resident %.1f -> %.1f MB, slope %.2f MB/hour; in use %.1f -> %.1f MB, "
                "slope %.2f MB/hour (after the warm-up)\n",
                mainResident.front(), mainResident.back(), slope(lateX, lateMainResident) * 60.0, mainInUse.front(),
                mainInUse.back(), slope(lateX, lateMainInUse) * 60.0);
    {
        std::vector<double> lateArenas, lateOther;
        for (std::size_t i = 0; i < sampleMinutes.size(); ++i)
            if (sampleMinutes[i] >= warmupMinutes) {
                lateArenas.push_back(threadArenas[i]);
                lateOther.push_back(otherAnon[i]);
            }
        std::printf("other threads' malloc arenas resident %.1f -> %.1f MB, slope %.2f MB/hour; other anonymous mappings "
                    "%.1f -> %.1f MB, slope %.2f MB/hour (after the warm-up); threads %d at the start, %d at most, %d at the end\n",
                    threadArenas.front(), threadArenas.back(), slope(lateX, lateArenas) * 60.0, otherAnon.front(), otherAnon.back(),
                    slope(lateX, lateOther) * 60.0, threadCounts.front(), *std::max_element(threadCounts.begin(), threadCounts.end()),
                    threadCounts.back());
    }
    if (!translationOnly) {
        // The same moment of every cycle (its first phase begins): free of the swing within a cycle.
        std::vector<double> cx, cy, ca, cu;
        std::printf("at each cycle's start (MB: resident / anonymous / GUI heap in use):");
        for (std::size_t i = 0; i < phaseStart.size(); i += kinds) {
            std::printf(" %.1f/%.1f/%.1f", phaseStart[i].resident.total, phaseStart[i].resident.anonymous, phaseStart[i].arena.inUse);
            if (phaseStart[i].minutes >= warmupMinutes) {
                cx.push_back(phaseStart[i].minutes);
                cy.push_back(phaseStart[i].resident.total);
                ca.push_back(phaseStart[i].resident.anonymous);
                cu.push_back(phaseStart[i].arena.inUse);
            }
        }
        std::printf("\n  slope over the cycles' starts after the warm-up: resident %.2f, anonymous %.2f, GUI heap in use %.2f MB/hour (%zu cycles)\n",
                    slope(cx, cy) * 60.0, slope(cx, ca) * 60.0, slope(cx, cu) * 60.0, cx.size());
    }
    std::printf("event-loop gap (5 ms timer, outside exports): longest %.1f ms, 99th percentile %.1f ms, 99.9th %.1f ms\n",
                gaps.empty() ? 0.0 : *std::max_element(gaps.begin(), gaps.end()), percentile(gaps, 0.99), percentile(gaps, 0.999));
    std::printf("longest gap containing an export (tab switch and file written on the GUI thread): %.1f ms; slowest export "
                "%.1f ms: %s bytes\n",
                longestExportGap, slowestExportMs, qPrintable(slowestExport));
    std::printf("longest gap containing a lesson start or task switch: %.1f ms\n", longestSwitchGap);
    // Every 10 minutes: the gaps' longest and 99th percentile, and the mean of the longest per
    // 10-second sample (does the event loop slow down as the run goes on?).
    for (int block = 0; block * 10.0 < sampleMinutes.back(); ++block) {
        std::size_t from = gapCount, to = gapCount;
        double sumLongest = 0;
        int windows = 0;
        for (std::size_t i = 1; i < sampleMinutes.size(); ++i) {
            if (sampleMinutes[i] <= block * 10.0 || sampleMinutes[i] > (block + 1) * 10.0 + 1e-9) continue;
            from = std::min(from, sampleGapIndex[i - 1]);
            to = sampleGapIndex[i];
            sumLongest += sampleLongestGap[i];
            ++windows;
        }
        if (windows == 0 || to <= from) continue;
        const std::vector<double> part(gapBuffer.begin() + static_cast<std::ptrdiff_t>(from), gapBuffer.begin() + static_cast<std::ptrdiff_t>(to));
        std::printf("  minutes %3d-%-3d: longest gap %.1f ms, 99th percentile %.1f ms, mean longest per 10 s %.1f ms\n", block * 10,
                    (block + 1) * 10, *std::max_element(part.begin(), part.end()), percentile(part, 0.99), sumLongest / windows);
    }
    std::printf("memory samples, phases and exports: %s\n", qPrintable(QDir::toNativeSeparators(outDir)));
    bool ok = failed == 0 && failedExports == 0 && errors == 0 && dialogs == 0 && trainingFailures == 0 && !abandoned && closed &&
              shutDown;
    if (translationOnly) {
        ok = ok && counts[translationKind].answered >= counts[translationKind].asked - 2 && translationStillTraining;
    } else {
        ok = ok && lessonRefusals == 0 && stuckStops == 0;
        for (std::size_t k = 0; k < kinds; ++k)
            if (counts[k].phases > 0) ok = ok && counts[k].epochs > 0 && counts[k].answered > 0 && counts[k].exports > 0;
    }
    std::printf("soak %s\n", ok ? "passed" : "FAILED");
    std::fflush(stdout);
    if (!teardown) std::exit(ok ? 0 : 1);  // static destructors run; main's window and application are not destroyed
    return ok ? 0 : 1;
}
