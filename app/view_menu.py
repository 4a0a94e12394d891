"""The View menu's and toolbar's 3-D view controls: fit, standard views, wireframe, transparent bodies,
parallel projection, the bodies' axes and a picture of the view."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

#: standard views: (name, shortcut, the direction the camera looks from, screen up), world axes
STANDARD_VIEWS = (
    ("Isometric", "Ctrl+Shift+1", (1.0, 1.0, 1.0), (0.0, 0.0, 1.0)),
    ("Front", "Ctrl+Shift+2", (0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
    ("Top", "Ctrl+Shift+3", (0.0, 0.0, 1.0), (0.0, 1.0, 0.0)),
    ("Side", "Ctrl+Shift+4", (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
)


#: the view toolbar's words (the menu shows the whole names)
SHORT = {"view_fit": "Fit", "view_isometric": "Iso", "view_wireframe": "Wire", "view_transparent": "See-through"}


class ViewControls:
    """The actions on `window`'s viewport; `menu_actions` in the order the View menu shows them, `toolbar_actions`
    those of the view toolbar."""

    def __init__(self, window):
        self.window = window
        view = self.view  # the view is made after the window shows (MainWindow.make_view): looked up when used
        self.fit = self._action("&Fit All", lambda _=False: view().reset_camera(), "Ctrl+0", "Every body in view",
                                "view_fit")
        self.views = [self._action(f"&{name}", lambda _=False, d=d, u=u: view().view_vector(d, viewup=u), key,
                                   f"Look from {name.lower()} ({', '.join(f'{v:g}' for v in d)}), all in view",
                                   f"view_{name.lower()}") for name, key, d, u in STANDARD_VIEWS]
        self.wireframe = self._action("&Wireframe", lambda on: view().set_style(wireframe=on), "Ctrl+Shift+W",
                                      "The bodies' edges only", "view_wireframe", checkable=True)
        self.transparent = self._action("T&ransparent Bodies", lambda on: view().set_style(transparent=on),
                                        "Ctrl+Shift+T", "See-through bodies, to see joints and forces inside",
                                        "view_transparent", checkable=True)
        self.parallel = self._action("&Parallel Projection", lambda on: view().set_parallel(on), None,
                                     "Parallel (orthographic) projection instead of perspective", "view_parallel",
                                     checkable=True)
        self.body_axes = self._action("Body &Axes", lambda on: view().set_body_axes(on), None,
                                      "Each body's axes at its origin, turning with it (x, y, z in the colours of the "
                                      "corner axes): the axes its points are typed in", "view_body_axes",
                                      checkable=True)
        self.picture = self._action("Save View &Image...", self.save_picture, None, "The 3-D view as a PNG file",
                                    "view_image")
        self.menu_actions = [self.fit, *self.views, None, self.wireframe, self.transparent, self.parallel,
                             self.body_axes, None, self.picture]
        self.toolbar_actions = [self.fit, *self.views, self.wireframe, self.transparent]

    def view(self):
        return self.window.viewport

    def set_enabled(self, on: bool) -> None:
        """The actions usable or not (not while the view is still being made)."""
        for act in self.menu_actions:
            if act is not None:
                act.setEnabled(on)

    def _action(self, text, slot, key, tip, name, checkable=False) -> QAction:
        act = self.window.action(text, slot, key, tip, name, checkable)
        act.setIconText(SHORT.get(name, text.replace("&", "")))  # the toolbar's word
        return act

    def save_picture(self) -> None:
        suggestion = str(self.window.doc.suggested_path(".png", "view"))
        path, _ = QFileDialog.getSaveFileName(self.window, "Save view image", suggestion, "PNG image (*.png)")
        if path:
            self.window.viewport.save_image(path)
            self.window.statusBar().showMessage(f"Wrote {path}", 8000)
