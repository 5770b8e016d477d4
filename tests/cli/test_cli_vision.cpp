// attnlab-cli's vision models as a script sees them: train --task image-classify and --task caption
// (per-epoch JSON), look (the JSON contract: CLS first, patches row-major, the rollout and every
// caption word's attention summing to 1), render --image in three formats, and the mistakes a user
// can make (one error line, the exit code that names the kind of problem).
#include "cli/CliSupport.h"

#include <numeric>

namespace {

using namespace attnlab::test::cli;

double jsonSum(const Json& row) {
    double s = 0;
    for (const auto& v : row) s += v.get<double>();
    return s;
}

// A tiny ViT on a few glyphs and a tiny captioner on a few scenes, trained once for the file, with
// an image of each set written by `datasets --write`.
struct Trained {
    std::string vit = scratch().file("vit.safetensors"), captioner = scratch().file("captioner.safetensors");
    std::string glyphs = scratch().file("glyph-images"), scenes = scratch().file("scene-images");
    std::string glyph = glyphs + "/00001.png";  // the first glyph, whichever class folder it is in
    std::vector<ProcessResult> runs;
    Trained() {
        runs = cliAll({{"train", "--task", "image-classify", "--dataset", "glyphs", "--size", "120", "--arch", "vit",
                        "--hidden", "16", "--heads", "2", "--layers", "2", "--epochs", "2", "--out", vit},
                       {"train", "--task", "caption", "--dataset", "scenes", "--size", "60", "--arch", "cnn-gru",
                        "--hidden", "24", "--epochs", "2", "--attention", "dot", "--doubly-stochastic", "0.5", "--out", captioner},
                       {"datasets", "--write", "glyphs", "--size", "4", "--out", glyphs},
                       {"datasets", "--write", "scenes", "--size", "2", "--out", scenes}});
        for (const auto& entry : fs::recursive_directory_iterator(glyphs))
            if (entry.path().filename() == "00001.png") glyph = entry.path().string();
    }
};

const Trained& trained() {
    static const Trained t;
    return t;
}

}  // namespace

TEST_CASE("train --task image-classify and caption print one JSON object per epoch", "[cli]") {
    const Trained& t = trained();
    for (std::size_t i = 0; i < t.runs.size(); ++i) {
        INFO(describe({"run", std::to_string(i)}, t.runs[i]));
        REQUIRE(t.runs[i].exitCode == 0);
    }
    const auto vit = lines(t.runs[0].out), cap = lines(t.runs[1].out);
    REQUIRE(vit.size() == 2);  // two epochs ("saved ..." is on stderr)
    const Json e = Json::parse(vit[1]);
    CHECK(e["epoch"] == 2);
    for (const char* key : {"train_loss", "val_loss", "val_accuracy", "rollout_on_box", "box_share", "pairs_per_sec", "seconds"})
        CHECK(e.contains(key));
    CHECK(e["images_per_sec"].get<double>() > 0);
    CHECK_THAT(e["box_share"].get<double>(), WithinAbs(36.0 / 1024.0, 1e-3));
    REQUIRE(cap.size() == 2);
    const Json c = Json::parse(cap[1]);
    for (const char* key : {"val_bleu", "val_exact", "objects_named", "peak_in_box", "pairs_per_sec"}) CHECK(c.contains(key));
    for (const char* key : {"article", "colour", "shape", "relation", "phrase"}) {  // every class, always
        REQUIRE(c["grounding"].contains(key));
        CHECK(c["grounding"][key]["words"].is_number_integer());
    }
    CHECK(c["grounding"]["shape"]["peak_near"] == c["peak_in_box"]);  // the same words, the same measure
    CHECK_THAT(t.runs[1].err, Contains("dot attention, doubly stochastic lambda 0.5"));
}

