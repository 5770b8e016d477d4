#pragma once
// How the main window's views are found: in groups (Data, Watch, Explain, Experiments), one tab per
// group and, inside a group of several views, one tab per view. Two short rows instead of one long
// one: 15-20 views stay reachable without a scrolling tab bar at 1366x768, and the group names say
// what a view is for. Each view is registered with a name that --tab, lessons and tests use.
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QTabWidget;

namespace attnlab {

class View;

enum class ViewGroup { Data, Watch, Explain, Experiments };

class ViewNavigator : public QWidget {
    Q_OBJECT

public:
    explicit ViewNavigator(QWidget* parent = nullptr);

    // widget must also be a View; it is shown under its viewTitle() in its group, in the order added,
    // while its task (a Task::id()) is the current one.
    template <typename ViewWidget>
    void addView(ViewGroup group, const QString& name, ViewWidget* view, const QString& task) {
        add(group, name, view, view, task);
    }
    // Shows the views of that task and hides the others'; shows the view the task showed when it
    // was left, or firstView the first time.
    void setTask(const QString& task, const QString& firstView = QString());
    QString task() const { return task_; }
    QString taskOf(const QString& name) const;  // empty for an unknown name

    // Case-insensitive; false for an unknown name or a view of another task than the current one.
    bool show(const QString& name);
    QString currentName() const;
    QWidget* currentWidget() const;  // the view shown (not its scroll area)
    View* currentView() const;
    QStringList names() const;  // the current task's, in navigation order: group by group
    QStringList allNames() const;  // every task's
    QString titleOf(const QString& name) const;  // the label the user sees; empty for an unknown name
    QString groupTitleOf(const QString& name) const;
    QWidget* widget(const QString& name) const;
    const QList<View*>& views() const { return views_; }  // every task's
    QList<View*> viewsOf(const QString& task) const;
    QTabWidget* groups() const { return groups_; }

    static QString groupTitle(ViewGroup group);

Q_SIGNALS:
    void currentChanged();

private:
    struct Entry {
        QString name;
        ViewGroup group;
        QWidget* widget;  // the view
        QWidget* page;    // its tab: the scroll area around it
        View* view;
        QString task;
    };

    void add(ViewGroup group, const QString& name, QWidget* widget, View* view, const QString& task);
    void rebuild();  // the tabs of the current task's views
    QTabWidget* page(ViewGroup group);
    const Entry* find(const QString& name) const;
    const Entry* current() const;

    QTabWidget* groups_;
    std::vector<std::pair<ViewGroup, QTabWidget*>> pages_;
    std::vector<Entry> entries_;
    QString task_;
    QMap<QString, QString> lastShown_;  // task -> the view it showed when another task was chosen
    QList<View*> views_;
};

}  // namespace attnlab
