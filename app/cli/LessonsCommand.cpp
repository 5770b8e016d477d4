// attnlab-cli lessons: lists the built-in lessons (core/base/lesson/Lesson.h, docs/lessons.md), or checks
// one lesson file. Front end only: lessons are JSON read by core's base, no model is needed.
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "Commands.h"
#include "base/lesson/Lesson.h"

namespace attnlab::cli {

int runLessons(const Args& args) {
    ArgParser p(args, {"--check", "--dir"}, {"--json"});
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    if (p.has("--check")) {
        if (p.has("--json") || p.has("--dir")) throw UsageError("--check FILE takes no other option");
        const std::string file = p.required("--check");
        if (file.empty()) throw UsageError("--check needs a lesson file");
        readLessonFile(file);  // throws InputError: exit 3, "error: FILE: field: reason"
        std::cout << file << ": ok\n";
        return kOk;
    }
    std::string dir = p.text("--dir", "");
    if (!p.has("--dir")) {
        dir = builtinLessonDir(executableDir());
        if (dir.empty()) {
            std::string looked;
            for (const std::string& d : lessonSearchPath(executableDir())) looked += (looked.empty() ? "" : ", ") + d;
            std::cerr << "error: the built-in lessons are not installed (looked in " << looked << ")\n";
            return kInternal;
        }
    } else if (dir.empty()) {
        throw UsageError("--dir needs a folder");
    }
    const std::vector<LessonFile> lessons = readLessonDir(dir);
    if (p.has("--json")) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const LessonFile& l : lessons)
            list.push_back({{"id", l.id}, {"title", l.title.in("en")}, {"task", l.task}, {"file", l.file}});
        std::cout << nlohmann::ordered_json{{"lessons", list}}.dump(2) << "\n";
        return kOk;
    }
    std::size_t idWidth = 2, taskWidth = 4;
    for (const LessonFile& l : lessons) {
        idWidth = std::max(idWidth, l.id.size());
        taskWidth = std::max(taskWidth, l.task.size());
    }
    auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w > s.size() ? w - s.size() : 0, ' '); };
    std::cout << pad("ID", idWidth) << "  " << pad("TASK", taskWidth) << "  TITLE\n";
    for (const LessonFile& l : lessons)
        std::cout << pad(l.id, idWidth) << "  " << pad(l.task, taskWidth) << "  " << l.title.in("en") << "\n";
    std::cout << "\nFrom " << dir << ". Start one with: attnlab --lesson ID (or --lesson FILE.json)\n";
    return kOk;
}

}  // namespace attnlab::cli