TEST_CASE("look --json: a ViT's attention over [CLS] + patches and its rollout; a caption's words", "[cli]") {
    const Trained& t = trained();
    const auto r = cliAll({{"look", "--model", t.vit, "--json", t.glyph},
                           {"look", "--model", t.captioner, "--json", t.scenes + "/images/00001.png"},
                           {"look", "--model", t.vit, t.glyph},
                           {"look", "--model", t.captioner, "--beam", "3", t.scenes + "/images/00002.png"}});
    for (std::size_t i = 0; i < r.size(); ++i) {
        INFO(describe({"look", std::to_string(i)}, r[i]));
        REQUIRE(r[i].exitCode == 0);
    }
    const Json v = Json::parse(r[0].out);
    CHECK(v["image_size"] == Json::array({32, 32}));
    CHECK(v["grid"] == Json::array({8, 8}));
    CHECK(v["probabilities"].size() == 4);
    CHECK(v["probabilities"].contains(v["label"].get<std::string>()));
    const Json& layers = v["attention"]["encoder"];
    REQUIRE(layers.size() == 2);
    REQUIRE(layers[0].size() == 2);
    REQUIRE(layers[1][1].size() == 65);
    for (const auto& row : layers[1][1]) {
        REQUIRE(row.size() == 65);
        CHECK_THAT(jsonSum(row), WithinAbs(1.0, 1e-4));
    }
    REQUIRE(v["rollout"].size() == 64);
    CHECK_THAT(jsonSum(v["rollout"]), WithinAbs(1.0, 1e-4));

    const Json c = Json::parse(r[1].out);
    CHECK(c["image_size"] == Json::array({48, 48}));
    CHECK(c["grid"] == Json::array({6, 6}));
    const Json& words = c["caption_tokens"];
    REQUIRE(!words.empty());
    REQUIRE(c["attention"]["cross"].size() == words.size());
    for (const auto& row : c["attention"]["cross"]) {
        REQUIRE(row.size() == 36);
        CHECK_THAT(jsonSum(row), WithinAbs(1.0, 1e-4));
    }
    CHECK_THAT(r[2].out, Contains("rollout peak: patch row"));
    CHECK_THAT(r[3].out, Contains("looks at cell row"));
}

#ifdef ATTNLAB_HAVE_RENDER  // render needs the GUI build (ui/render); without it, it says so (test_cli)
TEST_CASE("render --image writes PNG, SVG and PDF overlays with no display", "[cli]") {
    const Trained& t = trained();
    const std::string png = scratch().file("rollout.png"), svg = scratch().file("head.svg"), pdf = scratch().file("words.pdf");
    const std::string one = scratch().file("word.png");
    const auto r = cliAll({{"render", "--model", t.vit, "--image", t.glyph, "--out", png},
                           {"render", "--model", t.vit, "--image", t.glyph, "--layer", "2", "--head", "1",
                            "--nearest", "--out", svg},
                           {"render", "--model", t.captioner, "--image", t.scenes + "/images/00001.png", "--token", "all", "--out", pdf},
                           {"render", "--model", t.captioner, "--image", t.scenes + "/images/00001.png", "--token", "0",
                            "--scale", "2", "--out", one}});
    for (std::size_t i = 0; i < r.size(); ++i) {
        INFO(describe({"render", std::to_string(i)}, r[i]));
        REQUIRE(r[i].exitCode == 0);
    }
    CHECK(readBytes(png).substr(1, 3) == "PNG");
    CHECK_THAT(readBytes(svg), Contains("<svg"));
    CHECK(readBytes(pdf).substr(0, 5) == "%PDF-");
    CHECK(readBytes(one).substr(1, 3) == "PNG");
}
#endif

TEST_CASE("vision commands refuse bad models, images and flags in one line", "[cli]") {
    const Trained& t = trained();
    const std::string notImage = scratch().file("not-an-image.png"), cut = scratch().file("cut.png");
    writeBytes(notImage, "hello, I am text");
    const std::string whole = readBytes(t.glyph);
    writeBytes(cut, whole.substr(0, whole.size() / 2));
    const std::string glyph = t.glyph;
    const std::vector<Args> runs{
        {"look", "--model", t.vit, notImage},                                    // 3: not an image
        {"look", "--model", t.vit, cut},                                         // 3: truncated
        {"look", "--model", t.vit, scratch().file("missing.png")},               // 3
        {"look", "--model", notImage, glyph},                                    // 4: no model
        {"look", "--model", t.vit, "--beam", "2", glyph},                        // 2: beam for a ViT
        {"look", "--model", t.vit},                                              // 2: no image
        {"render", "--model", t.captioner, "--image", glyph, "--token", "99", "--out", scratch().file("x.png")},  // 2
        {"render", "--model", t.vit, "--image", glyph, "--rollout", "--layer", "1", "--out", scratch().file("x.png")},  // 2
        {"render", "--model", t.vit, "--image", glyph, "--out", scratch().file("x.csv")},  // 2
        {"train", "--task", "image-classify", "--dataset", "glyphs", "--arch", "vit", "--patch", "5", "--out", scratch().file("p.safetensors")},  // 2
        {"train", "--task", "image-classify", "--dataset", "glyphs", "--arch", "gru", "--out", scratch().file("p.safetensors")},  // 2
        {"train", "--task", "caption", "--captions", scratch().file("none.tsv"), "--arch", "cnn-gru", "--out", scratch().file("c.safetensors")},  // 3
        {"render", "--model", t.vit, "--image", glyph, "--layer", "0", "--out", scratch().file("x.png")},  // 2: layers count from 1
        {"render", "--model", t.vit, "--image", glyph, "--layer", "2", "--head", "3", "--out", scratch().file("x.png")},  // 2
    };
    const auto r = cliAll(runs);
#ifdef ATTNLAB_HAVE_RENDER
    constexpr int R = 2;
#else
    constexpr int R = 1;  // render is not available in a build without the GUI (one line, exit 1)
#endif
    const int expected[] = {3, 3, 3, 4, 2, 2, R, R, R, 2, 2, 3, R, R};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], r[i]));
        CHECK(r[i].exitCode == expected[i]);
        CHECK(isOneErrorLine(r[i].err));
    }
    CHECK_THAT(r[0].err, Contains("not-an-image.png"));
    CHECK_THAT(r[1].err, Contains("cut.png"));
