#include "session/LessonFiles.h"

#include "base/TaskIds.h"

#include <QCoreApplication>
#include <QDir>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace attnlab {

namespace {

QString& languageSlot() {
    static QString language = QStringLiteral("en");
    return language;
}

QStringList toQStringList(const std::vector<std::string>& v) {
    QStringList out;
    for (const std::string& s : v) out << QString::fromStdString(s);
    return out;
}

std::string programDir() {
    return QCoreApplication::instance() != nullptr ? QCoreApplication::applicationDirPath().toStdString()
                                                   : executableDir();
}

}  // namespace

void setLessonLanguage(const QString& language) { languageSlot() = language.isEmpty() ? QStringLiteral("en") : language; }

QString lessonLanguage() { return languageSlot(); }

QString lessonString(const LocalizedText& text) { return QString::fromStdString(text.in(languageSlot().toStdString())); }

LessonCard lessonCardOf(const LessonFile& lesson) {
    LessonCard c;
    c.id = QString::fromStdString(lesson.id);
    c.title = lessonString(lesson.title);
    c.summary = lessonString(lesson.card);
    c.tab = QString::fromStdString(lesson.view);
    c.hidden = toQStringList(lesson.hidden);
    c.locked = toQStringList(lesson.locked);
    c.file = QString::fromStdString(lesson.file);
    return c;
}

QString builtinLessonFolder() { return QString::fromStdString(builtinLessonDir(programDir())); }

const std::vector<LessonFile>& builtinLessonFiles() {
    static const std::vector<LessonFile> lessons = [] {
        std::vector<LessonFile> out;
        const std::string dir = builtinLessonDir(programDir());
        if (dir.empty()) return out;
        std::vector<std::filesystem::path> files;
        std::error_code ec;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".json") files.push_back(it->path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            try {
                LessonFile l = readLessonFile(f.string());
                const bool duplicate = std::any_of(out.begin(), out.end(), [&](const LessonFile& o) { return o.id == l.id; });
                if (duplicate) throw std::runtime_error(f.string() + ": id: another lesson has the id '" + l.id + "'");
                out.push_back(std::move(l));
            } catch (const std::exception& e) {
                std::fprintf(stderr, "warning: lesson left out: %s\n", e.what());
            }
        }
        return out;
    }();
    return lessons;
}

std::vector<LessonFile> builtinLessonFilesOf(const char* windowTask) {
    std::vector<LessonFile> out;
    for (const LessonFile& l : builtinLessonFiles())
        if (tasks::windowTaskOf(l.task) == windowTask) out.push_back(l);
    return out;
}

const LessonFile* findBuiltinLessonFile(const QString& id) {
    for (const LessonFile& l : builtinLessonFiles())
        if (QString::fromStdString(l.id).compare(id, Qt::CaseInsensitive) == 0) return &l;
    return nullptr;
}

}  // namespace attnlab
