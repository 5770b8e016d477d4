// attnlab-cli datasets: lists every task's built-in datasets (CliTasks.h: FrontTask::datasets), or
// writes one to a file or folder (the task whose dataset it is writes it).
#include <algorithm>
#include <iostream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "CliTasks.h"
#include "Commands.h"
#include "support/CorpusOptions.h"
#include "base/InputError.h"

namespace attnlab::cli {

namespace {

void printTable(bool json) {
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const FrontTask& task : frontTasks())
            if (task.datasets)
                for (const DatasetRow& row : task.datasets())
                    if (!row.json.is_null()) out.push_back(row.json);
        std::cout << out.dump(2) << "\n";
        return;
    }
    const std::string nameHeader = "NAME", lenHeader = "MAX-LEN";
    std::size_t nameWidth = nameHeader.size();
    for (const FrontTask& task : frontTasks())
        if (task.datasets)
            for (const DatasetRow& row : task.datasets()) nameWidth = std::max(nameWidth, row.name.size());
    auto pad = [](const std::string& s, std::size_t width) {
        return s + std::string(width > s.size() ? width - s.size() : 0, ' ');
    };
    auto padLeft = [](const std::string& s, std::size_t width) {
        return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
    };
    std::cout << pad(nameHeader, nameWidth) << "  " << lenHeader << "  DESCRIPTION\n";
    for (const FrontTask& task : frontTasks()) {
        if (!task.datasets) continue;
        const std::vector<DatasetRow> rows = task.datasets();
        if (rows.empty()) continue;
        if (!task.datasetsHeading.empty()) std::cout << "\n" << task.datasetsHeading << "\n";
        for (const DatasetRow& row : rows) {
            for (std::size_t line = 0; line < std::max<std::size_t>(1, row.description.size()); ++line) {
                const bool first = line == 0;
                const std::string length = first && row.maxLength > 0 ? std::to_string(row.maxLength) : std::string();
                std::cout << pad(first ? row.name : std::string(), nameWidth) << "  " << padLeft(length, lenHeader.size())
                          << "  " << (line < row.description.size() ? row.description[line] : std::string()) << "\n";
            }
        }
    }
}

}  // namespace

void refuseFlags(const ArgParser& args, std::initializer_list<const char*> flags, const std::string& why) {
    for (const char* flag : flags)
        if (args.has(flag)) throw UsageError(std::string(flag) + " " + why);
}

int runDatasets(const Args& args) {
    std::set<std::string> switches = splitCjkSwitches();
    switches.insert("--json");
    ArgParser p(args, {"--write", "--out", "--size", "--seed", "--objects", "--max-len", "--alignments", "--length", "--split", "--period",
                       "--second-period", "--lag", "--noise"},
                switches);
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");

    if (!p.has("--write")) {
        refuseFlags(p, {"--out", "--size", "--seed", "--max-len", "--alignments", "--split-cjk", "--no-split-cjk", "--length",
                        "--period", "--second-period", "--lag", "--noise"},
                    "needs --write NAME");
        printTable(p.has("--json"));
        return kOk;
    }
    if (p.has("--json")) throw UsageError("--json only applies to the listing, not to --write");

    const std::string name = p.required("--write");
    const std::string out = p.required("--out");
    if (out.empty()) throw UsageError("--out needs a file name");
    for (const FrontTask& task : frontTasks())
        if (task.writeDataset && task.writeDataset(p, name, out)) return kOk;
    std::string names;
    for (const FrontTask& task : frontTasks())
        if (task.datasets)
            for (const DatasetRow& row : task.datasets()) names += (names.empty() ? "" : ", ") + row.name;
    throw UsageError("--write: unknown dataset '" + name + "' (one of: " + names + ")");
}

}  // namespace attnlab::cli