#ifdef ATTNLAB_HAVE_RENDER
    CHECK_THAT(r[6].err, Contains("--token"));
#endif
    CHECK_THAT(r[9].err, Contains("--patch 5 does not divide"));
#ifdef ATTNLAB_HAVE_RENDER
    CHECK_THAT(r[12].err, Contains("--layer must be between 1 and 2"));
    CHECK_THAT(r[13].err, Contains("--head must be between 1 and 2"));
#endif
}

TEST_CASE("explain a ViT's image: five distributions, taus, IG's sums, deletion curves, the mark's box", "[cli]") {
    const Trained& t = trained();
    const std::string boxes = t.glyphs + "/boxes.tsv";
    const auto r = cliAll({{"explain", "--model", t.vit, "--json", "--steps", "32", t.glyph},
                           {"explain", "--model", t.vit, t.glyph},
                           {"experiment", "deletion", "--model", t.vit, "--dataset", "glyphs", "--size", "6", "--data-seed", "3",
                            "--steps", "8"},
                           {"look", "--model", t.captioner, "--json", t.scenes + "/images/00001.png"},
                           {"explain", "--model", t.captioner, "--word", "0", "--json", "--steps", "16",
                            t.scenes + "/images/00001.png"},
                           {"explain", "--model", t.captioner, "--word", "99", t.scenes + "/images/00001.png"}});
    for (std::size_t i = 0; i + 1 < r.size(); ++i) {
        INFO(describe({"explain", std::to_string(i)}, r[i]));
        REQUIRE(r[i].exitCode == 0);
    }
    const Json e = Json::parse(r[0].out);
    CHECK(e["grid"] == Json::array({8, 8}));
    for (const char* method : {"rollout", "gradient", "grad_x_input", "integrated_gradients", "grad_rollout"}) {
        INFO(method);
        REQUIRE(e["methods"][method].size() == 64);
        CHECK_THAT(jsonSum(e["methods"][method]), WithinAbs(1.0, 1e-6));
        REQUIRE(e["deletion"][method].size() == 65);
        CHECK(e["deletion"]["area_over_curve"].contains(method));
        CHECK(e["mass_in_box"].contains(method));  // the boxes.tsv beside the class folder
    }
    REQUIRE(e["deletion"]["random"].size() == 65);
    CHECK(e["deletion"]["fractions"].back() == 1.0);
    for (const auto& [a, row] : e["tau"].items())
        for (const auto& [b, tau] : row.items()) {
            CHECK(a != b);
            CHECK(std::abs(tau.get<double>()) <= 1.0);
        }
    CHECK(e["ig_completeness"]["steps"] == 32);
    CHECK(e["ig_completeness"].contains("relative_error"));
    CHECK_THAT(e["box_share"].get<double>(), WithinAbs(36.0 / 1024.0, 1e-9));
    CHECK_THAT(r[1].out, Contains("AOPC") && Contains("integrated gradients (128 steps)"));
    const Json d = Json::parse(r[2].out);
    CHECK(d["images"] == 6);
    CHECK(d["accuracy"].is_number());  // the glyphs' classes are the model's
    CHECK(d["deletion"]["area_over_curve"].contains("random"));
    CHECK(d.contains("mass_in_box"));
    // A scene written by `datasets --write scenes`: its objects come from the objects.tsv beside images/.
    const Json c = Json::parse(r[3].out);
    REQUIRE(c["objects"].size() >= 2);
    REQUIRE(c["in_box"].size() == c["caption_tokens"].size());
    CHECK(c["in_box"][0].size() == c["objects"].size());
    CHECK(c["peak_in_box"][0].size() == c["objects"].size());
    CHECK(c["objects"][0]["box"].size() == 4);
    // Each token's class and the objects it belongs to; "a" is an article wherever it stands.
    REQUIRE(c["word_classes"].size() == c["caption_tokens"].size());
    REQUIRE(c["word_objects"].size() == c["caption_tokens"].size());
    for (std::size_t i = 0; i < c["caption_tokens"].size(); ++i)
        if (c["caption_tokens"][i] == "a") CHECK(c["word_classes"][i] == "article");
    CHECK(c["grounding"].contains("phrase"));
    // A captioner's word: its attention over the 6x6 cells beside the gradient methods.
    const Json w = Json::parse(r[4].out);
    CHECK(w["word"] == 0);
    CHECK(w["caption"] == c["caption_tokens"]);
    CHECK(w["label"] == c["caption_tokens"][0]);
    CHECK(w["grid"] == Json::array({6, 6}));
    for (const char* method : {"attention", "gradient", "grad_x_input", "integrated_gradients"}) {
        INFO(method);
        REQUIRE(w["methods"][method].size() == 36);
        CHECK_THAT(jsonSum(w["methods"][method]), WithinAbs(1.0, 1e-6));
        CHECK(w["deletion"][method].size() == 37);
    }
    CHECK_FALSE(w["methods"].contains("rollout"));
    // A box is measured only for a word that belongs to an object, and it says whose.
    CHECK(w.contains("mass_in_box") == w.contains("box_object"));
    INFO(describe({"explain", "--word", "99"}, r[5]));
    CHECK(r[5].exitCode == 2);
    CHECK_THAT(r[5].err, Contains("--word: word 99 is not in the caption"));

    // Mistakes: one line each, naming what is wrong.
    const std::string badBoxes = scratch().file("bad-boxes.tsv"), badObjects = scratch().file("bad-objects.tsv");
    writeBytes(badBoxes, "x.png\t1\t2\n");
    writeBytes(badObjects, "images/00001.png\t0\tred\tdisk\t1\t2\tten\t4\n");
    const std::vector<Args> runs{
        {"explain", "--model", t.vit, "--boxes", badBoxes, t.glyph},                                // 3: the TSV's line
        {"explain", "--model", t.vit, "--class", "nothing", t.glyph},                               // 2
        {"explain", "--model", t.vit, "--output-token", "0", t.glyph},                              // 2
        {"explain", "--model", t.captioner, t.glyph},                                               // 2: which word?
        {"look", "--model", t.captioner, "--objects", badObjects, t.scenes + "/images/00001.png"},  // 3
        {"look", "--model", t.vit, "--objects", badObjects, t.glyph},                               // 2
        {"train", "--task", "caption", "--dataset", "scenes", "--objects", "5", "--arch", "cnn-gru", "--out",
         scratch().file("o.safetensors")},                                                          // 2
        {"train", "--task", "caption", "--dataset", "scenes", "--query", "later", "--arch", "cnn-gru", "--out",
         scratch().file("o.safetensors")},                                                          // 2
        {"train", "--task", "caption", "--dataset", "scenes", "--sentinel", "--attention", "dot", "--arch", "cnn-gru",
         "--out", scratch().file("o.safetensors")},                                                 // 2
        {"train", "--task", "caption", "--dataset", "scenes", "--noise", "0.9", "--arch", "cnn-gru", "--out",
         scratch().file("o.safetensors")},                                                          // 2
        {"train", "--task", "caption", "--captions", t.scenes + "/captions.tsv", "--noise", "0.1", "--arch", "cnn-gru",
         "--out", scratch().file("o.safetensors")},                                                 // 2
        {"datasets", "--write", "glyphs", "--noise", "0.1", "--out", scratch().file("g")},           // 2
    };
    const auto bad = cliAll(runs);
    const int expected[] = {3, 2, 2, 2, 3, 2, 2, 2, 2, 2, 2, 2};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(describe(runs[i], bad[i]));
        CHECK(bad[i].exitCode == expected[i]);
        CHECK(isOneErrorLine(bad[i].err));
    }
    CHECK_THAT(bad[0].err, Contains("bad-boxes.tsv:1"));
    CHECK_THAT(bad[1].err, Contains("no class 'nothing'"));
    CHECK_THAT(bad[3].err, Contains("--word I"));
    CHECK_THAT(bad[4].err, Contains("bad-objects.tsv:1") && Contains("'ten'"));
    CHECK_THAT(bad[6].err, Contains("--objects"));
    CHECK_THAT(bad[7].err, Contains("--query"));
    CHECK_THAT(bad[8].err, Contains("--sentinel"));
    CHECK_THAT(bad[9].err, Contains("--noise"));
    CHECK_THAT(bad[10].err, Contains("--noise") && Contains("--dataset scenes"));
    CHECK_THAT(bad[11].err, Contains("--noise applies to scenes"));
}
