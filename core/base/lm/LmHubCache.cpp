#include "base/lm/LmHubCache.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

#include "base/InputError.h"
#include "base/io/FileUtil.h"

namespace attnlab {

namespace {

namespace hubfs = std::filesystem;
using HubJson = nlohmann::json;

constexpr std::uint64_t kHubConfigBytes = 4ull * 1024 * 1024;
constexpr std::uint64_t kHubIndexBytes = 64ull * 1024 * 1024;
constexpr std::uint64_t kHubRefBytes = 4096;
constexpr std::size_t kHubNamePartMost = 96;

// An environment variable, empty when unset.
std::string hubEnv(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

std::string hubHome() {
    std::string home = hubEnv("HOME");
    if (home.empty()) {
        if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_dir) home = pw->pw_dir;
    }
    return home;
}

// "~" and "~/..." as the home folder, as Python's expanduser.
std::string hubExpand(const std::string& path) {
    if (path == "~" || path.rfind("~/", 0) == 0) return hubHome() + path.substr(1);
    return path;
}

// A path in a message: one line, control characters escaped.
std::string hubShown(const std::string& text, std::size_t most = 200) {
    std::string shown;
    for (std::size_t i = 0; i < text.size() && i < most; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != 0x7F) {
            shown += static_cast<char>(c);
        } else {
            const char* digits = "0123456789abcdef";
            shown += std::string("\\x") + digits[c >> 4] + digits[c & 15];
        }
    }
    return text.size() > most ? shown + "..." : shown;
}

// A JSON value in a message: short, one line.
std::string hubJsonShown(const HubJson& v) {
    std::string s = v.dump(-1, ' ', true, HubJson::error_handler_t::replace);
    return s.size() > 60 ? s.substr(0, 60) + "..." : s;
}

enum class HubEntry { Absent, Present, Dangling, Loop, Unreadable };

// What is at `path`, following symlinks: a dangling link and a symlink loop are told apart from a
// path with nothing there.
HubEntry hubEntry(const hubfs::path& path) {
    std::error_code ec;
    const hubfs::file_status followed = hubfs::status(path, ec);
    if (!ec && hubfs::exists(followed)) return HubEntry::Present;
    if (ec == std::errc::too_many_symbolic_link_levels) return HubEntry::Loop;
    std::error_code lec;
    const hubfs::file_status own = hubfs::symlink_status(path, lec);
    if (lec || !hubfs::exists(own)) {
        // Nothing there, or a parent that is a loop or dangling: status said which.
        if (lec == std::errc::too_many_symbolic_link_levels) return HubEntry::Loop;
        return ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory ? HubEntry::Unreadable
                                                                                                 : HubEntry::Absent;
    }
    if (hubfs::is_symlink(own)) return ec == std::errc::too_many_symbolic_link_levels ? HubEntry::Loop : HubEntry::Dangling;
    return HubEntry::Unreadable;
}

// The link's target as stored, for a message.
std::string hubLinkTarget(const hubfs::path& path) {
    std::error_code ec;
    const hubfs::path target = hubfs::read_symlink(path, ec);
    return ec ? std::string() : target.string();
}

// Throws for a dangling link or a symlink loop at `path`; says whether something is there.
bool hubPresent(const hubfs::path& path, const std::string& download = {}) {
    switch (hubEntry(path)) {
        case HubEntry::Present: return true;
        case HubEntry::Absent: return false;
        case HubEntry::Loop: throw ModelFileError(hubShown(path.string()), "a symlink loop (a link that leads back to itself)");
        case HubEntry::Dangling: {
            const std::string target = hubLinkTarget(path);
            throw ModelFileError(hubShown(path.string()),
                                 "a dangling link" + (target.empty() ? std::string() : " to " + hubShown(target)) +
                                     " (the file it stands for is gone" +
                                     (download.empty() ? std::string(")") : "; download it again: " + download + ")"));
        }
        case HubEntry::Unreadable: break;
    }
    throw ModelFileError(hubShown(path.string()), "cannot be read (permission denied?)");
}

std::string hubDownloadCommand(const std::string& name) { return "huggingface-cli download " + name; }

// A file's text; readFileLimited's InputError as a ModelFileError naming the file.
std::string hubRead(const hubfs::path& path, std::uint64_t most) {
    try {
        return readFileLimited(path.string(), most);
    } catch (const InputError& e) {
        throw ModelFileError(hubShown(e.file()), e.reason());
    }
}

// A JSON text; a parse error names the line: "FILE:N: not JSON: ...".
HubJson hubParse(const std::string& text, const std::string& name) {
    try {
        return HubJson::parse(text);
    } catch (const HubJson::parse_error& e) {
        const std::size_t at = std::min<std::size_t>(e.byte, text.size());
        const long line = 1 + static_cast<long>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at > 0 ? at - 1 : 0), '\n'));
        std::string what = e.what();
        if (const std::size_t colon = what.find(": ", what.find("parse error")); colon != std::string::npos)
            what = what.substr(colon + 2);
        throw ModelFileError(hubShown(name) + ":" + std::to_string(line), "not JSON: " + hubShown(what, 120));
    } catch (const HubJson::exception& e) {
        throw ModelFileError(hubShown(name), std::string("not JSON: ") + hubShown(e.what(), 120));
    }
}

