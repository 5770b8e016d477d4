// What a user can get wrong or do to a run, as real processes: the window's own command line with
// no display, a file that is no model at all, an output path that cannot be written, and SIGKILL
// and SIGINT during every task's training and saving (docs/reliability.md).
#include "cli/CliSupport.h"

#include <csignal>

namespace {

using namespace attnlab::test::cli;

// Images and a corpus of the built-in datasets, written once for the file (the front end: fast).
struct Files {
    std::string glyphs = scratch().file("glyphs"), scenes = scratch().file("scenes");
    std::string corpus = scratch().file("pairs.tsv"), text = scratch().file("notes.txt");
    std::string glyph, scene;  // one image of each set
    Files() {
        const auto results = cliAll({{"datasets", "--write", "glyphs", "--size", "2", "--out", glyphs},
                                     {"datasets", "--write", "scenes", "--size", "1", "--out", scenes},
                                     {"datasets", "--write", "copy", "--size", "3", "--out", corpus}});
        for (const auto& r : results) REQUIRE(r.exitCode == 0);
        writeBytes(text, "Remember to train the model on Monday.\nAnd then export it.\n");
        for (const auto& entry : fs::recursive_directory_iterator(glyphs))
            if (entry.path().extension() == ".png") glyph = entry.path().string();
        for (const auto& entry : fs::recursive_directory_iterator(scenes))
            if (entry.path().extension() == ".png") scene = entry.path().string();
        REQUIRE(!glyph.empty());
        REQUIRE(!scene.empty());
    }
};

const Files& files() {
    static const Files f;
    return f;
}

// Runs every invocation of `program`, a few at a time; results in the order given.
std::vector<ProcessResult> runAll(const std::string& program, const std::vector<std::pair<Args, ProcessOptions>>& runs) {
    std::vector<ProcessResult> results(runs.size());
    for (std::size_t first = 0; first < runs.size(); first += 3) {
        std::vector<std::unique_ptr<ProcessRunner>> active;
        for (std::size_t i = first; i < std::min(first + 3, runs.size()); ++i) {
            active.push_back(std::make_unique<ProcessRunner>(program, runs[i].first, runs[i].second));
            active.back()->start();
        }
        for (std::size_t i = 0; i < active.size(); ++i) results[first + i] = active[i]->wait();
    }
    return results;
}

}  // namespace

// ---- the window's command line ----------------------------------------------------------------

#ifdef ATTNLAB_HAVE_RENDER

