"""The Qt binding keeps Python's reference counts: a defective one (PySide6 6.12.0 on Python 3.11) kills the
process after about 90,000 calls of any void method, i.e. within minutes of animation."""

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel, QWidget


class _Emitter(QObject):
    changed = Signal(int)


def test_void_calls_and_signals_keep_the_references_of_none_and_the_booleans(qtbot):
    w, label, emitter = QWidget(), QLabel(), _Emitter()
    qtbot.addWidget(w)
    qtbot.addWidget(label)
    calls = [lambda: w.setEnabled(True), lambda: label.setText("x"), w.update, lambda: emitter.changed.emit(1),
             w.isVisible]
    none0, bools0 = sys.getrefcount(None), sys.getrefcount(True) + sys.getrefcount(False)
    for _ in range(500):
        for call in calls:
            call()
    assert abs(sys.getrefcount(None) - none0) < 50
    assert abs(sys.getrefcount(True) + sys.getrefcount(False) - bools0) < 50
