// The soak test: the real main window trains for a long time while a script types a
// translation every second and exports a figure every minute. It reports the resident memory
// over time (and its slope), the event-loop gaps, and whether every request was answered.
// Scripted, not part of the test suite: see bench/run-soak.sh.
#include "Stats.h"
#include "engine/Runtime.h"
#include "engine/translation/Trainer.h"
#include "setup/DataPanel.h"
#include "task/translate/TranslationTask.h"
#include "window/MainWindow.h"
#include "setup/ModelSettingsWidget.h"
#include "views/translate/ProbeView.h"
#include "setup/TrainingSettingsWidget.h"
#include "views/translate/TranslateView.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <malloc.h>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

using namespace attnlab;

using attnlab::bench::percentile;

namespace {

TranslationTask& translation(MainWindow& w) { return *w.task<TranslationTask>(); }


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

// Key presses as a user's typing produces them, through the normal event path.
void typeInto(QWidget* widget, const QString& text) {
    for (const QChar c : text) {
        QKeyEvent press(QEvent::KeyPress, 0, Qt::NoModifier, QString(c));
        QCoreApplication::sendEvent(widget, &press);
        QKeyEvent release(QEvent::KeyRelease, 0, Qt::NoModifier, QString(c));
        QCoreApplication::sendEvent(widget, &release);
    }
    QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
    QCoreApplication::sendEvent(widget, &enter);
}

void usage() {
    std::fprintf(stderr,
                 "Usage: attnlab-soak [--minutes M] [--out DIR] [--no-teardown]\n"
                 "Trains toy-en-fr in the main window for M minutes (default 30), typing a translation\n"
                 "every second and exporting a figure every minute into DIR (default: a temporary folder).\n"
                 "Writes DIR/soak-memory.csv and prints a summary.\n"
                 "--no-teardown exits without destroying the window, so that a heap profiler reports\n"
                 "everything still allocated at the end (diff a short and a long run to see what grows).\n");
}

}  // namespace

