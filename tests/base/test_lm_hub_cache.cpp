// Hugging Face models on disk (LmHubCache.h): the cache's folder from the environment, a model opened
// by name from a cache laid out exactly as huggingface_hub lays it out (refs/main, snapshots/<hash>/
// links into blobs/), the broken caches (a dangling link, a symlink loop, refs/main naming a missing
// snapshot), what a model folder holds, and GPT-2's vocabulary and merges from tokenizer.json in both
// of its merge formats against the same tokenizer from vocab.json + merges.txt.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "TempDir.h"
#include "base/InputError.h"
#include "base/lm/LmHubCache.h"
#include "base/lm/LmTokens.h"

using namespace attnlab;

namespace {

namespace fs = std::filesystem;

// Sets the cache's environment variables for one case and puts them back afterwards.
class HubEnvGuard {
public:
    static constexpr const char* kNames[] = {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME", "HOME"};
    HubEnvGuard() {
        for (const char* name : kNames) {
            const char* v = std::getenv(name);
            saved_.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
            if (std::string(name) != "HOME") ::unsetenv(name);
        }
    }
    ~HubEnvGuard() {
        for (const auto& [name, value] : saved_) {
            if (value)
                ::setenv(name.c_str(), value->c_str(), 1);
            else
                ::unsetenv(name.c_str());
        }
    }
    HubEnvGuard(const HubEnvGuard&) = delete;
    HubEnvGuard& operator=(const HubEnvGuard&) = delete;
    void set(const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

constexpr const char* kHubHash = "607a30d783dfa663caf39e06633721c8d4cfcd7e";

// One cached repository as huggingface_hub writes it: ROOT/FOLDER/blobs/<one blob per file>,
// snapshots/HASH/FILE -> ../../blobs/BLOB, refs/main = HASH (no line break). Returns the snapshot.
std::string makeHubRepo(const fs::path& root, const std::string& folder,
                        const std::vector<std::pair<std::string, std::string>>& files, const std::string& hash = kHubHash) {
    const fs::path repo = root / folder;
    fs::create_directories(repo / "blobs");
    fs::create_directories(repo / "refs");
    fs::create_directories(repo / "snapshots" / hash);
    std::size_t n = 0;
    for (const auto& [name, bytes] : files) {
        const std::string blob = "blob" + std::to_string(n++) + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852";
        std::ofstream(repo / "blobs" / blob, std::ios::binary) << bytes;
        fs::create_symlink(fs::path("../../blobs") / blob, repo / "snapshots" / hash / name);
    }
    std::ofstream(repo / "refs" / "main", std::ios::binary) << hash;
    return (repo / "snapshots" / hash).string();
}

// The one line a ModelFileError says, or a marker when nothing was thrown.
std::string hubErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const ModelFileError& e) {
        return e.what();
    }
    return "(no error)";
}

bool hubOneLine(const std::string& s) { return s.find('\n') == std::string::npos && s.find('\r') == std::string::npos; }

const char* const kHubGpt2Config = R"({"model_type": "gpt2", "n_layer": 2, "n_head": 2, "n_embd": 8, "vocab_size": 262})";
const char* const kHubBertConfig = R"({"model_type": "bert", "hidden_size": 8})";

// A small GPT-2 vocabulary: the 256 byte tokens (GPT-2's table, in byte order), four merges' results
// and <|endoftext|>, as vocab.json's object; and its merges.
struct HubSmallGpt2 {
    nlohmann::json vocab = nlohmann::json::object();
    std::vector<std::pair<std::string, std::string>> merges = {{"Ġ", "t"}, {"h", "e"}, {"Ġt", "he"}, {"Ġ", "a"}};
    HubSmallGpt2() {
        int id = 0;
        for (int b = 0; b < 256; ++b) vocab[lmBpeTokenText(std::string(1, static_cast<char>(b)))] = id++;
        for (const auto& [l, r] : merges) vocab[l + r] = id++;
        vocab[kLmGpt2EndOfText] = id++;
    }
    std::string mergesTxt() const {
        std::string s = "#version: 0.2\n";
        for (const auto& [l, r] : merges) s += l + " " + r + "\n";
        return s;
    }
    // tokenizer.json as the tokenizers library writes it; `pairs`: merges as ["a", "b"] (tokenizers
    // >= 0.20), else "a b".
    std::string tokenizerJson(bool pairs) const {
        nlohmann::json m = nlohmann::json::array();
        for (const auto& [l, r] : merges) m.push_back(pairs ? nlohmann::json::array({l, r}) : nlohmann::json(l + " " + r));
        nlohmann::json j = {{"version", "1.0"},
                            {"added_tokens", nlohmann::json::array({{{"id", 260}, {"content", kLmGpt2EndOfText}, {"special", true}}})},
                            {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}}},
                            {"model", {{"type", "BPE"}, {"dropout", nullptr}, {"vocab", vocab}, {"merges", m}}}};
        return j.dump(2);
    }
};

}  // namespace

