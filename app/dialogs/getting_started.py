"""Help > Getting Started: a short page that walks a new user through a helical pair, a run, a plot and an
export, with the window's own shortcuts (read from its actions, so the page cannot go stale)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

from app.screen import fit_to_screen

STEPS = """
<h2>Getting started: a helical pair in seven steps</h2>
<ol>
<li><b>File &gt; New</b> {new}. Lengths are typed in mm and angles in degrees in every dialog; the model
keeps SI units.</li>
<li><b>Gears &gt; Helical Gear</b> {helical}: normal module m<sub>n</sub> 2 mm, 20 teeth, helix angle 15 deg,
right hand. The dialog shows m<sub>t</sub>, d, d<sub>a</sub>, d<sub>f</sub> and d<sub>b</sub> as you type.
Add a second gear: 40 teeth, <i>left</i> hand; leave its position (the pair places it). The dialog keeps your
last values.</li>
<li><b>Gears &gt; Gear Pair</b> {pair}: choose the two gears; the dialog offers to create their revolute joints
to the ground (body I the carrier, body J the gear) and takes z, module and angles from the gears.
<b>Move gear 2 into mesh</b> puts gear 2 at the centre distance a = (d<sub>1</sub> + d<sub>2</sub>) / 2 =
62.117 mm with its teeth in gear 1's spaces. (On a model without gears, <b>Generate both gears</b> makes
both from the pair's entries, on their joints and in mesh; a second Gear Pair starts on gear 2's joint, and
<b>Generate a stage on gear2's shaft</b> with its teeth typed makes a two-stage reducer.)</li>
<li>Select the first gear in the model tree, then <b>Loads &gt; Torque</b>: it starts on that gear's joint;
e.g. 10 N m constant. Select the second gear for a resisting torque or a speed motor on it: the Torque
dialog says what its torque is at the first gear's joint and whether it resists the drive.
<b>Model &gt; Check Model</b> {check} shows the degrees of freedom and warns when
nothing drives the model.</li>
<li><b>Simulate &gt; Run</b> {run}; <b>Play</b> {play} animates the result, <b>Home</b>/<b>End</b> go to
its ends. <b>Show Tooth Forces</b> draws F<sub>t</sub>, F<sub>r</sub> and F<sub>a</sub> at the pitch point.
Each run's plan line (compiled or not, which formulation) is in the Messages panel.</li>
<li><b>Analysis &gt; Telemetry</b> {telemetry}: double-click channels to plot them (tooth forces Ft, Fr, Fa, Fc
per pair; speeds per joint); hover a channel for its unit and sign convention. Cursors A and B read values
and their difference. Change a load and run again: <b>Compare with</b> over the plots draws the earlier run
dashed beside the new one, and <b>Simulate &gt; Show Run</b> shows an earlier run again.</li>
<li><b>Export CSV</b> in the Telemetry window writes the plotted channels or all of them; <b>File &gt; Save
Results As</b> writes the whole run (HDF5); <b>Simulate &gt; Export Video</b> an MP4 or a GIF (it starts at a
speed that shows the fastest teeth turning, and says how long the video lasts). A right-click on any plot
exports it as PNG or SVG.</li>
</ol>
<p>The 3-D view: drag with the left button to turn it, the middle button to pan, the wheel to zoom; a click
picks a body. <b>View &gt; Fit All</b> {fit} brings every body into view; the View menu and the bar over the view
have the isometric, front, top and side views, wireframe, see-through bodies, each body's axes and its named
frames (the axes its points are typed in) and a picture of the view. Undo and redo select the item they change.</p>
<p>More: <b>Gears &gt; Planetary Gearset</b> {planetary} builds a whole set with its loads;
<b>Analysis &gt; CHBM Study</b> {chbm} computes a pair's dynamic transmission error over a speed range;
<b>Analysis &gt; Train Dynamics</b> {train} does the same for the whole train (a planetary set, or a reducer whose
stages mesh at different frequencies) with its modes and Campbell diagram;
<b>Analysis &gt; Parameter Study</b> {study} varies fields of the model over a grid of cases.
<b>Edit &gt; Duplicate</b> {duplicate} copies the selected body or load. A right-click on an item of the model
tree offers what applies to it: Move / Rotate, Duplicate, Delete, the loads that start on it, a pair's CHBM
Study; on a section's heading, the tools that add an item there. F2 there renames the item selected. Undo {undo} and redo {redo} take back
every edit; <b>Edit &gt; Undo History</b> lists them, and a click on one goes back or forward to it.</p>
<p>Other pairs the same way: an <b>Inner Gear</b> and its pinion (the ring goes on joint 2, the pair is
internal), or two <b>Bevel Gears</b> (both made on the z axis: Move gear 2 into mesh turns the wheel to 90 deg,
gives it the pitch angle the pair needs, the complement of atan(z<sub>1</sub>/z<sub>2</sub>), and puts it on the
apex). For the teeth's
elasticity select the pair, then <b>Loads &gt; Compliant Mesh</b>: it says the ISO 6336 stiffness it will use and
the mesh mode's frequency, and the model check says the time step that mode needs (a double-click on that
warning integrates with adaptive steps instead). With nothing selected (a click on the view's background) the
Properties panel shows the model's name and description; an example's says how to run it.</p>
"""


def shortcut(action) -> str:
    """An action's shortcut as the user types it, in parentheses ('' when it has none)."""
    text = action.shortcut().toString(QKeySequence.NativeText)
    return f"({text})" if text else ""


class GettingStartedDialog(QDialog):
    """The page, with the shortcuts of `window`'s actions."""

    def __init__(self, window):
        super().__init__(window)
        self.setWindowTitle("Getting Started")
        self.setObjectName("getting_started")
        names = ("new", "helical", "pair", "check", "run", "play", "telemetry", "planetary", "chbm", "train", "study",
                 "duplicate", "undo", "redo")
        self.page = QTextBrowser()
        self.page.setObjectName("getting_started_page")
        keys = {n: shortcut(getattr(window, f"act_{n}")) for n in names}
        self.page.setHtml(STEPS.format(fit=shortcut(window.view_controls.fit), **keys))
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.page)
        lay.addWidget(buttons)
        fit_to_screen(self, 720, 620)