TEST_CASE("attnlab answers --help and --version with no display, and says how to get one for the window", "[cli]") {
    const std::string window = (fs::path(kCli).parent_path() / "attnlab").string();
    REQUIRE(fs::exists(window));
    // As on a server or in CI: no X11, no Wayland, Qt's default platform (QT_QPA_PLATFORM empty).
    ProcessOptions none = defaultOptions();
    none.environment["DISPLAY"] = std::nullopt;
    none.environment["WAYLAND_DISPLAY"] = std::nullopt;
    none.environment["QT_QPA_PLATFORM"] = "";
    ProcessOptions xcb = none;  // X11 asked for by name
    xcb.environment["QT_QPA_PLATFORM"] = "xcb";
    ProcessOptions deadDisplay = none;  // a display that is set but not there: Qt itself fails
    deadDisplay.environment["DISPLAY"] = ":97";
    ProcessOptions offscreen = none;  // what the GUI tests use: must still open the window
    offscreen.environment["QT_QPA_PLATFORM"] = "offscreen";
    const std::vector<std::pair<Args, ProcessOptions>> runs{
        {{"--help"}, none},         {{"--version"}, none},          {{"--lesson", "vit"}, none}, {{}, none},
        {{"--demo"}, xcb},          {{"--task", "classify"}, deadDisplay}, {{"--paint-and-quit"}, offscreen}};
    const auto results = runAll(window, runs);
    auto describeRun = [&](std::size_t i) { return "attnlab " + join(runs[i].first, " ") + "\n" + describe({}, results[i]); };

    INFO(describeRun(0));
    CHECK(results[0].exitCode == 0);
    CHECK(results[0].err.empty());
    CHECK_THAT(results[0].out, Contains("--lesson <name>"));
    for (const char* lesson : {"alignment", "bottleneck", "heads", "explanation", "vit", "captioner", "lookback"})
        CHECK_THAT(results[0].out, Contains(std::string("\n  ") + lesson + " "));
    INFO(describeRun(1));
    CHECK(results[1].exitCode == 0);
    CHECK_THAT(results[1].out, StartsWith("AttnLab "));
    for (std::size_t i = 2; i <= 5; ++i) {
        INFO(describeRun(i));
        CHECK(results[i].exitCode == 2);
        CHECK(isOneErrorLine(results[i].err));
        CHECK_THAT(results[i].err, StartsWith("error: no display"));
        CHECK_THAT(results[i].err, Contains("xvfb-run -a attnlab" + std::string(runs[i].first.empty() ? "" : " ") +
                                            join(runs[i].first, " ") + "\n"));
        CHECK(results[i].out.empty());
    }
    CHECK_THAT(results[2].err, Contains("DISPLAY and WAYLAND_DISPLAY are not set"));
    CHECK_THAT(results[4].err, Contains("QT_QPA_PLATFORM is 'xcb' but DISPLAY is not set"));
    CHECK_THAT(results[5].err, Contains(":97"));
    INFO(describeRun(6));
    CHECK(results[6].exitCode == 0);
}

#endif

// ---- files that are no model ------------------------------------------------------------------

TEST_CASE("a file that is no model is named for what it looks like, exit 4, whichever command reads it", "[cli]") {
    const Files& f = files();
    const std::string png = "it looks like a PNG image", tsv = "it looks like a tab-separated text file, such as a corpus",
                      text = "it looks like a text file";
    const std::string out = scratch().file("never-written");
    // Each loader (translation, classifier, ViT, captioner or either) once, with one of the files.
    std::vector<std::pair<Args, std::string>> cases{
        {{"translate", "--model", f.glyph, "hello"}, png},
        {{"classify", "--model", f.corpus, "a fine film"}, tsv},
        {{"explain", "--model", f.text, "a fine film"}, text},
        {{"look", "--model", f.text, f.glyph}, text},
        {{"export", "--model", f.corpus, "--pytorch", out + "-python"}, tsv},
    };
#ifdef ATTNLAB_HAVE_RENDER
    cases.push_back({{"render", "--model", f.scene, "--sentence", "hello", "--out", out + ".png"}, png});
    cases.push_back({{"render", "--image", f.glyph, "--model", f.corpus, "--out", out + ".svg"}, tsv});
#endif
    std::vector<Args> invocations;
    for (const auto& c : cases) invocations.push_back(c.first);
    const auto results = cliAll(invocations);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        INFO(describe(invocations[i], results[i]));
        const std::string& model = *(std::find(invocations[i].begin(), invocations[i].end(), "--model") + 1);
        CHECK(results[i].exitCode == 4);
        CHECK(results[i].err == "error: " + model + ": not an AttnLab model file (" + cases[i].second + ")\n");
        CHECK(results[i].out.empty());
    }
    CHECK_FALSE(fs::exists(out + "-python"));
}

// ---- output paths -------------------------------------------------------------------------------