TEST_CASE("The cache's folder follows huggingface_hub's environment variables", "[lm-hub]") {
    HubEnvGuard env;
    env.set("HOME", "/home/learner");
    CHECK(lmHubCacheRoot().path == "/home/learner/.cache/huggingface/hub");
    CHECK(lmHubCacheRoot().from == "~/.cache/huggingface/hub");
    env.set("XDG_CACHE_HOME", "/xdg");
    CHECK(lmHubCacheRoot().path == "/xdg/huggingface/hub");
    env.set("HF_HOME", "~/hf");
    CHECK(lmHubCacheRoot().path == "/home/learner/hf/hub");
    CHECK(lmHubCacheRoot().from == "$HF_HOME/hub");
    env.set("HUGGINGFACE_HUB_CACHE", "/old");
    CHECK(lmHubCacheRoot().path == "/old");
    env.set("HF_HUB_CACHE", "/direct");
    CHECK(lmHubCacheRoot().path == "/direct");
    CHECK(lmHubCacheRoot().from == "$HF_HUB_CACHE");
    env.set("HF_HUB_CACHE", "");  // empty counts as unset
    CHECK(lmHubCacheRoot().path == "/old");
}

TEST_CASE("Model names and the cache folders they are looked for in", "[lm-hub]") {
    CHECK(lmHubIsModelName("gpt2"));
    CHECK(lmHubIsModelName("openai-community/gpt2"));
    CHECK(lmHubIsModelName("bert-base-uncased"));
    CHECK(lmHubIsModelName("distilbert/distilgpt2"));
    CHECK_FALSE(lmHubIsModelName(""));
    CHECK_FALSE(lmHubIsModelName("a/b/c"));
    CHECK_FALSE(lmHubIsModelName("../gpt2"));
    CHECK_FALSE(lmHubIsModelName("./gpt2"));
    CHECK_FALSE(lmHubIsModelName("/models/gpt2"));
    CHECK_FALSE(lmHubIsModelName("a--b"));
    CHECK_FALSE(lmHubIsModelName("gpt 2"));
    CHECK(lmHubRepoFolders("gpt2") == std::vector<std::string>{"models--gpt2", "models--openai-community--gpt2",
                                                                  "models--google-bert--gpt2", "models--distilbert--gpt2"});
    CHECK(lmHubRepoFolders("openai-community/gpt2") == std::vector<std::string>{"models--openai-community--gpt2", "models--gpt2"});
    CHECK(lmHubRepoFolders("someone/gpt2-poems") == std::vector<std::string>{"models--someone--gpt2-poems"});
}

