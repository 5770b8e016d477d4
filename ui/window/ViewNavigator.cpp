#include "window/ViewNavigator.h"

#include "views/View.h"

#include <QFrame>
#include <QScrollArea>
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
    auto* tabs = new QTabWidget;
    tabs->setDocumentMode(true);
    tabs->setUsesScrollButtons(false);
    tabs->setTabBarAutoHide(true);  // a group of one view shows the view alone
    tabs->tabBar()->setExpanding(false);
    // Groups appear in their enum order whatever the order views are added in.
    int index = 0;
    while (index < static_cast<int>(pages_.size()) && pages_[static_cast<std::size_t>(index)].first < group) ++index;
    pages_.insert(pages_.begin() + index, {group, tabs});
    groups_->insertTab(index, tabs, groupTitle(group));
    connect(tabs, &QTabWidget::currentChanged, this, &ViewNavigator::currentChanged);
    return tabs;
}

void ViewNavigator::add(ViewGroup group, const QString& name, QWidget* widget, View* view) {
    QTabWidget* tabs = page(group);
    // Each view in a frameless scroll area: a view wider or taller than a small screen (1024 x 768
    // with large fonts) scrolls instead of pushing the window past the screen's edge.
    auto* area = new QScrollArea;
    area->setWidget(widget);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    const int index = tabs->addTab(area, view->viewTitle());
    tabs->setTabToolTip(index, view->viewToolTip());
    entries_.push_back({name, group, widget, area, view});
    // Navigation order: group by group, then as added.
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& a, const Entry& b) { return a.group < b.group; });
    views_.clear();
    for (const Entry& e : entries_) views_ << e.view;
}

const ViewNavigator::Entry* ViewNavigator::find(const QString& name) const {
    for (const Entry& e : entries_)
        if (name.compare(e.name, Qt::CaseInsensitive) == 0) return &e;
    return nullptr;
}

bool ViewNavigator::show(const QString& name) {
    const Entry* e = find(name);
    if (e == nullptr) return false;
    for (std::size_t i = 0; i < pages_.size(); ++i) {
        if (pages_[i].first != e->group) continue;
        pages_[i].second->setCurrentWidget(e->page);
        groups_->setCurrentIndex(static_cast<int>(i));
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
