#pragma once
// The lessons as the window knows them: lesson files (core/base/lesson/Lesson.h, docs/lessons.md) read
// once from the built-in folder (builtinLessonDir: $ATTNLAB_LESSON_DIR, BINDIR/../share/attnlab/
// lessons, BINDIR/lessons), their texts in the interface language, and their cards. Each task's
// lesson struct (Lessons.h, ClassifierLessons.h, ImageLessons.h) is filled from a LessonFile by its
// converter; nothing else defines a lesson.
#include "base/lesson/Lesson.h"
#include "session/LessonCard.h"

#include <QString>

#include <vector>

namespace attnlab {

// The language lesson texts are shown in ("en", "zh_CN"); the window sets it with its translator.
void setLessonLanguage(const QString& language);
QString lessonLanguage();
// A lesson text in the lesson language (English where the file has no translation).
QString lessonString(const LocalizedText& text);

// The card of a lesson: id, title, card text, view, hidden and locked controls, file.
LessonCard lessonCardOf(const LessonFile& lesson);
// The card fields of a lesson file copied into a task's lesson struct.
template <typename Lesson>
Lesson lessonWithCard(const LessonFile& file) {
    Lesson l;
    static_cast<LessonCard&>(l) = lessonCardOf(file);
    return l;
}

// The folder the built-in lessons are read from (empty if none was found).
QString builtinLessonFolder();
// Every built-in lesson, in file-name order; read on first use. A broken file is left out (with a
// warning on stderr naming it and its field): the others still show.
const std::vector<LessonFile>& builtinLessonFiles();
// The built-in lessons of a window task ("translate", "classify", "images", "forecast").
std::vector<LessonFile> builtinLessonFilesOf(const char* windowTask);
// The built-in lesson with this id (ignoring case), or nullptr.
const LessonFile* findBuiltinLessonFile(const QString& id);

}  // namespace attnlab