bool hubNamePart(const std::string& part) {
    if (part.empty() || part.size() > kHubNamePartMost || part[0] == '.' || part[0] == '-') return false;
    if (part.find("--") != std::string::npos || part.find("..") != std::string::npos) return false;
    return std::all_of(part.begin(), part.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    });
}

// A snapshot name from refs/main: a commit hash (letters and digits).
bool hubSnapshotName(const std::string& s) {
    return !s.empty() && s.size() <= 128 &&
           std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

std::string hubTrim(const std::string& s) {
    const std::size_t begin = s.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) return {};
    return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

// config.json's model_type, or the one "architectures" implies, or empty.
std::string hubModelType(const HubJson& config) {
    if (!config.is_object()) return {};
    if (const auto t = config.find("model_type"); t != config.end() && t->is_string()) return t->get<std::string>();
    if (const auto a = config.find("architectures"); a != config.end() && a->is_array()) {
        for (const HubJson& arch : *a) {
            if (!arch.is_string()) continue;
            const std::string s = arch.get<std::string>();
            if (s.rfind("GPT2", 0) == 0) return "gpt2";
            if (s.rfind("Bert", 0) == 0) return "bert";
        }
    }
    return {};
}

std::string hubJoined(const std::vector<std::string>& items, const char* separator = ", ") {
    std::string s;
    for (const std::string& item : items) s += (s.empty() ? "" : separator) + item;
    return s;
}

}  // namespace

// ---- 1. Opening by name ----------------------------------------------------------------------------

LmHubCacheRoot lmHubCacheRoot() {
    if (const std::string v = hubEnv("HF_HUB_CACHE"); !v.empty()) return {hubExpand(v), "$HF_HUB_CACHE"};
    if (const std::string v = hubEnv("HUGGINGFACE_HUB_CACHE"); !v.empty()) return {hubExpand(v), "$HUGGINGFACE_HUB_CACHE"};
    if (const std::string v = hubEnv("HF_HOME"); !v.empty()) return {(hubfs::path(hubExpand(v)) / "hub").string(), "$HF_HOME/hub"};
    if (const std::string v = hubEnv("XDG_CACHE_HOME"); !v.empty())
        return {(hubfs::path(hubExpand(v)) / "huggingface" / "hub").string(), "$XDG_CACHE_HOME/huggingface/hub"};
    return {(hubfs::path(hubHome()) / ".cache" / "huggingface" / "hub").string(), "~/.cache/huggingface/hub"};
}

const std::vector<std::string>& lmHubLegacyOrgs() {
    static const std::vector<std::string> orgs = {"openai-community", "google-bert", "distilbert"};
    return orgs;
}

bool lmHubIsModelName(const std::string& name) {
    const std::size_t slash = name.find('/');
    if (slash == std::string::npos) return hubNamePart(name);
    return hubNamePart(name.substr(0, slash)) && hubNamePart(name.substr(slash + 1));
}

std::vector<std::string> lmHubRepoFolders(const std::string& name) {
    std::vector<std::string> folders;
    const std::size_t slash = name.find('/');
    if (slash == std::string::npos) {
        folders.push_back("models--" + name);
        for (const std::string& org : lmHubLegacyOrgs()) folders.push_back("models--" + org + "--" + name);
        return folders;
    }
    const std::string org = name.substr(0, slash), bare = name.substr(slash + 1);
    folders.push_back("models--" + org + "--" + bare);
    if (std::find(lmHubLegacyOrgs().begin(), lmHubLegacyOrgs().end(), org) != lmHubLegacyOrgs().end())
        folders.push_back("models--" + bare);
    return folders;
}