TEST_CASE("A model opens by name from the cache, and a folder as itself", "[lm-hub]") {
    test::TempDir tmp;
    HubEnvGuard env;
    const fs::path cache = tmp.path / "cache";
    env.set("HF_HUB_CACHE", cache.string());
    const std::string gpt2 = makeHubRepo(cache, "models--openai-community--gpt2", {{"config.json", kHubGpt2Config}});
    const std::string bert = makeHubRepo(cache, "models--google-bert--bert-base-uncased", {{"config.json", kHubBertConfig}},
                                         "86b5e0934494bd15c9632b12f734a8a67f723594");
    const std::string poems = makeHubRepo(cache, "models--someone--gpt2-poems", {{"config.json", kHubGpt2Config}});

    CHECK(lmHubResolveModel("openai-community/gpt2") == gpt2);
    CHECK(lmHubResolveModel("gpt2") == gpt2);  // the old name of the same checkpoint
    CHECK(lmHubResolveModel("bert-base-uncased") == bert);
    CHECK(lmHubResolveModel("google-bert/bert-base-uncased") == bert);
    CHECK(lmHubResolveModel("someone/gpt2-poems") == poems);
    CHECK(fs::is_symlink(fs::path(gpt2) / "config.json"));
    // A folder is itself, whatever its name.
    CHECK(lmHubResolveModel(gpt2) == gpt2);
    CHECK(lmHubResolveModel(tmp.path.string()) == tmp.path.string());

    // Downloaded under its old name, the new name finds it too; models--gpt2 comes first for "gpt2".
    const std::string old = makeHubRepo(cache, "models--gpt2", {{"config.json", kHubGpt2Config}}, "11c5a3d5811f50298f278a704980280950aedb10");
    CHECK(lmHubResolveModel("gpt2") == old);
    CHECK(lmHubResolveModel("openai-community/gpt2") == gpt2);

    // The same through $HF_HOME/hub, $XDG_CACHE_HOME/huggingface/hub and ~/.cache/huggingface/hub.
    env.set("HF_HUB_CACHE", "");
    fs::create_directories(tmp.path / "home" / ".cache" / "huggingface");
    fs::create_directories(tmp.path / "hfhome");
    fs::create_directories(tmp.path / "xdg" / "huggingface");
    fs::create_directory_symlink(cache, tmp.path / "hfhome" / "hub");
    fs::create_directory_symlink(cache, tmp.path / "xdg" / "huggingface" / "hub");
    fs::create_directory_symlink(cache, tmp.path / "home" / ".cache" / "huggingface" / "hub");
    env.set("HOME", (tmp.path / "home").string());
    CHECK(lmHubResolveModel("bert-base-uncased") == (tmp.path / "home/.cache/huggingface/hub/models--google-bert--bert-base-uncased/snapshots/86b5e0934494bd15c9632b12f734a8a67f723594").string());
    env.set("XDG_CACHE_HOME", (tmp.path / "xdg").string());
    CHECK(lmHubResolveModel("someone/gpt2-poems").rfind((tmp.path / "xdg").string(), 0) == 0);
    env.set("HF_HOME", (tmp.path / "hfhome").string());
    CHECK(lmHubResolveModel("someone/gpt2-poems").rfind((tmp.path / "hfhome").string(), 0) == 0);

    // Without refs/main, the only snapshot.
    fs::remove(cache / "models--someone--gpt2-poems" / "refs" / "main");
    CHECK(lmHubResolveModel("someone/gpt2-poems") == (tmp.path / "hfhome/hub/models--someone--gpt2-poems/snapshots" / kHubHash).string());
}

