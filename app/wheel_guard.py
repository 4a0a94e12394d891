"""The mouse wheel scrolls a form; it changes a drop-down list only after the user clicked the list.

Qt's default gives the wheel to whatever list lies under the pointer: scrolling down the Properties dock changes
every list it passes over (a gear's body, a pair's carrier), each change a model edit. The application style
keeps lists out of the wheel's focus and lets a list take the wheel only while it has the keyboard focus (Qt's
SH_ComboBox_AllowWheelScrolling hint); a wheel event a list does not take goes on to the scroll area behind it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QProxyStyle, QStyle


class WheelGuardStyle(QProxyStyle):
    """The application's style, with the wheel kept from lists the user has not clicked."""

    def polish(self, widget_or_other):
        if isinstance(widget_or_other, QComboBox):  # a click or Tab gives it the focus; the wheel does not
            widget_or_other.setFocusPolicy(Qt.StrongFocus)
        return super().polish(widget_or_other)

    def styleHint(self, hint, option=None, widget=None, data=None):
        if hint == QStyle.SH_ComboBox_AllowWheelScrolling and widget is not None:
            return int(widget.hasFocus())
        return super().styleHint(hint, option, widget, data)


def guard_wheel(app: QApplication) -> None:
    """Give `app` the wheel guard over the style it has (once: a second call does nothing)."""
    if not isinstance(app.style(), WheelGuardStyle):
        app.setStyle(WheelGuardStyle(app.style().name()))