std::string lmHubSnapshot(const std::string& repoFolder, const std::string& name) {
    const hubfs::path repo(repoFolder);
    const std::string download = hubDownloadCommand(name);
    const hubfs::path snapshots = repo / "snapshots";
    const hubfs::path ref = repo / "refs" / "main";
    hubfs::path snapshot;
    if (hubPresent(ref, download)) {
        const std::string hash = hubTrim(hubRead(ref, kHubRefBytes));
        if (!hubSnapshotName(hash))
            throw ModelFileError(hubShown(ref.string()), "does not hold a snapshot's commit hash (download the model again: " + download + ")");
        snapshot = snapshots / hash;
        if (!hubPresent(snapshot, download))
            throw ModelFileError(hubShown(ref.string()), "names the snapshot " + hash + ", which is not in " +
                                                             hubShown(snapshots.string()) + " (download it again: " + download + ")");
    } else {
        // No refs/main (a download of another revision): the only snapshot there is, if there is one.
        std::vector<hubfs::path> found;
        std::error_code ec;
        if (hubPresent(snapshots, download))
            for (auto it = hubfs::directory_iterator(snapshots, ec); !ec && it != hubfs::directory_iterator(); it.increment(ec))
                found.push_back(it->path());
        if (found.size() != 1)
            throw ModelFileError(hubShown(ref.string()),
                                 std::string("no such file, and ") + (found.empty() ? "no snapshot" : "more than one snapshot") +
                                     " in " + hubShown(snapshots.string()) + " to choose (download the model: " + download + ")");
        snapshot = found.front();
        hubPresent(snapshot, download);
    }
    std::error_code ec;
    if (!hubfs::is_directory(snapshot, ec))
        throw ModelFileError(hubShown(snapshot.string()), "is not a folder (the snapshot refs/main names)");
    // Every file of the snapshot is a link into blobs/: a broken one is named now, not when read.
    for (auto it = hubfs::directory_iterator(snapshot, ec); !ec && it != hubfs::directory_iterator(); it.increment(ec))
        hubPresent(it->path(), download);
    if (ec) throw ModelFileError(hubShown(snapshot.string()), "cannot be listed: " + ec.message());
    return snapshot.string();
}

std::string lmHubResolveModel(const std::string& model) {
    if (model.empty()) throw ModelFileError("--model", "no folder or model name given");
    const hubfs::path path(model);
    if (hubPresent(path)) {
        std::error_code ec;
        if (hubfs::is_directory(path, ec)) return model;
        throw ModelFileError(hubShown(model), "is a file; a model is opened as its folder (the one holding config.json)");
    }
    if (!lmHubIsModelName(model)) throw ModelFileError(hubShown(model), "no such folder");
    const LmHubCacheRoot root = lmHubCacheRoot();
    std::vector<std::string> looked;
    std::string firstProblem;  // a folder that is there but broken: its error, unless a later one opens
    for (const std::string& folder : lmHubRepoFolders(model)) {
        const hubfs::path repo = hubfs::path(root.path) / folder;
        looked.push_back(folder);
        try {
            if (!hubPresent(repo, hubDownloadCommand(model))) continue;
            return lmHubSnapshot(repo.string(), model);
        } catch (const ModelFileError& e) {
            if (firstProblem.empty()) firstProblem = e.what();
        }
    }
    if (!firstProblem.empty()) throw ModelFileError(hubShown(model), firstProblem);
    std::error_code ec;
    const bool rootThere = hubfs::is_directory(root.path, ec);
    throw ModelFileError(hubShown(model), "not a folder, and not in the Hugging Face cache " + hubShown(root.path) + " (" + root.from +
                                              (rootThere ? "" : ", which does not exist") + "): looked for " +
                                              hubJoined(looked) + " there; download it with: " + hubDownloadCommand(model));
}

std::vector<LmHubModel> lmHubListModels() { return lmHubListModels(lmHubCacheRoot().path); }

