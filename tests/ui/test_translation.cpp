#include "task/translate/DataPanel.h"
#include "window/MainWindow.h"
#include "window/Translations.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QCoreApplication>
#include <QFile>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QTabWidget>
#include <QXmlStreamReader>

#include <memory>
#include <set>
#include <vector>

#include "ui/WindowFixture.h"

using namespace attnlab;

namespace {

// tests/data -> tests -> the source tree.
const QString kCatalogue =
    QStringLiteral(ATTNLAB_SOURCE_DIR "/resources/translations/attnlab_zh_CN.ts");

struct Message {
    QString context;
    QString source;
    QString comment;
    QString translation;
    QString type;  // "unfinished", "vanished", "obsolete" or empty
    bool numerus = false;  // a plural message: one <numerusform> for Chinese
    int line = 0;
};

std::vector<Message> readCatalogue(const QString& path, QString* language) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    std::vector<Message> messages;
    QString context;
    Message current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("TS")) {
            *language = xml.attributes().value(QLatin1String("language")).toString();
        } else if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            current = Message{};
            current.context = context;
            current.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            current.line = static_cast<int>(xml.lineNumber());
        } else if (name == QLatin1String("source")) {
            current.source = xml.readElementText();
        } else if (name == QLatin1String("comment")) {
            current.comment = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            current.type = xml.attributes().value(QLatin1String("type")).toString();
            // Plural messages hold their forms in <numerusform> children.
            current.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (current.numerus) current.translation = current.translation.trimmed();
            messages.push_back(current);
        }
    }
    INFO(xml.errorString().toStdString());
    REQUIRE_FALSE(xml.hasError());
    return messages;
}

std::multiset<QString> placeholders(const QString& text) {
    std::multiset<QString> found;
    auto it = QRegularExpression(QStringLiteral("%\\d")).globalMatch(text);
    while (it.hasNext()) found.insert(it.next().captured());
    return found;
}

// The shared window fixture keeps the settings in a temporary folder, so the stored language of the
// machine is neither read nor changed. The windows here are opened by the tests themselves (after a
// translation is installed) and do not wait for the default dataset.
test::WindowOptions laterWindows(QMessageBox::StandardButton answer = QMessageBox::Discard) {
    test::WindowOptions options;
    options.createWindow = false;
    options.waitForCorpus = false;
    options.answer = answer;
    return options;
}

QString menuTitle(const MainWindow& window, int index) {
    const QList<QAction*> menus = window.menuBar()->actions();
    REQUIRE(menus.size() > index);
    return menus[index]->text();
}

}  // namespace

TEST_CASE("the zh_CN catalogue translates the main window, and removing it brings English back", "[translation]") {
    test::WindowFixture f(laterWindows());
    {
        Translations translations;
        REQUIRE(translations.install(QStringLiteral("zh_CN")));
        CHECK(translations.language() == QLatin1String("zh_CN"));
        const MainWindow& window = f.openWindow();
        CHECK(menuTitle(window, 0) == QStringLiteral("文件(&F)"));
        CHECK(menuTitle(window, 1) == QStringLiteral("运行(&R)"));
        CHECK(window.navigator()->titleOf(QStringLiteral("translate")) == QStringLiteral("翻译"));
        CHECK(window.navigator()->titleOf(QStringLiteral("heads")) == QStringLiteral("注意力头"));
        // Dataset descriptions come from core in English and are shown through the translated table.
        DatasetInfo info;
        info.name = "toy-en-zh";
        info.description = "core's text";
        CHECK(DataPanel::datasetDescription(info).contains(QStringLiteral("玩具语法")));
        CHECK(DataPanel::datasetLabel(info).contains(QStringLiteral("toy-en-zh")));
        // Qt's own catalogue (package qt6-translations-l10n) is installed beside AttnLab's: standard
        // buttons are translated too.
        if (QFile::exists(QLibraryInfo::path(QLibraryInfo::TranslationsPath) + QStringLiteral("/qtbase_zh_CN.qm")))
            CHECK(QCoreApplication::translate("QPlatformTheme", "Cancel") == QStringLiteral("取消"));
        f.closeWindow();  // before the catalogue is removed, as when the window went out of scope
    }
    const MainWindow& english = f.openWindow();
    CHECK(menuTitle(english, 0) == QLatin1String("&File"));
    CHECK(english.navigator()->titleOf(QStringLiteral("translate")) == QLatin1String("Translate"));
    DatasetInfo unknown;
    unknown.name = "not-a-dataset";
    unknown.description = "Falls back to core's description.";
    CHECK(DataPanel::datasetDescription(unknown) == QLatin1String("Falls back to core's description."));
}

