#pragma once
// The user-interface language: AttnLab's own catalogue (embedded as :/i18n/attnlab_<language>.qm)
// and Qt's "qtbase" catalogue for standard dialogs and buttons. The choice is stored in QSettings
// ("ui/language"): empty follows the system locale, otherwise a code from available().
#include <QString>
#include <QStringList>

class QTranslator;

namespace attnlab {

class Translations {
public:
    static constexpr const char* kSettingsKey = "ui/language";
    static constexpr const char* kEnglish = "en";
    static constexpr const char* kSimplifiedChinese = "zh_CN";

    Translations() = default;
    ~Translations();  // removes what it installed
    Translations(const Translations&) = delete;
    Translations& operator=(const Translations&) = delete;

    // Codes of the languages the interface can show, English (the source language) first.
    static QStringList available();
    // The stored choice ("" for the system default); an unknown stored value counts as "".
    static QString storedLanguage();
    static void setStoredLanguage(const QString& language);
    // The language to show for a stored choice: the choice itself, or for "" the first language in
    // uiLanguages (as QLocale::uiLanguages() lists them, most preferred first) that AttnLab has,
    // else English. Traditional Chinese does not fall back to Simplified.
    static QString resolve(const QString& choice, const QStringList& uiLanguages);
    // Where the embedded catalogue of a language is; empty for English, which needs none.
    static QString catalogue(const QString& language);

    // Installs the catalogues of language on the application, replacing those installed before.
    // False when AttnLab's catalogue for a language other than English could not be loaded.
    bool install(const QString& language);
    // The language install() last succeeded with ("en" before any).
    QString language() const { return language_; }

private:
    void remove();

    QTranslator* own_ = nullptr;
    QTranslator* qt_ = nullptr;
    QString language_ = QString::fromLatin1(kEnglish);
};

}  // namespace attnlab