TEST_CASE("A name not in the cache says where AttnLab looked and how to download it", "[lm-hub]") {
    test::TempDir tmp;
    HubEnvGuard env;
    const fs::path cache = tmp.path / "cache";
    env.set("HF_HUB_CACHE", cache.string());

    std::string e = hubErrorOf([] { lmHubResolveModel("gpt2"); });
    CHECK(hubOneLine(e));
    CHECK(e.find("gpt2: not a folder, and not in the Hugging Face cache " + cache.string() + " ($HF_HUB_CACHE, which does not exist)") == 0);
    for (const char* folder : {"models--gpt2", "models--openai-community--gpt2", "models--google-bert--gpt2", "models--distilbert--gpt2"})
        CHECK(e.find(folder) != std::string::npos);
    CHECK(e.find("download it with: huggingface-cli download gpt2") != std::string::npos);

    fs::create_directories(cache);
    makeHubRepo(cache, "models--openai-community--gpt2", {{"config.json", kHubGpt2Config}});
    e = hubErrorOf([] { lmHubResolveModel("bert-base-uncased"); });
    CHECK(hubOneLine(e));
    CHECK(e.find("which does not exist") == std::string::npos);
    CHECK(e.find("models--google-bert--bert-base-uncased") != std::string::npos);
    CHECK(e.find("huggingface-cli download bert-base-uncased") != std::string::npos);

    // Not a model name and not a path there: no such folder.
    e = hubErrorOf([&] { lmHubResolveModel((tmp.path / "nowhere").string()); });
    CHECK(e == (tmp.path / "nowhere").string() + ": no such folder");
    // A file is not a model.
    const std::string file = tmp.file("config.json", kHubGpt2Config);
    e = hubErrorOf([&] { lmHubResolveModel(file); });
    CHECK(e.find(file + ": is a file") == 0);
}

TEST_CASE("A broken cache names the file at fault, in one line", "[lm-hub]") {
    test::TempDir tmp;
    HubEnvGuard env;
    const fs::path cache = tmp.path / "cache";
    env.set("HF_HUB_CACHE", cache.string());
    const std::string snapshot = makeHubRepo(cache, "models--openai-community--gpt2",
                                             {{"config.json", kHubGpt2Config}, {"model.safetensors", "x"}, {"vocab.json", "{}"}, {"merges.txt", "#version: 0.2\n"}});
    const fs::path repo = cache / "models--openai-community--gpt2";
    REQUIRE(lmHubResolveModel("gpt2") == snapshot);

    SECTION("a dangling link: its blob is gone") {
        fs::path target = fs::read_symlink(fs::path(snapshot) / "vocab.json");
        fs::remove(fs::path(snapshot) / target);
        const std::string e = hubErrorOf([] { lmHubResolveModel("gpt2"); });
        CHECK(hubOneLine(e));
        CHECK(e.find((fs::path(snapshot) / "vocab.json").string() + ": a dangling link to ../../blobs/") != std::string::npos);
        CHECK(e.find("huggingface-cli download gpt2") != std::string::npos);
        // The folder opened directly says the same of the file it needs.
        const std::string direct = hubErrorOf([&] { lmHubInspectFolder(snapshot); });
        CHECK(hubOneLine(direct));
        CHECK(direct.find((fs::path(snapshot) / "vocab.json").string() + ": a dangling link") == 0);
    }
    SECTION("a symlink loop") {
        fs::create_symlink("loop-b", fs::path(snapshot) / "loop-a");
        fs::create_symlink("loop-a", fs::path(snapshot) / "loop-b");
        const std::string e = hubErrorOf([] { lmHubResolveModel("openai-community/gpt2"); });
        CHECK(hubOneLine(e));
        CHECK((e.find((fs::path(snapshot) / "loop-a").string() + ": a symlink loop") != std::string::npos ||
               e.find((fs::path(snapshot) / "loop-b").string() + ": a symlink loop") != std::string::npos));
        // A loop given as the folder itself.
        fs::create_symlink("self", tmp.path / "self");
        const std::string self = hubErrorOf([&] { lmHubResolveModel((tmp.path / "self").string()); });
        CHECK(self == (tmp.path / "self").string() + ": a symlink loop (a link that leads back to itself)");
        // A loop as config.json of a folder opened directly.
        fs::create_directories(tmp.path / "looped");
        fs::create_symlink("config.json", tmp.path / "looped" / "config.json");
        const std::string looped = hubErrorOf([&] { lmHubInspectFolder((tmp.path / "looped").string()); });
        CHECK(looped.find((tmp.path / "looped" / "config.json").string() + ": a symlink loop") == 0);
    }
    SECTION("refs/main names a snapshot that is not there") {
        std::ofstream(repo / "refs" / "main", std::ios::binary) << "0123456789abcdef0123456789abcdef01234567\n";
        const std::string e = hubErrorOf([] { lmHubResolveModel("gpt2"); });
        CHECK(hubOneLine(e));
        CHECK(e.find((repo / "refs" / "main").string() + ": names the snapshot 0123456789abcdef0123456789abcdef01234567, which is not in") !=
              std::string::npos);
        CHECK(e.find("huggingface-cli download gpt2") != std::string::npos);
    }
    SECTION("refs/main holds no hash") {
        std::ofstream(repo / "refs" / "main", std::ios::binary) << "../../../etc";
        const std::string e = hubErrorOf([] { lmHubResolveModel("gpt2"); });
        CHECK(hubOneLine(e));
        CHECK(e.find((repo / "refs" / "main").string() + ": does not hold a snapshot's commit hash") != std::string::npos);
    }
    SECTION("no refs/main and two snapshots") {
        fs::remove(repo / "refs" / "main");
        fs::create_directories(repo / "snapshots" / "other");
        const std::string e = hubErrorOf([] { lmHubResolveModel("gpt2"); });
        CHECK(hubOneLine(e));
        CHECK(e.find((repo / "refs" / "main").string() + ": no such file, and more than one snapshot") != std::string::npos);
    }
    SECTION("a broken folder under the old name does not hide a good one under the new") {
        fs::create_directories(cache / "models--gpt2" / "refs");
        std::ofstream(cache / "models--gpt2" / "refs" / "main") << "feed";
        CHECK(lmHubResolveModel("gpt2") == snapshot);
    }
}

