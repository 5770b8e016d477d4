#include "task/translate/RecentFiles.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>

namespace attnlab {

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) { rebuild(); }

void RecentFiles::add(const CorpusSource& source) {
    const QString key = source.kind == CorpusSource::Kind::Parallel
                            ? source.path + QLatin1Char('\n') + source.targetPath
                            : source.path;
    entries_.removeAll(key);
    entries_.prepend(key);
    while (entries_.size() > kMaxEntries) entries_.removeLast();
    rebuild();
}

void RecentFiles::setEntries(const QStringList& entries) {
    entries_ = entries.mid(0, kMaxEntries);
    rebuild();
}

void RecentFiles::rebuild() {
    menu_->clear();
    for (const QString& entry : entries_) {
        const QStringList parts = entry.split(QLatin1Char('\n'));
        const QString label = parts.size() == 2 ? QFileInfo(parts[0]).fileName() + QStringLiteral(" + ") +
                                                      QFileInfo(parts[1]).fileName()
                                                : QFileInfo(entry).fileName();
        QAction* action = menu_->addAction(label);
        action->setToolTip(QDir::toNativeSeparators(parts.join(QStringLiteral(" + "))));
        connect(action, &QAction::triggered, this, [this, parts] {
            if (parts.size() == 2) {
                Q_EMIT openParallel(parts[0], parts[1]);
            } else {
                Q_EMIT openTsv(parts[0]);
            }
        });
    }
    if (!entries_.isEmpty()) {
        menu_->addSeparator();
        menu_->addAction(tr("&Clear Menu"), this, [this] {
            entries_.clear();
            rebuild();
        });
    }
    menu_->setEnabled(!entries_.isEmpty());
}

}  // namespace attnlab