TEST_CASE("the language follows the system locale unless the user chose one", "[translation]") {
    CHECK(Translations::resolve(QString(), {QStringLiteral("zh-CN")}) == QLatin1String("zh_CN"));
    CHECK(Translations::resolve(QString(), {QStringLiteral("zh-Hans-CN"), QStringLiteral("en-US")}) ==
          QLatin1String("zh_CN"));
    CHECK(Translations::resolve(QString(), {QStringLiteral("de-DE"), QStringLiteral("zh")}) == QLatin1String("zh_CN"));
    // English ahead of Chinese in the user's list wins; Traditional Chinese does not get Simplified.
    CHECK(Translations::resolve(QString(), {QStringLiteral("en-GB"), QStringLiteral("zh-CN")}) ==
          QLatin1String("en"));
    CHECK(Translations::resolve(QString(), {QStringLiteral("zh-TW")}) == QLatin1String("en"));
    CHECK(Translations::resolve(QString(), {QStringLiteral("C")}) == QLatin1String("en"));
    CHECK(Translations::resolve(QStringLiteral("en"), {QStringLiteral("zh-CN")}) == QLatin1String("en"));
    CHECK(Translations::resolve(QStringLiteral("zh_CN"), {QStringLiteral("en-US")}) == QLatin1String("zh_CN"));
    CHECK(Translations::catalogue(QStringLiteral("en")).isEmpty());

    Translations translations;
    CHECK_FALSE(translations.install(QStringLiteral("fr")));  // no such catalogue: stays English
    CHECK(translations.language() == QLatin1String("en"));
}

TEST_CASE("View > Language stores the choice for the next start", "[translation]") {
    test::WindowFixture f(laterWindows(QMessageBox::Ok));
    MainWindow& window = f.openWindow();
    const QStringList& told = f.questions;
    CHECK(Translations::storedLanguage().isEmpty());
    window.setLanguage(QStringLiteral("zh_CN"));
    CHECK(QSettings().value(QLatin1String(Translations::kSettingsKey)).toString() == QLatin1String("zh_CN"));
    CHECK(Translations::storedLanguage() == QLatin1String("zh_CN"));
    REQUIRE(told.size() == 1);
    CHECK(told[0].contains(QLatin1String("next time")));
    window.setLanguage(QStringLiteral("zh_CN"));  // no change, no message
    CHECK(told.size() == 1);
    window.setLanguage(QString());
    CHECK_FALSE(QSettings().contains(QLatin1String(Translations::kSettingsKey)));
    CHECK(told.size() == 2);
    QSettings().setValue(QLatin1String(Translations::kSettingsKey), QStringLiteral("klingon"));
    CHECK(Translations::storedLanguage().isEmpty());
}

TEST_CASE("the zh_CN catalogue is complete and the embedded copy matches it", "[translation]") {
    QString language;
    const std::vector<Message> messages = readCatalogue(kCatalogue, &language);
    CHECK(language == QLatin1String("zh_CN"));
    REQUIRE(messages.size() > 300);

    Translations translations;
    REQUIRE(translations.install(QStringLiteral("zh_CN")));
    int problems = 0;
    for (const Message& m : messages) {
        INFO(m.context.toStdString() << " line " << m.line << ": " << m.source.toStdString() << " -> "
                                     << m.translation.toStdString());
        const bool finished = m.type.isEmpty() && !m.translation.trimmed().isEmpty();
        const bool samePlaceholders = placeholders(m.source) == placeholders(m.translation);
        // An accelerator in the source keeps one in the translation ("文件(&F)").
        const bool accelerator = m.source.contains(QRegularExpression(QStringLiteral("&[^&\\s]"))) ==
                                 m.translation.contains(QRegularExpression(QStringLiteral("&[^&\\s]")));
        const QByteArray context = m.context.toUtf8();
        const QByteArray source = m.source.toUtf8();
        const QByteArray comment = m.comment.toUtf8();
        const int n = m.numerus ? 3 : -1;
        const QString embedded = QCoreApplication::translate(context.constData(), source.constData(),
                                                             m.comment.isEmpty() ? nullptr : comment.constData(), n);
        const QString expected = m.numerus ? QString(m.translation).replace(QStringLiteral("%n"), QStringLiteral("3"))
                                           : m.translation;
        const bool current = embedded == expected;
        CHECK(finished);
        CHECK(samePlaceholders);
        CHECK(accelerator);
        CHECK(current);
        if (!finished || !samePlaceholders || !accelerator || !current) ++problems;
    }
    CHECK(problems == 0);
}
