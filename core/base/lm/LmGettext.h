#pragma once
// Real English text for the language model without a download: the English messages (msgids) of the
// gettext catalogues this computer carries (/usr/share/locale/LANG/LC_MESSAGES/*.mo), the same
// catalogues the translation task reads its English -> LANG pairs from. One document per distinct
// message: short sentences of software ("Could not open file %s", "Save changes before closing?").
#include <string>

#include "base/lm/LmText.h"

namespace attnlab {

// The English side of LANG's catalogues under localeRoot (deduplicated, in catalogue order) as a
// corpus. Throws InputError naming the catalogue folder when LANG has none (gettextTranslationPairs).
LmCorpus lmGettextEnglish(const std::string& localeRoot, const std::string& lang, LmTokenKind kind, int context,
                          const LmTextOptions& options = {});

}  // namespace attnlab
