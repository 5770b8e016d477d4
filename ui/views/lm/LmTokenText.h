#pragma once
// A language model's token as the views show it: a space, a line feed and a tab made visible
// (␣ ⏎ ⇥), since a character or BPE token is often nothing else.
#include <QString>
#include <string>

namespace attnlab {

inline QString lmTokenText(const std::string& token) {
    QString t = QString::fromStdString(token);
    t.replace(QLatin1Char(' '), QChar(0x2423));
    t.replace(QLatin1Char('\n'), QChar(0x23CE));
    t.replace(QLatin1Char('\t'), QChar(0x21E5));
    return t;
}

}  // namespace attnlab