TEST_CASE("The cache's models are listed with their type", "[lm-hub]") {
    test::TempDir tmp;
    HubEnvGuard env;
    env.set("HF_HOME", tmp.path.string());
    CHECK(lmHubListModels().empty());  // no cache at all
    const fs::path hub = tmp.path / "hub";
    const std::string gpt2 = makeHubRepo(hub, "models--openai-community--gpt2", {{"config.json", kHubGpt2Config}});
    const std::string bert = makeHubRepo(hub, "models--bert-base-uncased", {{"config.json", kHubBertConfig}});
    makeHubRepo(hub, "models--someone--broken-json", {{"config.json", "{not json"}});
    makeHubRepo(hub, "models--someone--missing", {{"config.json", kHubGpt2Config}});
    std::ofstream(hub / "models--someone--missing" / "refs" / "main") << "abc123";
    makeHubRepo(hub, "datasets--someone--text", {{"data.txt", "hello"}});
    fs::create_directories(hub / ".locks");

    const std::vector<LmHubModel> models = lmHubListModels();
    REQUIRE(models.size() == 4);
    CHECK(models[0].name == "bert-base-uncased");
    CHECK(models[0].folder == bert);
    CHECK(models[0].modelType == "bert");
    CHECK(models[0].problem.empty());
    CHECK(models[1].name == "openai-community/gpt2");
    CHECK(models[1].folder == gpt2);
    CHECK(models[1].modelType == "gpt2");
    CHECK(models[2].name == "someone/broken-json");
    CHECK(models[2].modelType.empty());
    CHECK(models[2].problem.empty());
    CHECK(models[3].name == "someone/missing");
    CHECK(models[3].folder.empty());
    CHECK(models[3].problem.find("names the snapshot abc123, which is not in") != std::string::npos);
    CHECK(hubOneLine(models[3].problem));
    CHECK(lmHubListModels(hub.string()).size() == 4);
}