std::vector<LmHubModel> lmHubListModels(const std::string& root) {
    std::vector<LmHubModel> models;
    std::error_code ec;
    for (auto it = hubfs::directory_iterator(root, ec); !ec && it != hubfs::directory_iterator(); it.increment(ec)) {
        const std::string folder = it->path().filename().string();
        if (folder.rfind("models--", 0) != 0 || folder.size() == 8) continue;
        LmHubModel m;
        m.name = folder.substr(8);
        if (const std::size_t dashes = m.name.find("--"); dashes != std::string::npos) m.name.replace(dashes, 2, "/");
        try {
            m.folder = lmHubSnapshot(it->path().string(), m.name);
        } catch (const ModelFileError& e) {
            m.problem = e.what();
            models.push_back(std::move(m));
            continue;
        } catch (const std::exception& e) {
            m.problem = hubShown(it->path().string()) + ": " + e.what();
            models.push_back(std::move(m));
            continue;
        }
        try {
            const hubfs::path config = hubfs::path(m.folder) / "config.json";
            m.modelType = hubModelType(HubJson::parse(readFileLimited(config.string(), kHubConfigBytes)));
        } catch (const std::exception&) {
            // A config that cannot be read leaves the type empty; opening the model says why.
        }
        models.push_back(std::move(m));
    }
    std::sort(models.begin(), models.end(), [](const LmHubModel& a, const LmHubModel& b) { return a.name < b.name; });
    return models;
}

// ---- 2. What a folder holds ------------------------------------------------------------------------

const std::vector<std::string>& lmHubSupportedTypes() {
    static const std::vector<std::string> types = {"gpt2", "bert"};
    return types;
}

std::string lmHubConvertCommand(const std::string& directory) {
    const std::string bin = (hubfs::path(directory) / "pytorch_model.bin").string();
    const std::string out = (hubfs::path(directory) / "model.safetensors").string();
    const auto quoted = [](const std::string& s) {
        std::string q = "'";
        for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return q + "'";
    };
    return "python3 -c \"import sys,json,itertools as I,torch;"
           "d={k:v.float().contiguous().numpy() for k,v in torch.load(sys.argv[1],map_location='cpu',weights_only=True).items() "
           "if v.is_floating_point()};e=[0,*I.accumulate(v.nbytes for v in d.values())];"
           "h=json.dumps({k:{'dtype':'F32','shape':list(v.shape),'data_offsets':[e[i],e[i+1]]} for i,(k,v) in enumerate(d.items())}).encode();"
           "f=open(sys.argv[2],'wb');f.write(len(h).to_bytes(8,'little')+h);[f.write(v.tobytes()) for v in d.values()];f.close()\" " +
           quoted(bin) + " " + quoted(out);
}