int main(int argc, char* argv[]) {
    double minutes = 30.0;
    QString outDir;
    bool teardown = true;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--minutes" && i + 1 < argc) {
            minutes = std::atof(argv[++i]);
        } else if (arg == "--out" && i + 1 < argc) {
            outDir = QString::fromLocal8Bit(argv[++i]);
        } else if (arg == "--no-teardown") {
            teardown = false;
        } else {
            usage();
            return 2;
        }
    }
    if (!(minutes > 0)) {
        std::fprintf(stderr, "error: --minutes must be positive\n");
        return 2;
    }
    preferFastBlasKernels(argv);
    QApplication app(argc, argv);
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

    // GRU + additive on toy-en-fr, with enough epochs to outlast the soak; the probe follows every
    // 5 batches as in the demo. Set up through the panels, as a user would.
    DatasetOptions data;
    data.size = 2000;
    data.seed = 1;
    translation(window).dataPanel()->setDatasetSource(CorpusSource::builtin(QStringLiteral("toy-en-fr"), data));
    ModelConfig config;
    config.architecture = Architecture::Gru;
    config.attention = AttentionKind::Additive;
    config.hidden = 128;
    translation(window).modelSettings()->setConfig(config);
    TrainingOptions options = translation(window).trainingSettings()->options();
    options.epochs = 10000;
    options.seed = 1;
    translation(window).trainingSettings()->setOptions(options);
    translation(window).probeView()->setEveryBatches(5);
    translation(window).probeView()->setSentence(QStringLiteral("the small cat sees the red car"));
    bool started = false;
    QObject::connect(&translation(window), &TranslationTask::corpusLoaded, [&] {
        if (!started) translation(window).startTraining();
        started = true;
    });
    translation(window).loadCorpus(translation(window).dataPanel()->datasetSource());
    const double totalMs = minutes * 60000.0;

    QElapsedTimer clock;
    clock.start();
    // Room for every gap, written (zeros) now: a reserved but untouched buffer would become
    // resident page by page as the samples arrive (~6 MB per hour), which the memory slope
    // below would then count against the application.
    std::vector<double> gapBuffer(static_cast<std::size_t>(totalMs / 5) + 100000, 0.0);
    std::size_t gapCount = 0;
    qint64 last = clock.nsecsElapsed();
    // An export runs on the GUI thread (the user clicked and waits for the file); the gap that
    // contains one is reported on its own, not as a stutter while training.
    qint64 exportEnd = -1;
    double longestExportGap = 0.0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const double gap = static_cast<double>(now - last) / 1e6;
        if (last <= exportEnd) longestExportGap = std::max(longestExportGap, gap);
        else if (gapCount < gapBuffer.size()) gapBuffer[gapCount++] = gap;
        last = now;
    });
    probe.start(5);

    int requested = 0, answered = 0, failedTranslations = 0, exports = 0, failedExports = 0;
    QObject::connect(translation(window).controller(), &TrainingController::translated, [&](quint64, const Translation&) { ++answered; });
    QObject::connect(translation(window).controller(), &TrainingController::translationFailed, [&](quint64, const QString& m) {
        ++failedTranslations;
        std::fprintf(stderr, "translation failed: %s\n", qPrintable(m));
    });

    const QStringList sentences{QStringLiteral("the cat sees the red car"), QStringLiteral("my mother likes the big dog"),
                                QStringLiteral("the small girl reads a book"), QStringLiteral("the boy eats the green apple")};
    // The exporter's processEvents() can run a due typist tick, which would switch back to
    // Translate before the export: the typist waits while an export is under way.
    bool exporting = false;
    QTimer typist;
    QObject::connect(&typist, &QTimer::timeout, [&] {
        if (exporting) return;
        if (window.navigator()->currentWidget() != translation(window).translateView()) window.showTab(QStringLiteral("translate"));
        QLineEdit* input = translation(window).translateView()->input();
        input->selectAll();
        QKeyEvent del(QEvent::KeyPress, Qt::Key_Backspace, Qt::NoModifier);
        QCoreApplication::sendEvent(input, &del);
        typeInto(input, sentences[requested % sentences.size()]);
        ++requested;
    });
    typist.start(1000);

    const QStringList exportTabs{QStringLiteral("translate"), QStringLiteral("heads"), QStringLiteral("curves"),
                                 QStringLiteral("probe")};
    const QStringList exportSuffixes{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("png"),
                                     QStringLiteral("pdf")};
    QTimer exporter;
    QObject::connect(&exporter, &QTimer::timeout, [&] {
        const int k = exports + failedExports;
        const QString tab = exportTabs[k % exportTabs.size()];
        exporting = true;
        window.showTab(tab);
        QApplication::processEvents();
        exporting = false;
        const QString path = QDir(outDir).filePath(
            QStringLiteral("export-%1-%2.%3").arg(k, 3, 10, QLatin1Char('0')).arg(tab, exportSuffixes[k % exportSuffixes.size()]));
        QString error;
        if (window.currentTabName() != tab)
            error = QStringLiteral("the %1 tab was not shown").arg(tab);
        else if (window.exportCurrentView(path, 1.0, &error))
            error.clear();
        else if (error.isEmpty())
            error = QStringLiteral("unknown error");
        if (error.isEmpty()) {
            ++exports;
        } else {
            ++failedExports;
            std::fprintf(stderr, "export %s failed: %s\n", qPrintable(path), qPrintable(error));
        }
        exportEnd = clock.nsecsElapsed();
    });
    exporter.start(60000);

    std::vector<double> sampleMinutes, sampleMb, anonMb, fileMb;
    std::ofstream csv(QDir(outDir).filePath(QStringLiteral("soak-memory.csv")).toStdString());
    // Heap in use (malloc'ed and not freed, all arenas) beside the resident size: if the heap stays
    // flat while the resident size grows, the growth is memory the allocator keeps, not a leak.
    csv << "minutes,rss_mb,rss_anon_mb,rss_file_mb,heap_in_use_mb,heap_free_mb,epochs,batches,longest_gap_ms,"
           "main_heap_rss_mb,main_arena_in_use_mb,main_arena_free_small_mb\n";
    std::size_t gapsSampled = 0;  // gaps up to the previous sample: each row reports the longest since
    std::vector<double> heapMb, mainResident, mainInUse;
    auto sample = [&] {
        const double t = static_cast<double>(clock.elapsed()) / 60000.0;
        const Resident resident = residentMegabytes();
        const double mb = resident.total;
        const struct mallinfo2 info = mallinfo2();
        const double inUse = static_cast<double>(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
        const double free = static_cast<double>(info.fordblks) / (1024.0 * 1024.0);
        const MainArena arena = mainArena();
        mainResident.push_back(arena.resident);
        mainInUse.push_back(arena.inUse);
        sampleMinutes.push_back(t);
        sampleMb.push_back(mb);
        anonMb.push_back(resident.anonymous);
        fileMb.push_back(resident.file);
        heapMb.push_back(inUse);
        csv << t << ',' << mb << ',' << resident.anonymous << ',' << resident.file << ',' << inUse << ',' << free << ',' << translation(window).controller()->completedEpochs() << ','
            << translation(window).controller()->batchesTrained() << ','
            << (gapCount > gapsSampled ? *std::max_element(gapBuffer.begin() + static_cast<std::ptrdiff_t>(gapsSampled),
                                                           gapBuffer.begin() + static_cast<std::ptrdiff_t>(gapCount))
                                       : 0.0)
            << ',' << arena.resident << ',' << arena.inUse << ',' << arena.freeSmall << '\n';
        gapsSampled = gapCount;
        csv.flush();
    };
    sample();
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, sample);
    sampler.start(10000);

    QTimer::singleShot(static_cast<int>(totalMs), &app, [&] { app.quit(); });
    app.exec();
    sample();
    probe.stop();
    typist.stop();
    exporter.stop();
    sampler.stop();
    const std::vector<double> gaps(gapBuffer.begin(), gapBuffer.begin() + static_cast<std::ptrdiff_t>(gapCount));
    const int epochs = translation(window).controller()->completedEpochs();
    const long long batches = static_cast<long long>(translation(window).controller()->batchesTrained());
    const bool stillTraining = translation(window).controller()->state() == TrainingController::State::Running;
    translation(window).controller()->shutdown();

    // The slope over the whole run and after a five-minute warm-up (allocator pools, chart
    // series and caches fill up first).
    std::vector<double> lateX, lateY, lateHeap, lateAnon, lateFile, lateMainResident, lateMainInUse;
    for (std::size_t i = 0; i < sampleMinutes.size(); ++i) {
        if (sampleMinutes[i] >= std::min(5.0, minutes / 3.0)) {
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
    std::printf("soak: %.1f minutes, %d epochs, %lld batches, training still running at the end: %s\n",
                static_cast<double>(clock.elapsed()) / 60000.0, epochs, batches, stillTraining ? "yes" : "no");
    std::printf("translations typed %d, answered %d, failed %d; exports written %d, failed %d; error dialogs %d\n",
                requested, answered, failedTranslations, exports, failedExports, errors);
    std::printf("resident memory: start %.1f MB, end %.1f MB, peak %.1f MB\n", sampleMb.front(), sampleMb.back(), peak);
    std::printf("memory slope: %.2f MB/hour over the run, %.2f MB/hour after the warm-up\n",
                slope(sampleMinutes, sampleMb) * 60.0, slope(lateX, lateY) * 60.0);
    std::printf("  of which anonymous: start %.1f MB, end %.1f MB, slope after the warm-up %.2f MB/hour\n",
                anonMb.front(), anonMb.back(), slope(lateX, lateAnon) * 60.0);
    std::printf("  of which file-backed (code pages): start %.1f MB, end %.1f MB, slope after the warm-up %.2f MB/hour\n",
                fileMb.front(), fileMb.back(), slope(lateX, lateFile) * 60.0);
    std::printf("heap in use: start %.1f MB, end %.1f MB; slope after the warm-up %.2f MB/hour\n", heapMb.front(),
                heapMb.back(), slope(lateX, lateHeap) * 60.0);
    std::printf("main arena (GUI thread): [heap] resident %.1f -> %.1f MB, slope %.2f MB/hour; in use %.1f -> %.1f MB, "
                "slope %.2f MB/hour (after the warm-up)\n",
                mainResident.front(), mainResident.back(), slope(lateX, lateMainResident) * 60.0, mainInUse.front(),
                mainInUse.back(), slope(lateX, lateMainInUse) * 60.0);
    std::printf("event-loop gap (5 ms timer): longest %.1f ms, 99th percentile %.1f ms, 99.9th %.1f ms\n",
                gaps.empty() ? 0.0 : *std::max_element(gaps.begin(), gaps.end()), percentile(gaps, 0.99),
                percentile(gaps, 0.999));
    std::printf("longest gap containing an export (tab switch and file written on the GUI thread): %.1f ms\n",
                longestExportGap);
    std::printf("memory samples and exports: %s\n", qPrintable(QDir::toNativeSeparators(outDir)));
    const bool ok = failedTranslations == 0 && failedExports == 0 && errors == 0 && answered >= requested - 2 &&
                    stillTraining;
    if (!teardown) {
        std::fflush(stdout);
        std::exit(ok ? 0 : 1);  // static destructors run; main's window and application are not destroyed
    }
    return ok ? 0 : 1;
}
