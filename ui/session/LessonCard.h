#pragma once
// What every task's lessons have in common: what the Lessons menu, the lesson card above the views
// and --lesson need to know of a lesson, whatever task it sets up. Each task's lesson struct
// (Lesson, ClassifierLesson, ImageLesson) derives from LessonCard and adds its settings; the helpers
// below are the one way its list is built, searched and listed as cards.
#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace attnlab {

struct LessonCard {
    QString id;       // for --lesson and tests
    QString title;    // the menu entry
    QString summary;  // what the lesson shows and what to look for (the card above the views)
    QString tab;      // the view it opens (ViewNavigator names)
    // From the lesson file (session/LessonFiles.h): the setup controls it hides or locks (stable
    // names, base/lesson/Lesson.h lessonControlNames) and the file it was read from.
    // (Default-initialised, so that a card written as {id, title, summary, tab} stays complete.)
    QStringList hidden{};
    QStringList locked{};
    QString file{};
};

// The translation context of every lesson's title and summary: LessonText::tr("...").
struct LessonText {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Lessons)
};

// A task's lesson with its card filled in and its settings at their defaults: where every lesson's
// definition starts. The title and summary are already translated (tr() in the lessons' file).
template <typename Lesson>
Lesson makeLesson(const char* id, const QString& title, const QString& summary, const char* tab) {
    Lesson l;
    l.id = QString::fromLatin1(id);
    l.title = title;
    l.summary = summary;
    l.tab = QString::fromLatin1(tab);
    return l;
}

// The lesson whose id matches (ignoring case), or an empty one (its id empty) when none does.
template <typename Lesson>
Lesson findLessonById(const std::vector<Lesson>& lessons, const QString& id) {
    for (const Lesson& l : lessons)
        if (l.id.compare(id, Qt::CaseInsensitive) == 0) return l;
    return {};
}

// The cards of a task's lessons, in their order.
template <typename Lesson>
QList<LessonCard> lessonCardsOf(const std::vector<Lesson>& lessons) {
    QList<LessonCard> cards;
    cards.reserve(static_cast<qsizetype>(lessons.size()));
    for (const Lesson& l : lessons) cards.append(static_cast<const LessonCard&>(l));
    return cards;
}

}  // namespace attnlab