TEST_CASE("A model folder's files: type, weights and tokenizer", "[lm-hub]") {
    test::TempDir tmp;
    const HubSmallGpt2 small;

    SECTION("GPT-2: one safetensors file and the vocab.json + merges.txt pair") {
        tmp.file("m/config.json", kHubGpt2Config);
        tmp.file("m/model.safetensors", "x");
        tmp.file("m/vocab.json", small.vocab.dump());
        tmp.file("m/merges.txt", small.mergesTxt());
        const LmHubFolder f = lmHubInspectFolder(tmp / "m");
        CHECK(f.modelType == "gpt2");
        CHECK(f.config == tmp.file("m/config.json"));
        CHECK(f.weights == std::vector<std::string>{tmp.file("m/model.safetensors")});
        CHECK(f.weightIndex.empty());
        CHECK(f.hasGpt2Pair());
        CHECK(f.vocabJson == tmp.file("m/vocab.json"));
        CHECK(f.mergesTxt == tmp.file("m/merges.txt"));
        CHECK(f.tokenizerJson.empty());
        CHECK(f.vocabTxt.empty());
    }
    SECTION("GPT-2: sharded weights and tokenizer.json only") {
        tmp.file("m/config.json", R"({"architectures": ["GPT2LMHeadModel"], "n_layer": 2})");  // no model_type
        tmp.file("m/model.safetensors.index.json", R"({"metadata": {"total_size": 8}, "weight_map": {
            "wte.weight": "model-00001-of-00002.safetensors", "h.0.attn.c_attn.weight": "model-00002-of-00002.safetensors",
            "wpe.weight": "model-00001-of-00002.safetensors"}})");
        tmp.file("m/model-00001-of-00002.safetensors", "x");
        tmp.file("m/model-00002-of-00002.safetensors", "x");
        tmp.file("m/tokenizer.json", small.tokenizerJson(false));
        const LmHubFolder f = lmHubInspectFolder(tmp / "m");
        CHECK(f.modelType == "gpt2");
        CHECK(f.weightIndex == tmp.file("m/model.safetensors.index.json"));
        REQUIRE(f.weights.size() == 2);  // each once
        CHECK(f.tokenizerJson == tmp.file("m/tokenizer.json"));
        CHECK_FALSE(f.hasGpt2Pair());
        // A shard missing.
        fs::remove(tmp / "m/model-00002-of-00002.safetensors");
        std::string e = hubErrorOf([&] { lmHubInspectFolder(tmp / "m"); });
        CHECK(e == tmp.file("m/model-00002-of-00002.safetensors") + ": no such file (model.safetensors.index.json names it)");
        // A shard outside the folder.
        tmp.file("m/model.safetensors.index.json", R"({"weight_map": {"wte.weight": "../elsewhere.safetensors"}})");
        e = hubErrorOf([&] { lmHubInspectFolder(tmp / "m"); });
        CHECK(e == tmp.file("m/model.safetensors.index.json") + ": weight_map names \"../elsewhere.safetensors\", not a file of the folder");
    }
    SECTION("BERT with vocab.txt") {
        tmp.file("b/config.json", kHubBertConfig);
        tmp.file("b/model.safetensors", "x");
        tmp.file("b/vocab.txt", "[PAD]\n[UNK]\n");
        tmp.file("b/tokenizer_config.json", "{}");
        const LmHubFolder f = lmHubInspectFolder(tmp / "b");
        CHECK(f.modelType == "bert");
        CHECK(f.vocabTxt == tmp.file("b/vocab.txt"));
        fs::remove(tmp / "b/vocab.txt");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "b"); }) == (tmp / "b") + ": holds no BERT tokenizer: vocab.txt or tokenizer.json");
    }
    SECTION("each bad folder in one line naming the file") {
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "none"); }) == (tmp / "none") + ": no such folder");
        tmp.file("e/readme.txt", "");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "e"); }).find((tmp / "e") + ": holds no config.json") == 0);
        tmp.file("e/config.json", "{\n  \"model_type\": gpt2\n}");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "e"); }).find((tmp / "e/config.json") + ":2: not JSON: ") == 0);
        tmp.file("e/config.json", R"({"model_type": "llama"})");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "e"); }) ==
              (tmp / "e/config.json") + ": model_type \"llama\" is not one AttnLab opens (supported: gpt2, bert)");
        tmp.file("e/config.json", R"({"architectures": ["LlamaForCausalLM"]})");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "e"); }) == (tmp / "e/config.json") + ": has no model_type (AttnLab opens: gpt2, bert)");

        tmp.file("e/config.json", kHubGpt2Config);
        tmp.file("e/pytorch_model.bin", "x");
        std::string e = hubErrorOf([&] { lmHubInspectFolder(tmp / "e"); });
        CHECK(hubOneLine(e));
        CHECK(e.find((tmp / "e") + ": holds pytorch_model.bin but no model.safetensors; AttnLab reads safetensors only: "
                                 "convert it once with python3-torch: python3 -c ") == 0);
        CHECK(e.find("'" + tmp.file("e/pytorch_model.bin") + "' '" + tmp.file("e/model.safetensors") + "'") != std::string::npos);
        fs::remove(tmp / "e/pytorch_model.bin");
        tmp.file("e/tf_model.h5", "x");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "e"); }).find((tmp / "e") + ": holds no model.safetensors (only tf_model.h5, which AttnLab does not read)") == 0);

        tmp.file("e/model.safetensors", "x");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "e"); }) ==
              (tmp / "e") + ": holds no GPT-2 tokenizer: vocab.json and merges.txt, or tokenizer.json");
        tmp.file("e/vocab.json", "{}");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(tmp / "e"); }).find((tmp / "e/merges.txt") + ": no such file") == 0);
        tmp.file("e/tokenizer.json", "{}");  // tokenizer.json stands in for the missing merges.txt
        CHECK(lmHubInspectFolder(tmp / "e").tokenizerJson == tmp / "e/tokenizer.json");
        const std::string notFolder = tmp.file("e/config.json");
        CHECK(hubErrorOf([&] { lmHubInspectFolder(notFolder); }).find(notFolder + ": is not a folder") == 0);
    }
}