LmHubFolder lmHubInspectFolder(const std::string& directory) {
    const hubfs::path dir(directory);
    if (!hubPresent(dir)) throw ModelFileError(hubShown(directory), "no such folder");
    std::error_code ec;
    if (!hubfs::is_directory(dir, ec)) throw ModelFileError(hubShown(directory), "is not a folder (a model is opened as the folder holding config.json)");
    LmHubFolder f;
    f.directory = directory;
    const auto in = [&](const char* file) -> std::string {
        const hubfs::path p = dir / file;
        return hubPresent(p) ? p.string() : std::string();
    };

    // config.json: the model's type.
    f.config = in("config.json");
    if (f.config.empty())
        throw ModelFileError(hubShown(directory), "holds no config.json (not a Hugging Face model folder: the folder of config.json, the weights and the tokenizer files)");
    const HubJson config = hubParse(hubRead(f.config, kHubConfigBytes), f.config);
    if (!config.is_object()) throw ModelFileError(hubShown(f.config), "not a JSON object");
    f.modelType = hubModelType(config);
    const std::string supported = hubJoined(lmHubSupportedTypes());
    if (f.modelType.empty())
        throw ModelFileError(hubShown(f.config), "has no model_type (AttnLab opens: " + supported + ")");
    if (std::find(lmHubSupportedTypes().begin(), lmHubSupportedTypes().end(), f.modelType) == lmHubSupportedTypes().end())
        throw ModelFileError(hubShown(f.config), "model_type " + hubJsonShown(HubJson(f.modelType)) +
                                                    " is not one AttnLab opens (supported: " + supported + ")");

    // The weights.
    if (std::string single = in("model.safetensors"); !single.empty()) {
        f.weights.push_back(std::move(single));
    } else if (std::string index = in("model.safetensors.index.json"); !index.empty()) {
        const HubJson j = hubParse(hubRead(index, kHubIndexBytes), index);
        const auto map = j.is_object() ? j.find("weight_map") : j.end();
        if (map == j.end() || !map->is_object() || map->empty())
            throw ModelFileError(hubShown(index), "has no weight_map of tensor names to files");
        std::set<std::string> seen;
        for (const auto& [tensor, file] : map->items()) {
            if (!file.is_string()) throw ModelFileError(hubShown(index), "weight_map[\"" + hubShown(tensor, 60) + "\"] is not a file name");
            const std::string shard = file.get<std::string>();
            if (shard.empty() || shard.find('/') != std::string::npos || shard.find('\\') != std::string::npos || shard == "." || shard == "..")
                throw ModelFileError(hubShown(index), "weight_map names " + hubJsonShown(file) + ", not a file of the folder");
            if (!seen.insert(shard).second) continue;
            const hubfs::path p = dir / shard;
            if (!hubPresent(p)) throw ModelFileError(hubShown(p.string()), "no such file (model.safetensors.index.json names it)");
            f.weights.push_back(p.string());
        }
        std::sort(f.weights.begin(), f.weights.end());  // model-00001-of-00002... in order
        f.weightIndex = std::move(index);
    } else if (!in("pytorch_model.bin").empty()) {
        throw ModelFileError(hubShown(directory), "holds pytorch_model.bin but no model.safetensors; AttnLab reads safetensors only: "
                                                  "convert it once with python3-torch: " + lmHubConvertCommand(directory));
    } else if (!in("pytorch_model.bin.index.json").empty()) {
        throw ModelFileError(hubShown(directory), "holds pytorch_model.bin shards but no model.safetensors; AttnLab reads safetensors only: "
                                                  "save the model again with transformers' save_pretrained(DIR, safe_serialization=True)");
    } else {
        std::vector<std::string> others;
        for (const char* other : {"tf_model.h5", "flax_model.msgpack", "rust_model.ot", "model.onnx"})
            if (!in(other).empty()) others.emplace_back(other);
        throw ModelFileError(hubShown(directory), "holds no model.safetensors" +
                                                      (others.empty() ? std::string() : " (only " + hubJoined(others) + ", which AttnLab does not read)") +
                                                      "; download the weights: huggingface-cli download MODEL model.safetensors");
    }

    // The tokenizer files.
    f.vocabJson = in("vocab.json");
    f.mergesTxt = in("merges.txt");
    f.tokenizerJson = in("tokenizer.json");
    f.vocabTxt = in("vocab.txt");
    if (f.modelType == "gpt2" && !f.hasGpt2Pair() && f.tokenizerJson.empty()) {
        if (!f.vocabJson.empty() || !f.mergesTxt.empty())
            throw ModelFileError(hubShown((dir / (f.vocabJson.empty() ? "vocab.json" : "merges.txt")).string()),
                                 std::string("no such file (GPT-2's tokenizer is vocab.json with merges.txt, or tokenizer.json)"));
        throw ModelFileError(hubShown(directory), "holds no GPT-2 tokenizer: vocab.json and merges.txt, or tokenizer.json");
    }
    if (f.modelType == "bert" && f.vocabTxt.empty() && f.tokenizerJson.empty())
        throw ModelFileError(hubShown(directory), "holds no BERT tokenizer: vocab.txt or tokenizer.json");
    return f;
}

// ---- 3. GPT-2's vocabulary and merges from tokenizer.json ------------------------------------------

