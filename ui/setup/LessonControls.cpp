#include "setup/LessonControls.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFormLayout>
#include <QPointer>
#include <QTimer>
#include <QWidget>

namespace attnlab {

namespace {

constexpr const char* kName = "attnlabLessonControl";
constexpr const char* kHidden = "attnlabLessonHidden";
constexpr const char* kLocked = "attnlabLessonLocked";

// Keeps hidden controls hidden and locked ones disabled: the panels enable and show their rows as
// the data and the model allow, after a lesson was applied too.
class LessonControlGuard : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* object, QEvent* event) override {
        auto* w = qobject_cast<QWidget*>(object);
        if (w == nullptr) return false;
        if (event->type() == QEvent::EnabledChange && w->property(kLocked).toBool() && w->isEnabled()) {
            w->setEnabled(false);  // re-entrant: the next EnabledChange finds it disabled
        } else if (event->type() == QEvent::ShowToParent && w->property(kHidden).toBool()) {
            // ShowToParent: sent by show() also while the page it is on is not shown.
            QPointer<QWidget> guarded(w);  // hidden once the show has finished
            QTimer::singleShot(0, w, [guarded] {
                if (guarded && guarded->property(kHidden).toBool()) setVisibleInForm(guarded, false);
            });
        }
        return false;
    }

    static void setVisibleInForm(QWidget* w, bool visible) {
        // A row of a form (its label too), wherever the form sits in the parent's layouts.
        if (QWidget* parent = w->parentWidget()) {
            for (QFormLayout* form : parent->findChildren<QFormLayout*>()) {
                if (form->indexOf(w) >= 0) {
                    form->setRowVisible(w, visible);
                    return;
                }
            }
        }
        w->setVisible(visible);
    }
};

LessonControlGuard* guard() {
    static QPointer<LessonControlGuard> g;
    if (!g) g = new LessonControlGuard(QCoreApplication::instance());
    return g;
}

QList<QWidget*> namedControls(const QWidget* root) {
    QList<QWidget*> out;
    for (QWidget* w : root->findChildren<QWidget*>())
        if (!w->property(kName).toString().isEmpty()) out << w;
    return out;
}

QStringList namesWith(const QWidget* root, const char* flag) {
    QStringList out;
    for (QWidget* w : namedControls(root)) {
        const QString name = w->property(kName).toString();
        if (w->property(flag).toBool() && !out.contains(name)) out << name;
    }
    return out;
}

}  // namespace

void markLessonControl(QWidget* widget, const char* name) {
    widget->setProperty(kName, QString::fromLatin1(name));
    widget->installEventFilter(guard());
}

void markLessonControls(std::initializer_list<std::pair<QWidget*, const char*>> controls) {
    for (const auto& [w, name] : controls) markLessonControl(w, name);
}

QString lessonControlName(const QWidget* widget) { return widget->property(kName).toString(); }

void applyLessonControls(QWidget* root, const QStringList& hidden, const QStringList& locked) {
    for (QWidget* w : namedControls(root)) {
        const QString name = w->property(kName).toString();
        const bool hide = hidden.contains(name), lock = locked.contains(name);
        const bool wasHidden = w->property(kHidden).toBool(), wasLocked = w->property(kLocked).toBool();
        w->setProperty(kHidden, hide);
        w->setProperty(kLocked, lock);
        if (hide) LessonControlGuard::setVisibleInForm(w, false);
        else if (wasHidden) LessonControlGuard::setVisibleInForm(w, true);
        if (lock) w->setEnabled(false);
        else if (wasLocked) w->setEnabled(true);
    }
}

QStringList hiddenLessonControls(const QWidget* root) { return namesWith(root, kHidden); }

QStringList lockedLessonControls(const QWidget* root) { return namesWith(root, kLocked); }

}  // namespace attnlab
