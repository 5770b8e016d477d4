#include "views/ViewNavigator.h"

#include "views/View.h"

#include <QFrame>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

ViewNavigator::ViewNavigator(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    groups_ = new QTabWidget;
    groups_->setObjectName(QStringLiteral("viewGroups"));
    groups_->setDocumentMode(true);
    groups_->setUsesScrollButtons(false);
    layout->addWidget(groups_);
    connect(groups_, &QTabWidget::currentChanged, this, &ViewNavigator::currentChanged);
}

QString ViewNavigator::groupTitle(ViewGroup group) {
    switch (group) {
    case ViewGroup::Data: return tr("Data");
    case ViewGroup::Watch: return tr("Watch");
    case ViewGroup::Explain: return tr("Explain");
    case ViewGroup::Experiments: return tr("Experiments");
    }
    return QString();
}

QTabWidget* ViewNavigator::page(ViewGroup group) {
    for (const auto& [g, tabs] : pages_)
        if (g == group) return tabs;
    auto* tabs = new QTabWidget(this);
    tabs->hide();
    tabs->setDocumentMode(true);
    tabs->setUsesScrollButtons(false);
    tabs->setTabBarAutoHide(true);  // a group of one view shows the view alone
    tabs->tabBar()->setExpanding(false);
    // Groups appear in their enum order whatever the order views are added in.
    std::size_t index = 0;
    while (index < pages_.size() && pages_[index].first < group) ++index;
    pages_.insert(pages_.begin() + static_cast<std::ptrdiff_t>(index), {group, tabs});
    connect(tabs, &QTabWidget::currentChanged, this, &ViewNavigator::currentChanged);
    return tabs;
}

void ViewNavigator::add(ViewGroup group, const QString& name, QWidget* widget, View* view, const QString& task) {
    page(group);
    // Each view in a frameless scroll area: a view wider or taller than a small screen (1024 x 768
    // with large fonts) scrolls instead of pushing the window past the screen's edge. The navigator
    // owns the area until a tab does (another task's views wait hidden).
    auto* area = new QScrollArea(this);
    area->hide();
    area->setWidget(widget);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    entries_.push_back({name, group, widget, area, view, task});
    // Navigation order: group by group, then as added.
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& a, const Entry& b) { return a.group < b.group; });
    views_.clear();
    for (const Entry& e : entries_) views_ << e.view;
    if (task == task_) rebuild();
}

void ViewNavigator::setTask(const QString& task, const QString& firstView) {
    if (task == task_) return;
    if (!task_.isEmpty() && !currentName().isEmpty()) lastShown_[task_] = currentName();
    task_ = task;
    rebuild();
    // Back to a task: the view it showed when it was left; the first time, firstView.
    const QString view = lastShown_.value(task, firstView);
    if (!view.isEmpty()) show(view);
}

void ViewNavigator::rebuild() {
    const QString shown = currentName();
    {
        const QSignalBlocker blockGroups(groups_);
        while (groups_->count() > 0) groups_->removeTab(0);
        for (const auto& [group, tabs] : pages_) {
            const QSignalBlocker blockTabs(tabs);
            while (tabs->count() > 0) tabs->removeTab(0);
            for (const Entry& e : entries_) {
                if (e.group != group) continue;
                if (e.task != task_) {
                    if (e.page->parentWidget() != this) e.page->setParent(this);  // parked, hidden
                    e.page->hide();
                    continue;
                }
                const int index = tabs->addTab(e.page, e.view->viewTitle());
                tabs->setTabToolTip(index, e.view->viewToolTip());
            }
            if (tabs->count() > 0) groups_->addTab(tabs, groupTitle(group));
        }
    }
    if (!show(shown)) Q_EMIT currentChanged();
}

QString ViewNavigator::taskOf(const QString& name) const {
    const Entry* e = find(name);
    return e ? e->task : QString();
}

QList<View*> ViewNavigator::viewsOf(const QString& task) const {
    QList<View*> out;
    for (const Entry& e : entries_)
        if (e.task == task) out << e.view;
    return out;
}

const ViewNavigator::Entry* ViewNavigator::find(const QString& name) const {
    for (const Entry& e : entries_)
        if (name.compare(e.name, Qt::CaseInsensitive) == 0) return &e;
    return nullptr;
}

bool ViewNavigator::show(const QString& name) {
    const Entry* e = find(name);
    if (e == nullptr || e->task != task_) return false;
    for (const auto& [group, tabs] : pages_) {
        if (group != e->group) continue;
        tabs->setCurrentWidget(e->page);
        groups_->setCurrentWidget(tabs);
    }
    return true;
}

const ViewNavigator::Entry* ViewNavigator::current() const {
    const auto* tabs = qobject_cast<QTabWidget*>(groups_->currentWidget());
    const QWidget* page = tabs ? tabs->currentWidget() : nullptr;
    for (const Entry& e : entries_)
        if (e.page == page) return &e;
    return nullptr;
}

QWidget* ViewNavigator::currentWidget() const {
    const Entry* e = current();
    return e ? e->widget : nullptr;
}

QString ViewNavigator::currentName() const {
    const Entry* e = current();
    return e ? e->name : QString();
}

View* ViewNavigator::currentView() const {
    const Entry* e = current();
    return e ? e->view : nullptr;
}

QStringList ViewNavigator::names() const {
    QStringList out;
    for (const Entry& e : entries_)
        if (e.task == task_) out << e.name;
    return out;
}

QStringList ViewNavigator::allNames() const {
    QStringList out;
    for (const Entry& e : entries_) out << e.name;
    return out;
}

QString ViewNavigator::titleOf(const QString& name) const {
    const Entry* e = find(name);
    return e ? e->view->viewTitle() : QString();
}

QString ViewNavigator::groupTitleOf(const QString& name) const {
    const Entry* e = find(name);
    return e ? groupTitle(e->group) : QString();
}

QWidget* ViewNavigator::widget(const QString& name) const {
    const Entry* e = find(name);
    return e ? e->widget : nullptr;
}

}  // namespace attnlab
