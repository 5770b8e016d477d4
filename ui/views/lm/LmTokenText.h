#pragma once
// A language model's token as the views show it: a space, a line feed and a tab made visible
// (␣ ⏎ ⇥), since a character or BPE token is often nothing else. A byte-level BPE token (GPT-2's,
// whose strings are its bytes_to_unicode characters, as Hugging Face's convert_ids_to_tokens gives
// them) has them as Ġ, Ċ and ĉ: the same marks.
#include <QString>
#include <string>

namespace attnlab {

inline QString lmTokenText(const std::string& token) {
    QString t = QString::fromStdString(token);
    t.replace(QLatin1Char(' '), QChar(0x2423));
    t.replace(QLatin1Char('\n'), QChar(0x23CE));
    t.replace(QLatin1Char('\t'), QChar(0x21E5));
    t.replace(QChar(0x0120), QChar(0x2423));  // Ġ: the byte 0x20
    t.replace(QChar(0x010A), QChar(0x23CE));  // Ċ: 0x0A
    t.replace(QChar(0x0109), QChar(0x21E5));  // ĉ: 0x09
    return t;
}

}  // namespace attnlab