TEST_CASE("an --out that is a directory or in a missing one is a usage error found before any work", "[cli]") {
    const Files& f = files();
    const std::string dir = scratch().file("outputs");
    fs::create_directories(dir);
    const std::string missing = scratch().file("no-such-folder") + "/deeper/model.safetensors";
    const std::string underFile = f.corpus + "/model.safetensors";
    struct Case {
        Args args;
        std::string flag, path, reason;
    };
    // Every command that writes a file; each run would train or write if its --out were fine.
    std::vector<Case> cases{
        {{"train", "--dataset", "copy", "--size", "32", "--max-len", "5", "--arch", "gru", "--hidden", "8", "--epochs", "1",
          "--out", dir},
         "--out", dir, "is a directory, not a file"},
        {{"train", "--task", "classify", "--dataset", "sentiment", "--size", "40", "--arch", "gru", "--hidden", "8",
          "--epochs", "1", "--out", missing},
         "--out", missing, "the directory " + scratch().file("no-such-folder") + " does not exist"},
        {{"train", "--task", "image-classify", "--dataset", "glyphs", "--size", "20", "--arch", "vit", "--hidden", "8",
          "--heads", "2", "--layers", "1", "--epochs", "1", "--out", dir + "/"},
         "--out", dir + "/", "is a directory, not a file"},
        {{"train", "--task", "caption", "--dataset", "scenes", "--size", "10", "--arch", "cnn-gru", "--hidden", "8",
          "--epochs", "1", "--out", underFile},
         "--out", underFile, f.corpus + " is not a directory"},
        {{"datasets", "--write", "copy", "--size", "3", "--out", dir}, "--out", dir, "is a directory, not a file"},
        {{"datasets", "--write", "sentiment", "--size", "3", "--out", missing},
         "--out", missing, "the directory " + scratch().file("no-such-folder") + " does not exist"},
        {{"datasets", "--write", "copy", "--size", "3", "--alignments", dir, "--out", scratch().file("fine.tsv")},
         "--alignments", dir, "is a directory, not a file"},
        {{"datasets", "--write", "glyphs", "--size", "2", "--out", f.corpus}, "--out", f.corpus, "is a file, not a directory"},
        {{"export", "--model", f.corpus, "--pytorch", f.text}, "--pytorch", f.text, "is a file, not a directory"},
    };
#ifdef ATTNLAB_HAVE_RENDER
    cases.push_back({{"render", "--model", f.corpus, "--sentence", "hello", "--out", dir}, "--out", dir,
                     "is a directory, not a file"});
    const std::string missingPng = scratch().file("no-such-folder") + "/overlay.png";
    cases.push_back({{"render", "--image", f.glyph, "--model", f.corpus, "--out", missingPng}, "--out", missingPng,
                     "the directory " + scratch().file("no-such-folder") + " does not exist"});
#endif
    std::vector<Args> invocations;
    for (const auto& c : cases) invocations.push_back(c.args);
    const auto results = cliAll(invocations);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        INFO(describe(invocations[i], results[i]));
        CHECK(results[i].exitCode == 2);
        CHECK(isOneErrorLine(results[i].err));
        CHECK_THAT(results[i].err, StartsWith("error: " + cases[i].flag + " " + cases[i].path + ": " + cases[i].reason +
                                              " (see attnlab-cli " + cases[i].args.front() + " --help)"));
        CHECK(results[i].out.empty());  // no epoch, nothing written
    }
    CHECK(fs::is_empty(dir));
    CHECK_FALSE(fs::exists(scratch().file("no-such-folder")));
    CHECK_FALSE(fs::exists(scratch().file("fine.tsv")));
}

// ---- SIGKILL and SIGINT in every task's training ---------------------------------------------------

