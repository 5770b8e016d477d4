#pragma once
// File > Open Recent: the last corpora opened (a TSV, or a pair of aligned files), newest first.
#include "task/translate/CorpusLoader.h"

#include <QObject>
#include <QStringList>

class QMenu;

namespace attnlab {

class RecentFiles : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxEntries = 8;

    RecentFiles(QMenu* menu, QObject* parent);

    void add(const CorpusSource& source);
    void setEntries(const QStringList& entries);  // as stored in the settings
    const QStringList& entries() const { return entries_; }

Q_SIGNALS:
    void openTsv(const QString& path);
    void openParallel(const QString& sourcePath, const QString& targetPath);

private:
    void rebuild();

    QMenu* menu_;
    QStringList entries_;  // a path, or "source\ntarget"
};

}  // namespace attnlab
