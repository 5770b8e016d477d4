#pragma once
// Internal to the gettext reader (Gettext.cpp, GettextFormats.cpp, GettextClean.cpp): helpers
// those files share. Not part of the public API (that is Gettext.h); nothing else includes this.
#include <string>

namespace attnlab::gettext_detail {

inline bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// Whether s (UTF-8) holds a letter of some script (see isLetterCodePoint in GettextClean.cpp):
// tells "Open" and "打开" from "%s: %s", "100%" and "→". Defined in GettextClean.cpp.
bool hasLetter(const std::string& s);

}  // namespace attnlab::gettext_detail