namespace {

struct Task {
    std::string name;
    Args train;            // without --out, for thousands of epochs of a tiny model
    Args open;             // the command that opens the model, without --model
};

std::vector<Task> tasks() {
    const Files& f = files();
    return {
        {"classify",
         {"train", "--task", "classify", "--dataset", "sentiment", "--size", "60", "--arch", "gru", "--hidden", "8",
          "--embedding", "8", "--epochs", "100000"},
         {"classify", "a fine film"}},
        {"image-classify",
         {"train", "--task", "image-classify", "--dataset", "glyphs", "--size", "12", "--arch", "vit", "--patch", "8",
          "--hidden", "8", "--heads", "2", "--layers", "1", "--ff", "16", "--epochs", "100000"},
         {"look", f.glyph}},
        {"caption",
         {"train", "--task", "caption", "--dataset", "scenes", "--size", "8", "--arch", "cnn-gru", "--hidden", "8",
          "--embedding", "8", "--features", "8", "--epochs", "100000"},
         {"look", f.scene}},
        {"forecast",
         {"train", "--task", "forecast", "--dataset", "seasonal", "--length", "240", "--period", "8", "--context",
          "16", "--horizon", "4", "--d-model", "8", "--heads", "2", "--layers", "1", "--ff", "16", "--epochs", "100000"},
         {"forecast", "--dataset", "seasonal", "--length", "240", "--period", "8"}},
    };
}

Args with(Args args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

}  // namespace

// Per task, two runs at once. One is killed as soon as its first save is in place, while it trains
// its second epoch. One gets SIGINT (Ctrl-C): it saves and exits 130. Each model left behind opens
// with the command a user would run on it. (A kill in the middle of a save is tests/base's
// test_atomic_write: every task's checkpoint is written by that one function.)
TEST_CASE("SIGKILL while any task trains or saves leaves the previous model whole; SIGINT saves, exit 130",
          "[cli]") {
    struct Runs {
        Task task;
        std::string killedTraining, interrupted;
        std::unique_ptr<ProcessRunner> training, interrupt;
    };
    std::vector<Runs> all;
    for (const Task& task : tasks()) {
        Runs r{task, scratch().file("train-" + task.name + ".safetensors"), scratch().file("int-" + task.name + ".safetensors"),
               nullptr, nullptr};
        r.training = std::make_unique<ProcessRunner>(kCli, with(task.train, {"--out", r.killedTraining}));
        r.interrupt = std::make_unique<ProcessRunner>(kCli, with(task.train, {"--out", r.interrupted}));
        all.push_back(std::move(r));
    }
    for (Runs& r : all) {
        r.training->start();
        r.interrupt->start();
    }

    // Each model left behind is opened while the other runs are dealt with.
    std::vector<Args> opens;
    std::vector<std::unique_ptr<ProcessRunner>> openers;
    auto open = [&](const Task& task, const std::string& model) {
        Args args{task.open.front(), "--model", model};
        args.insert(args.end(), task.open.begin() + 1, task.open.end());
        opens.push_back(args);
        openers.push_back(std::make_unique<ProcessRunner>(kCli, args, defaultOptions()));
        openers.back()->start();
    };
    // Killed while training, once the first save is in place (the runs that never pause go first).
    for (Runs& r : all) {
        INFO(r.task.name);
        REQUIRE(waitForFile(*r.training, r.killedTraining, 30.0));
        r.training->sendSignal(SIGKILL);
        const ProcessResult killed = r.training->wait();
        INFO(describe({"train", "--task", r.task.name, "(killed training)"}, killed));
        CHECK(killed.signal == SIGKILL);
        open(r.task, r.killedTraining);
    }
    // Ctrl-C after the second epoch: saved, exit 130.
    for (Runs& r : all) {
        INFO(r.task.name);
        REQUIRE(r.interrupt->waitForOutput("\"epoch\":2,", 30.0));
        r.interrupt->sendSignal(SIGINT);
    }
    for (Runs& r : all) {
        const ProcessResult interrupted = r.interrupt->wait();
        INFO(describe({"train", "--task", r.task.name, "(SIGINT)"}, interrupted));
        CHECK(interrupted.exitCode == 130);
        CHECK_THAT(interrupted.err, Contains("interrupted: model saved to " + r.interrupted));
        for (const auto& line : lines(interrupted.out)) CHECK(Json::parse(line).contains("epoch"));
        open(r.task, r.interrupted);
    }
    for (std::size_t i = 0; i < opens.size(); ++i) {
        const ProcessResult opened = openers[i]->wait();
        INFO(describe(opens[i], opened));
        CHECK(opened.exitCode == 0);
        CHECK(!opened.out.empty());
    }
}