TEST_CASE("tokenizer.json gives GPT-2's vocabulary and merges as vocab.json + merges.txt do", "[lm-hub]") {
    test::TempDir tmp;
    const HubSmallGpt2 small;
    const LmTokenizer pair = LmTokenizer::readGpt2({tmp.file("vocab.json", small.vocab.dump(2)), tmp.file("merges.txt", small.mergesTxt())});
    REQUIRE(pair.size() == 261);

    for (const bool pairs : {false, true}) {
        INFO((pairs ? "merges as [\"a\", \"b\"]" : "merges as \"a b\""));
        const std::string path = tmp.file(pairs ? "pairs/tokenizer.json" : "strings/tokenizer.json", small.tokenizerJson(pairs));
        const LmGpt2Vocabulary v = lmHubReadTokenizerJson(path);
        // The same tokens at the same ids, the same merges in the same order.
        REQUIRE(v.tokens.size() == pair.size());
        for (std::size_t id = 0; id < v.tokens.size(); ++id) CHECK(v.tokens[id] == pair.token(static_cast<int>(id)));
        REQUIRE(v.merges.size() == pair.merges().size());
        for (std::size_t m = 0; m < v.merges.size(); ++m) {
            CHECK(pair.id(v.merges[m].first) == pair.merges()[m].first);
            CHECK(pair.id(v.merges[m].second) == pair.merges()[m].second);
        }
        CHECK(v.merges == small.merges);
        // And so the same tokenizer.
        const LmTokenizer t = lmHubGpt2Tokenizer(v, path);
        CHECK(t.toJson() == pair.toJson());
        for (const char* text : {"the theme at the", " the the", "hello\n\nthe end", "caf\xC3\xA9 the"})
            CHECK(t.encode(text) == pair.encode(text));
        CHECK(t.encode(" the") == std::vector<int>{pair.id("Ġthe")});
    }
}