LmGpt2Vocabulary lmHubParseTokenizerJson(const std::string& json, const std::string& name) {
    const HubJson j = hubParse(json, name);
    const std::string shown = hubShown(name);
    const auto model = j.is_object() ? j.find("model") : j.end();
    if (model == j.end() || !model->is_object()) throw ModelFileError(shown, "has no \"model\" object (not a tokenizers tokenizer.json)");
    if (const auto type = model->find("type"); type != model->end() && !(type->is_string() && type->get<std::string>() == "BPE"))
        throw ModelFileError(shown, "model.type " + hubJsonShown(*type) + " is not BPE (GPT-2's tokenizer is a byte-level BPE)");
    const auto vocab = model->find("vocab");
    if (vocab == model->end() || !vocab->is_object() || vocab->empty())
        throw ModelFileError(shown, "model.vocab is not an object of token -> id");

    LmGpt2Vocabulary v;
    const std::size_t n = vocab->size();
    v.tokens.resize(n);
    std::vector<char> seen(n, 0);
    for (const auto& [token, value] : vocab->items()) {
        if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() >= static_cast<std::int64_t>(n))
            throw ModelFileError(shown, "model.vocab: the id of '" + hubShown(token, 60) + "' is " + hubJsonShown(value) +
                                            ", not an integer in 0.." + std::to_string(n - 1) + " (the ids of the " +
                                            std::to_string(n) + " tokens)");
        const auto id = static_cast<std::size_t>(value.get<std::int64_t>());
        if (seen[id])
            throw ModelFileError(shown, "model.vocab: '" + hubShown(v.tokens[id], 60) + "' and '" + hubShown(token, 60) +
                                            "' share the id " + std::to_string(id));
        seen[id] = 1;
        v.tokens[id] = token;
    }

    const auto merges = model->find("merges");
    if (merges == model->end() || !merges->is_array()) throw ModelFileError(shown, "model.merges is not a list");
    v.merges.reserve(merges->size());
    std::size_t number = 0;
    for (const HubJson& m : *merges) {
        ++number;
        const std::string where = "model.merges[" + std::to_string(number - 1) + "] (merge " + std::to_string(number) + ") ";
        std::string left, right;
        if (m.is_string()) {
            const std::string s = m.get<std::string>();
            const std::size_t space = s.find(' ');
            if (space == std::string::npos || s.find(' ', space + 1) != std::string::npos)
                throw ModelFileError(shown, where + hubJsonShown(m) + " is not two tokens and one space");
            left = s.substr(0, space);
            right = s.substr(space + 1);
        } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
            left = m[0].get<std::string>();
            right = m[1].get<std::string>();
        } else {
            throw ModelFileError(shown, where + hubJsonShown(m) + " is neither \"a b\" nor [\"a\", \"b\"]");
        }
        if (left.empty() || right.empty())
            throw ModelFileError(shown, where + hubJsonShown(m) + " has an empty token");
        if ((left + right).find_first_of(" \n\r") != std::string::npos)
            throw ModelFileError(shown, where + hubJsonShown(m) + " has a token with a space or a line break (GPT-2's byte-level tokens have none)");
        v.merges.emplace_back(std::move(left), std::move(right));
    }
    return v;
}

LmGpt2Vocabulary lmHubReadTokenizerJson(const std::string& path) {
    hubPresent(path);
    return lmHubParseTokenizerJson(hubRead(path, kMaxLmGpt2FileBytes), path);
}

LmTokenizer lmHubGpt2Tokenizer(const LmGpt2Vocabulary& vocabulary, const std::string& name) {
    HubJson vocab = HubJson::object();
    for (std::size_t id = 0; id < vocabulary.tokens.size(); ++id) vocab[vocabulary.tokens[id]] = id;
    if (vocab.size() != vocabulary.tokens.size())
        throw ModelFileError(hubShown(name), "a token has two ids (the vocabulary holds " + std::to_string(vocabulary.tokens.size()) +
                                                 " ids but " + std::to_string(vocab.size()) + " tokens)");
    std::string lines;
    for (std::size_t m = 0; m < vocabulary.merges.size(); ++m) {
        const auto& [left, right] = vocabulary.merges[m];
        if (left.empty() || right.empty() || (left + right).find_first_of(" \n\r") != std::string::npos)
            throw ModelFileError(hubShown(name), "merge " + std::to_string(m + 1) +
                                                     ": a token that is empty or holds a space or a line break");
        lines += left;
        lines += ' ';
        lines += right;
        lines += '\n';
    }
    try {
        return LmTokenizer::parseGpt2(vocab.dump(-1, ' ', false, HubJson::error_handler_t::strict), name, lines, name);
    } catch (const InputError& e) {
        // A merge's line in the text made above is its number.
        throw ModelFileError(hubShown(name), (e.line() > 0 ? "merge " + std::to_string(e.line()) + ": " : std::string()) + e.reason());
    } catch (const HubJson::exception& e) {
        throw ModelFileError(hubShown(name), std::string("a token that is not UTF-8: ") + hubShown(e.what(), 120));
    }
}

std::string lmModelArgumentPath(const std::string& argument) {
    std::error_code ec;
    const std::filesystem::path p(argument);
    if (std::filesystem::symlink_status(p, ec).type() != std::filesystem::file_type::not_found) return argument;
    if (p.extension() == ".safetensors" || !lmHubIsModelName(argument)) return argument;
    return lmHubResolveModel(argument);
}

}  // namespace attnlab
