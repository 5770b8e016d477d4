// attnlab: the desktop application.
#include <QApplication>
#include <QLabel>
#include <QMainWindow>

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("AttnLab");
    QApplication::setOrganizationName("AttnLab");
    QMainWindow window;
    window.setWindowTitle("AttnLab");
    window.setCentralWidget(new QLabel("AttnLab"));
    window.resize(1200, 800);
    window.show();
    return QApplication::exec();
}
