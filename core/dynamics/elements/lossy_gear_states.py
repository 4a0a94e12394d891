"""The lossy gear pair's discrete states: their layout and the thresholds its kernel code
(core.dynamics.elements.lossy_gear_pair) and its modes between steps (core.dynamics.elements.lossy_gear_modes)
share. Its functions run in the kernels (so this file is part of the compiled program's sources).
"""

from __future__ import annotations

from core.gearing.losses import STUCK

# its discrete states (from DISC0): the mode, 1 when gear 1 drives, 1 when held; a lead's way (+-1, 0 for a pair
# alone), a member's lead (that pair's first event, -1 for no lead) and tie c
MODE, DRIVES, HELD, WAY, LEAD, TIE = range(6)
#: Speed [rad/s] past which a pair held at rest by imposed rows is moving: far above round-off of the imposed
#: speed, far below a speed at which a loss could matter (the pair is lossless until then)
HELD_SPEED = 1e-9
#: Torque [N m] by which what a pair or set holds at rest must pass its losses' limit to break away, and by which
#: the driving side's margin may be wrong: round-off of zero where nothing acts on it (no torque and no bearing
#: friction, a compliant mesh out of contact), far below any torque a gear holds
TORQUE_FLOOR = 1e-12


def locked(disc, d) -> bool:
    """Whether the pair whose states start at d holds its lock: stuck, and neither held by imposed rows nor a
    set's member."""
    return disc[d + MODE] == STUCK and disc[d + HELD] == 0


def member(disc, d) -> bool:
    """Whether the pair is a member of a set at rest (its lead holds the set)."""
    return disc[d + LEAD] >= 0
