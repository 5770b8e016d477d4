#include "base/lm/LmGettext.h"

#include "base/gettext/Gettext.h"

namespace attnlab {

LmCorpus lmGettextEnglish(const std::string& localeRoot, const std::string& lang, LmTokenKind kind, int context,
                          const LmTextOptions& options) {
    GettextReport report;
    std::string text;
    for (const GettextPair& p : gettextTranslationPairs(localeRoot, lang, report)) {
        std::string line = p.english;
        for (char& c : line)
            if (c == '\n' || c == '\r') c = ' ';  // one message, one document
        text += line;
        text += '\n';
    }
    return parseLmText(text, "gettext English (" + localeRoot + "/" + lang + ")", kind, context, options);
}

}  // namespace attnlab
