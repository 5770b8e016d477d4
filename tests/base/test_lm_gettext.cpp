// The language model's real-text dataset: the English messages of a locale folder's catalogues, one
// document each, deduplicated; a language without catalogues named in one line.
#include <catch2/catch.hpp>

#include "base/InputError.h"
#include "base/lm/LmGettext.h"
#include "MoFiles.h"
#include "TempDir.h"

using namespace attnlab;

TEST_CASE("lm: the English side of a language's catalogues, one message a document", "[lm]") {
    test::TempDir root;
    const std::string header = "Content-Type: text/plain; charset=UTF-8\n";
    root.file("fr/LC_MESSAGES/a.mo", test::moFile({{"", header}, {"Open file", "Ouvrir le fichier"},
                                                   {"Could not save\nthe file", "Impossible d'enregistrer"}}));
    root.file("fr/LC_MESSAGES/b.mo", test::moFile({{"", header}, {"Open file", "Ouvrir un fichier"}, {"Quit", "Quitter"}}));
    const LmCorpus c = lmGettextEnglish(root.path.string(), "fr", LmTokenKind::Words, 16);
    REQUIRE(c.documents.size() == 3);  // "Open file" once
    CHECK(c.tokenizer.decode(c.documents[0]) == "Open file");
    CHECK(c.tokenizer.decode(c.documents[1]) == "Could not save the file");  // one message, one line
    CHECK(c.tokenizer.decode(c.documents[2]) == "Quit");
    CHECK(c.name.find("fr") != std::string::npos);
    try {
        lmGettextEnglish(root.path.string(), "de", LmTokenKind::Chars, 16);
        FAIL("a language without catalogues was read");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("de") != std::string::npos);
    }
}
