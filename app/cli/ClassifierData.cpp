#include "ClassifierData.h"

#include "base/ClassifyDatasets.h"
#include "base/InputError.h"

namespace attnlab::cli {

const std::set<std::string>& classifierDataFlags() {
    static const std::set<std::string> flags{"--task", "--corpus", "--dataset", "--size", "--data-seed", "--length"};
    return flags;
}

ClassificationCorpus loadClassificationCorpus(const ArgParser& args) {
    if (args.has("--corpus") == args.has("--dataset"))
        throw UsageError("give exactly one of --corpus FILE.tsv, --dataset NAME");
    for (const char* flag : {"--size", "--data-seed", "--length"})
        if (!args.has("--dataset") && args.has(flag)) throw UsageError(std::string(flag) + " only applies to --dataset");
    if (auto path = args.value("--corpus")) return readClassificationTsv(*path);
    const std::string name = args.required("--dataset");
    const ClassificationDatasetInfo* info = findClassificationDataset(name);
    if (!info) {
        std::string names;
        for (const auto& d : classificationDatasets()) names += (names.empty() ? "" : ", ") + d.name;
        throw UsageError("--dataset: unknown classification dataset '" + name + "' (expected one of: " + names + ")");
    }
    if (args.has("--length") && info->defaultLength == 0)
        throw UsageError("--length applies to --dataset needle");
    const auto size = static_cast<std::size_t>(args.integer("--size", 2000, 2, 1000000));
    const auto seed = static_cast<std::uint64_t>(args.integer("--data-seed", 1, 0, 1LL << 62));
    const int length = static_cast<int>(args.integer("--length", 0, kMinNeedleLength, kMaxNeedleLength));
    return makeClassificationDataset(name, size, seed, length);
}

std::string taskOf(const std::vector<std::string>& args) {
    std::string task = "translate";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--task" && i + 1 < args.size()) task = args[i + 1];
        else if (args[i].rfind("--task=", 0) == 0) task = args[i].substr(7);
    }
    if (task != "translate" && task != "classify")
        throw UsageError("--task: unknown task '" + task + "' (expected one of: translate, classify)");
    return task;
}

}  // namespace attnlab::cli
