// Self-contained pieces of the main window: its icon (drawn rather than shipped as a file), the
// lesson card above the views, the About box and the language notice.
#include "window/MainWindow.h"
#include "render/Colormap.h"
#include "window/Translations.h"
#include "window/WindowActions.h"

#include "Version.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QStyle>
#include <QToolButton>

namespace attnlab {

QWidget* MainWindow::createLessonBar() {
    // The lesson card: what the current lesson shows, above the views; closable.
    lessonBar_ = new QFrame;
    lessonBar_->setObjectName(QStringLiteral("lessonBar"));
    lessonBar_->setFrameShape(QFrame::StyledPanel);
    lessonBar_->setAutoFillBackground(true);
    lessonBar_->setBackgroundRole(QPalette::AlternateBase);
    auto* lessonLayout = new QHBoxLayout(lessonBar_);
    lessonLayout->setContentsMargins(10, 6, 6, 6);
    lessonText_ = new QLabel;
    lessonText_->setWordWrap(true);
    lessonText_->setTextFormat(Qt::RichText);
    auto* closeLesson = new QToolButton;
    closeLesson->setAutoRaise(true);
    closeLesson->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    closeLesson->setToolTip(tr("Hide the lesson card"));
    connect(closeLesson, &QToolButton::clicked, this, [this] {
        lessonCards_.remove(current_);
        lessonBar_->hide();
    });
    lessonLayout->addWidget(lessonText_, 1);
    lessonLayout->addWidget(closeLesson, 0, Qt::AlignTop);
    lessonBar_->hide();
    return lessonBar_;
}

QIcon MainWindow::applicationIcon() {
    // A small attention map: a bright diagonal on a dark field, in viridis.
    QIcon icon;
    for (int size : {16, 32, 48, 64, 128, 256}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        const int n = 4;
        const double margin = size * 0.06;
        const double cell = (size - 2 * margin) / n;
        const double weights[n][n] = {
            {0.92, 0.05, 0.02, 0.01}, {0.10, 0.15, 0.70, 0.05}, {0.05, 0.80, 0.10, 0.05}, {0.02, 0.03, 0.10, 0.85}};
        QPainterPath clip;
        clip.addRoundedRect(QRectF(margin, margin, size - 2 * margin, size - 2 * margin), size * 0.12, size * 0.12);
        painter.setClipPath(clip);
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c)
                painter.fillRect(QRectF(margin + c * cell, margin + r * cell, cell + 0.5, cell + 0.5),
                                 QColor::fromRgb(Colormap::color(ColormapId::Viridis, weights[r][c])));
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About AttnLab"),
        tr("<h3>AttnLab %1</h3>"
           "<p>Train small sequence-to-sequence models on a small parallel corpus, type a sentence, and watch "
           "attention heatmaps, every head and the training curves update live.</p>"
           "<p>Revision %2 · Qt %3</p>")
            .arg(QString::fromLatin1(kVersion), QString::fromLatin1(kGitRevision), QString::fromLatin1(qVersion())));
}

void MainWindow::setLanguage(const QString& language) {
    const QString code = Translations::available().contains(language) ? language : QString();
    actions_->showLanguage(code);
    if (code == Translations::storedLanguage()) return;
    Translations::setStoredLanguage(code);
    const QString title = tr("Language");
    const QString text = tr("AttnLab will use the new language the next time it starts.");
    if (prompt_) {
        prompt_(title, text, QMessageBox::Ok);
    } else {
        QMessageBox::information(this, title, text);
    }
}

}  // namespace attnlab
