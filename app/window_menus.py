"""The main window's menu bar and toolbars, laid out from the actions the window made (app.main_window)."""

from __future__ import annotations

from pathlib import Path

from core.errors import ModelError
from core.model.files import SUFFIX, load


def describe_examples(menu, examples: Path) -> None:
    """Each example's description as its entry's tooltip and status tip, read when the menu first shows (reading
    every model at start-up would cost some 50 ms); an example that does not read keeps its file name."""
    if menu.property("described"):
        return
    menu.setProperty("described", True)
    for act in menu.actions():
        path = examples / f"{act.text()}{SUFFIX}"
        try:
            text = load(path).description
        except ModelError:
            continue
        if text:
            act.setToolTip(f"{path.name}: {text}")
            act.setStatusTip(f"{path.name}: {text}")


def build_menus_and_toolbars(window, examples: Path) -> None:
    """File, Edit, View, Model, Gears, Loads, Simulate, Analysis and Help menus (File > Open Example lists the
    models in `examples`), and the File, Gears, Joints and Bodies, Loads and Simulation toolbars."""
    menu = window.menuBar()
    fm = menu.addMenu("&File")
    for act in (window.act_new, window.act_open):
        fm.addAction(act)
    window.examples_menu = fm.addMenu("Open &Example")
    for path in sorted(examples.glob(f"*{SUFFIX}")):
        window.examples_menu.addAction(window.action(path.stem, lambda _=False, p=path: window.open_file(p),
                                                     tip=f"Open the example {path.name}", name=f"example_{path.stem}"))
    window.examples_menu.setToolTipsVisible(True)
    window.examples_menu.aboutToShow.connect(lambda: describe_examples(window.examples_menu, examples))
    window.recent_menu = fm.addMenu("Open &Recent")
    fm.addSeparator()
    for act in (window.act_save, window.act_save_as):
        fm.addAction(act)
    fm.addSeparator()
    for act in (window.act_open_results, window.act_save_results, window.act_video):
        fm.addAction(act)
    fm.addSeparator()
    fm.addAction(window.act_quit)
    em = menu.addMenu("&Edit")
    em.addAction(window.act_undo)
    em.addAction(window.act_redo)
    em.addAction(window.history.toggleViewAction())
    em.addSeparator()
    em.addAction(window.act_duplicate)
    em.addAction(window.act_delete)
    vm = menu.addMenu("&View")
    for act in window.view_controls.menu_actions:
        vm.addSeparator() if act is None else vm.addAction(act)
    vm.addSeparator()
    for act in (window.act_forces, window.act_axes, window.act_circles):  # what the view draws: also under Simulate
        vm.addAction(act)
    vm.addSeparator()
    for dock in (window.tree, window.props, window.messages, window.history):
        vm.addAction(dock.toggleViewAction())
    mm = menu.addMenu("&Model")
    for act in (window.act_revolute, *window.joint_actions, window.act_import, window.act_cylinder, window.act_box):
        mm.addAction(act)
    mm.addSeparator()
    mm.addAction(window.act_move)
    mm.addSeparator()
    mm.addAction(window.act_check)
    gm = menu.addMenu("&Gears")
    for act in (window.act_helical, window.act_inner, window.act_bevel, window.act_pair, window.act_planetary):
        gm.addAction(act)
    lm = menu.addMenu("&Loads")
    for act in window.load_actions:
        lm.addAction(act)
    sm = menu.addMenu("&Simulate")
    for act in (window.act_settings, window.act_run, window.act_stop):
        sm.addAction(act)
    window.runs_menu = sm.addMenu("Show R&un")
    window.runs_menu.aboutToShow.connect(window.fill_runs_menu)
    sm.addSeparator()
    for act in (window.act_play, window.act_start, window.act_end, window.act_forces, window.act_axes,
                window.act_circles, window.act_video):
        sm.addAction(act)
    window.analysis_menu = menu.addMenu("&Analysis")
    window.analysis_menu.addAction(window.act_telemetry)
    window.analysis_menu.addAction(window.act_chbm)
    window.analysis_menu.addAction(window.act_train)
    window.analysis_menu.addAction(window.act_study)
    hm = menu.addMenu("&Help")
    hm.addAction(window.act_getting_started)
    hm.addAction(window.act_about)
    tb = window.addToolBar("File")
    tb.setObjectName("file_toolbar")
    for act in (window.act_new, window.act_open, window.act_save):
        tb.addAction(act)
    gt = window.addToolBar("Gears")
    gt.setObjectName("gears_toolbar")
    for act in (window.act_helical, window.act_inner, window.act_bevel, window.act_pair, window.act_planetary):
        gt.addAction(act)
    jt = window.addToolBar("Joints and Bodies")
    jt.setObjectName("joints_toolbar")
    for act in (window.act_revolute, *window.joint_actions, window.act_import, window.act_cylinder, window.act_box):
        jt.addAction(act)
    window.addToolBarBreak()
    lt = window.addToolBar("Loads")
    lt.setObjectName("loads_toolbar")
    for act in window.load_actions:
        lt.addAction(act)
    st = window.addToolBar("Simulation")
    st.setObjectName("simulation_toolbar")
    for act in (window.act_settings, window.act_run, window.act_stop):
        st.addAction(act)
    st.addSeparator()
    st.addAction(window.act_telemetry)
    st.addAction(window.act_chbm)
