#include "CorpusOptions.h"

#include "base/Datasets.h"

namespace attnlab::cli {

const std::set<std::string>& corpusValueFlags() {
    static const std::set<std::string> flags{"--corpus", "--src", "--tgt", "--dataset", "--size", "--data-seed"};
    return flags;
}

Corpus loadCorpus(const ArgParser& args, int maxLen) {
    const int sources = (args.has("--corpus") ? 1 : 0) + (args.has("--src") || args.has("--tgt") ? 1 : 0) +
                        (args.has("--dataset") ? 1 : 0);
    if (sources != 1) throw UsageError("give exactly one of --corpus FILE, --src FILE --tgt FILE, --dataset NAME");
    if (!args.has("--dataset") && (args.has("--size") || args.has("--data-seed")))
        throw UsageError(std::string(args.has("--size") ? "--size" : "--data-seed") + " only applies to --dataset");
    if (auto path = args.value("--corpus")) return readTsvCorpus(*path);
    if (args.has("--src") || args.has("--tgt")) {
        if (!args.has("--src")) throw UsageError("--tgt needs --src");
        if (!args.has("--tgt")) throw UsageError("--src needs --tgt");
        return readParallelCorpus(*args.value("--src"), *args.value("--tgt"));
    }
    DatasetOptions options;
    options.size = static_cast<std::size_t>(args.integer("--size", 2000, 1, 1000000));
    options.seed = static_cast<std::uint64_t>(args.integer("--data-seed", 1, 0, 1LL << 62));
    options.maxLen = maxLen;
    return generateDataset(args.required("--dataset"), options);
}

}  // namespace attnlab::cli
