#include "window/Translations.h"
#include "session/LessonFiles.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace attnlab {

Translations::~Translations() { remove(); }

QStringList Translations::available() {
    return {QString::fromLatin1(kEnglish), QString::fromLatin1(kSimplifiedChinese)};
}

QString Translations::storedLanguage() {
    const QString value = QSettings().value(QLatin1String(kSettingsKey)).toString();
    return available().contains(value) ? value : QString();
}

void Translations::setStoredLanguage(const QString& language) {
    QSettings settings;
    if (available().contains(language)) {
        settings.setValue(QLatin1String(kSettingsKey), language);
    } else {
        settings.remove(QLatin1String(kSettingsKey));
    }
}

QString Translations::resolve(const QString& choice, const QStringList& uiLanguages) {
    if (available().contains(choice)) return choice;
    for (const QString& name : uiLanguages) {
        const QLocale locale(name);
        if (locale.language() == QLocale::English) return QString::fromLatin1(kEnglish);
        if (locale.language() == QLocale::Chinese) {
            // QLocale fills in the likely script: "zh", "zh-CN", "zh-SG" and "zh-Hans" are Simplified.
            if (locale.script() == QLocale::SimplifiedHanScript) return QString::fromLatin1(kSimplifiedChinese);
        }
    }
    return QString::fromLatin1(kEnglish);
}

QString Translations::catalogue(const QString& language) {
    if (language.isEmpty() || language == QLatin1String(kEnglish) || !available().contains(language)) return {};
    return QStringLiteral(":/i18n/attnlab_%1.qm").arg(language);
}

bool Translations::install(const QString& language) {
    remove();
    const QString path = catalogue(language);
    if (path.isEmpty()) return language == QLatin1String(kEnglish) || language.isEmpty();
    auto* own = new QTranslator;
    if (!own->load(path)) {
        delete own;
        return false;
    }
    own_ = own;
    QCoreApplication::installTranslator(own_);
    // Qt's own strings (dialog buttons, the file dialog, About Qt); missing ones stay English.
    auto* qt = new QTranslator;
    if (qt->load(QLocale(language), QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        qt_ = qt;
        QCoreApplication::installTranslator(qt_);
    } else {
        delete qt;
    }
    language_ = language;
    setLessonLanguage(language);  // lesson files carry their own translations
    return true;
}

void Translations::remove() {
    for (QTranslator** t : {&qt_, &own_}) {
        if (*t == nullptr) continue;
        if (QCoreApplication::instance() != nullptr) QCoreApplication::removeTranslator(*t);
        delete *t;
        *t = nullptr;
    }
    language_ = QString::fromLatin1(kEnglish);
    setLessonLanguage(language_);
}

}  // namespace attnlab
