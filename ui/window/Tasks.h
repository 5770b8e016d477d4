#pragma once
// What a user can work on in AttnLab. Each task brings its data choices, model settings and views
// (docs/ARCHITECTURE.md, "Adding a task"); the Task box above the setup panel lists them: translation,
// text classification and images; time series are planned.
#include <QCoreApplication>
#include <QString>

#include <vector>

namespace attnlab {

struct TaskInfo {
    QString id;       // "translation", "classify", "images"
    QString title;    // the Task box's entry, in the interface language
    QString summary;  // its tooltip
};

class Tasks {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Tasks)

public:
    static std::vector<TaskInfo> all();
};

}  // namespace attnlab
