#pragma once
// The GUI's words for core's setting problems (base/Setting.h): each setting named as its control
// is labelled in the setup panel, in the interface language.
#include "base/Setting.h"

#include <QCoreApplication>
#include <QString>

#include <exception>

namespace attnlab {

class SettingNames {
    Q_DECLARE_TR_FUNCTIONS(attnlab::SettingNames)

public:
    static QString label(Setting setting);  // "Hidden size", "Learning rate", ...
    static QString describe(const SettingProblem& problem);
    // An exception's one-line message for the GUI: a setting problem worded with the controls'
    // names, anything else as its text.
    static QString messageOf(const std::exception& e);
};

}  // namespace attnlab
