#pragma once
// How the main window's views are found: in groups (Data, Watch, Explain, Experiments), one tab per
// group and, inside a group of several views, one tab per view. Two short rows instead of one long
// one: 15-20 views stay reachable without a scrolling tab bar at 1366x768, and the group names say
// what a view is for. Each view is registered with a name that --tab, lessons and tests use.
#include <QList>
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

    // widget must also be a View; it is shown under its viewTitle() in its group, in the order added.
    template <typename ViewWidget>
    void addView(ViewGroup group, const QString& name, ViewWidget* view) {
        add(group, name, view, view);
    }

    bool show(const QString& name);  // case-insensitive; false for an unknown name
    QString currentName() const;
    QWidget* currentWidget() const;  // the view shown (not its scroll area)
    View* currentView() const;
    QStringList names() const;  // in navigation order: group by group
    QString titleOf(const QString& name) const;  // the label the user sees; empty for an unknown name
    QString groupTitleOf(const QString& name) const;
    QWidget* widget(const QString& name) const;
    const QList<View*>& views() const { return views_; }
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
    };

    void add(ViewGroup group, const QString& name, QWidget* widget, View* view);
    QTabWidget* page(ViewGroup group);
    const Entry* find(const QString& name) const;
    const Entry* current() const;

    QTabWidget* groups_;
    std::vector<std::pair<ViewGroup, QTabWidget*>> pages_;
    std::vector<Entry> entries_;
    QList<View*> views_;
};

}  // namespace attnlab