TEST_CASE("A bad tokenizer.json is one line naming the file", "[lm-hub]") {
    const HubSmallGpt2 small;
    const std::string name = "/m/tokenizer.json";
    const auto withModel = [&](const nlohmann::json& model) { return nlohmann::json{{"model", model}}.dump(); };
    const auto errorOf = [&](const std::string& json) { return hubErrorOf([&] { lmHubParseTokenizerJson(json, name); }); };
    const nlohmann::json vocab = small.vocab;
    // A list of merges as pairs (a braced list of pairs alone would be read as an object).
    const auto mergeList = [](std::initializer_list<std::pair<std::string, nlohmann::json>> merges) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& [left, right] : merges) list.push_back(nlohmann::json::array({left, right}));
        return list;
    };

    CHECK(errorOf("{\n\"model\": [}").find(name + ":2: not JSON: ") == 0);
    CHECK(errorOf("[]") == name + ": has no \"model\" object (not a tokenizers tokenizer.json)");
    CHECK(errorOf(withModel({{"type", "WordPiece"}, {"vocab", vocab}})) ==
          name + ": model.type \"WordPiece\" is not BPE (GPT-2's tokenizer is a byte-level BPE)");
    CHECK(errorOf(withModel({{"vocab", nlohmann::json::array()}, {"merges", nlohmann::json::array()}})) ==
          name + ": model.vocab is not an object of token -> id");
    CHECK(errorOf(withModel({{"vocab", {{"a", 0}, {"b", 5}}}, {"merges", nlohmann::json::array()}})) ==
          name + ": model.vocab: the id of 'b' is 5, not an integer in 0..1 (the ids of the 2 tokens)");
    CHECK(errorOf(withModel({{"vocab", {{"a", 0}, {"b", 0}}}, {"merges", nlohmann::json::array()}})) ==
          name + ": model.vocab: 'a' and 'b' share the id 0");
    CHECK(errorOf(withModel({{"vocab", vocab}})) == name + ": model.merges is not a list");
    CHECK(errorOf(withModel({{"vocab", vocab}, {"merges", {"Ġ t", "h  e"}}})) ==
          name + ": model.merges[1] (merge 2) \"h  e\" is not two tokens and one space");
    CHECK(errorOf(withModel({{"vocab", vocab}, {"merges", mergeList({{"Ġ", "t"}, {"h", 3}})}})) ==
          name + ": model.merges[1] (merge 2) [\"h\",3] is neither \"a b\" nor [\"a\", \"b\"]");
    CHECK(errorOf(withModel({{"vocab", vocab}, {"merges", mergeList({{"Ġ", "t"}, {"a b", "c"}})}})).find(
              name + ": model.merges[1] (merge 2) [\"a b\",\"c\"] has a token with a space") == 0);
    CHECK(errorOf(withModel({{"vocab", vocab}, {"merges", mergeList({{"", "t"}})}})) == name + ": model.merges[0] (merge 1) [\"\",\"t\"] has an empty token");

    // Well-formed, but not a GPT-2 vocabulary: the tokenizer says what, and which merge.
    LmGpt2Vocabulary v = lmHubParseTokenizerJson(small.tokenizerJson(true), name);
    v.merges.emplace_back("Ġthe", "x");
    std::string e = hubErrorOf([&] { lmHubGpt2Tokenizer(v, name); });
    CHECK(e == name + ": merge 5: 'Ġthex', the merge of 'Ġthe' and 'x', is not in the vocabulary");
    v = lmHubParseTokenizerJson(small.tokenizerJson(true), name);
    v.tokens.pop_back();  // <|endoftext|>
    e = hubErrorOf([&] { lmHubGpt2Tokenizer(v, name); });
    CHECK(e == name + ": no <|endoftext|> token");
    CHECK(hubErrorOf([] { lmHubReadTokenizerJson("/nonexistent-attnlab/tokenizer.json"); }) == "/nonexistent-attnlab/tokenizer.json: no such file");
}
