"""Gear losses after Modelica's LossyGear: mesh efficiency and bearing friction, and what a gear at rest holds.

A lossy gear has an input shaft a and an output shaft b turning relative to
their support, w_a = r w_b (r the ratio). tau_a and tau_b are the torques the
shafts put into the gear [N m]. The gear itself is massless, so

    tau_b + r (tau_a - tau_loss) = 0,        power lost = tau_loss * w_a  [W].

The loss table's rows [|w_a|, eta_mf1, eta_mf2, tau_bf1, tau_bf2] give, at the
speed |w_a| (linear interpolation; below the first row's speed and above the last
row's the end rows hold, as if the table went on flat), the
mesh efficiency and the bearing friction referred to shaft a when shaft a
drives (1) and when shaft b drives (2). The loss torque in the four quadrants:

    w_a > 0, a drives:  (1 - eta_mf1) tau_a + tau_bf1      w_a > 0, b drives:  (1 - 1/eta_mf2) tau_a + tau_bf2
    w_a < 0, a drives:  (1 - eta_mf1) tau_a - tau_bf1      w_a < 0, b drives:  (1 - 1/eta_mf2) tau_a - tau_bf2

Which shaft drives is decided by the sign of tau_eta = tau_a - sign(w_a)
tau_bf_a: the torque corrected by the part of the bearing friction that sits
on shaft a (the fix of Modelica issue #108; deciding by tau_a alone chatters
where the two are close). tau_bf_a follows from the two friction columns,
tau_bf1 = eta_mf1 tau_bf_a + tau_bf_b / r and tau_bf2 = tau_bf_a / eta_mf2 +
tau_bf_b / r. At rest the gear is stuck while the torque it must hold,
tau_a + tau_b / r, lies between the loss torques at w_a = 0- and 0+.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Mode of a lossy gear: shaft a turning forwards, at rest (stuck), backwards.
FORWARD, STUCK, BACKWARD = 1, 0, -1


# The formulas on plain numbers (values: the 4-tuple eta_mf1, eta_mf2, tau_bf1, tau_bf2), so that the lossy pair's
# kernel code (core.engine.elements.lossy_gear_pair) and the Python below run the same ones.


def loss_values(table, speed: float) -> tuple[float, float, float, float]:
    """The table's (eta_mf1, eta_mf2, tau_bf1 [N m], tau_bf2 [N m]) at |speed| [rad/s] (table: rows (|w_a|, eta_mf1,
    eta_mf2, tau_bf1, tau_bf2)): linear between rows, the end rows held below the first row's speed and above the
    last row's (extending them linearly could leave (0, 1])."""
    n = table.shape[0]
    w = min(max(abs(speed), table[0, 0]), table[n - 1, 0])  # the end rows held: no efficiency beyond (0, 1]
    if n == 1:
        return table[0, 1], table[0, 2], table[0, 3], table[0, 4]
    k = int(np.searchsorted(table[:, 0], w, side="right")) - 1
    k = min(max(k, 0), n - 2)
    frac = (w - table[k, 0]) / (table[k + 1, 0] - table[k, 0])
    return (table[k, 1] + frac * (table[k + 1, 1] - table[k, 1]), table[k, 2] + frac * (table[k + 1, 2] - table[k, 2]),
            table[k, 3] + frac * (table[k + 1, 3] - table[k, 3]), table[k, 4] + frac * (table[k + 1, 4] - table[k, 4]))


def bearing_on_a(values) -> float:
    """tau_bf_a [N m]: the part of the bearing friction on shaft a (half of tau_bf1 when both efficiencies are 1)."""
    eta1, eta2, bf1, bf2 = values
    den = eta1 - 1.0 / eta2
    if abs(den) < 1e-12:
        return 0.5 * bf1
    return (bf1 - bf2) / den


def driving_torque(values, tau_a: float, direction: float) -> float:
    """tau_eta [N m]: tau_a less the bearing friction on shaft a in the direction of motion (+1 or -1)."""
    return tau_a - direction * bearing_on_a(values)


def mesh_factor(values, a_drives: bool) -> float:
    """k [-] in tau_b = -r (k tau_a - sign(w_a) tau_bf): eta_mf1 when a drives, 1 / eta_mf2 when b drives."""
    return values[0] if a_drives else 1.0 / values[1]


def bearing_friction(values, a_drives: bool) -> float:
    """tau_bf [N m] referred to shaft a for the driving side."""
    return values[2] if a_drives else values[3]


def loss_torque(values, tau_a: float, direction: float, a_drives: bool) -> float:
    """tau_loss [N m] in the quadrant of the direction of motion (+1, -1) and the driving side."""
    return (1.0 - mesh_factor(values, a_drives)) * tau_a + direction * bearing_friction(values, a_drives)


def holding_range(values, tau_a: float) -> tuple[float, float]:
    """(low, high) [N m]: at rest the gear stays stuck while tau_a + tau_b / r lies between them.

    high is the loss torque at w_a = 0+ (the torque needed to start forwards), low the one at w_a = 0- (to start
    backwards), each with the driving side those motions would have under tau_a.
    """
    high = loss_torque(values, tau_a, FORWARD, driving_torque(values, tau_a, FORWARD) > 0.0)
    low = loss_torque(values, tau_a, BACKWARD, not driving_torque(values, tau_a, BACKWARD) > 0.0)
    return low, high


def mesh_limit(values, tau0: float, direction: float) -> float:
    """The loss torque [N m] at w_a = 0+ (direction 1) or 0- (-1) of a gear whose losses sit at shaft a's side of a
    compliant mesh, which passes on tau0 [N m] (what shaft a's side gives the mesh, a state of its deflection).
    Moving that way, shaft a puts in tau_a = (tau0 + direction tau_bf) / k, the driving side being the one
    consistent with that tau_a (as `holding_range` decides it): the loss is tau_a - tau0. Stuck, it holds
    tau_a + tau_b / r, and a torque past this limit is one that motion that way takes without slowing."""
    tau_a = tau0
    for a_drives in (True, False):
        tau_a = (tau0 + direction * bearing_friction(values, a_drives)) / mesh_factor(values, a_drives)
        if (direction * driving_torque(values, tau_a, direction) >= 0.0) == a_drives:
            break  # else both sides are inconsistent by round-off: gear 2 driving's
    return tau_a - tau0


def mesh_holding_range(values, tau0: float) -> tuple[float, float]:
    """(low, high) [N m] as `holding_range`, for losses at shaft a's side of a compliant mesh passing on tau0."""
    return mesh_limit(values, tau0, BACKWARD), mesh_limit(values, tau0, FORWARD)


@dataclass(frozen=True)
class LossValues:
    """The table's values at one speed: efficiencies [-] and bearing friction referred to shaft a [N m]."""

    eta_mf1: float
    eta_mf2: float
    tau_bf1: float
    tau_bf2: float

    @property
    def values(self) -> tuple[float, float, float, float]:
        return self.eta_mf1, self.eta_mf2, self.tau_bf1, self.tau_bf2

    @property
    def bearing_a(self) -> float:
        """tau_bf_a [N m] (`bearing_on_a`)."""
        return bearing_on_a(self.values)

    def driving_torque(self, tau_a: float, direction: int) -> float:
        return driving_torque(self.values, tau_a, direction)

    def factor(self, a_drives: bool) -> float:
        return mesh_factor(self.values, a_drives)

    def loss_torque(self, tau_a: float, direction: int, a_drives: bool) -> float:
        return loss_torque(self.values, tau_a, direction, a_drives)

    def a_drives(self, tau_a: float, direction: int) -> bool:
        """Whether shaft a drives when moving in `direction` under tau_a (tau_eta = 0 counts as a driving)."""
        return direction * self.driving_torque(tau_a, direction) >= 0.0

    def holding_range(self, tau_a: float) -> tuple[float, float]:
        return holding_range(self.values, tau_a)

    def mesh_holding_range(self, tau0: float) -> tuple[float, float]:
        return mesh_holding_range(self.values, tau0)


class LossTable:
    """Rows [|w_a| [rad/s], eta_mf1, eta_mf2, tau_bf1 [N m], tau_bf2 [N m]], ordered by speed (checked by the model)."""

    def __init__(self, rows):
        table = np.asarray(rows, dtype=float).reshape(-1, 5)
        if not len(table):
            table = np.array([[0.0, 1.0, 1.0, 0.0, 0.0]])
        self.rows = table
        self.at_rest = self.at(0.0)

    def at(self, speed: float) -> LossValues:
        """The values at |speed| [rad/s] (`loss_values`)."""
        return LossValues(*(float(v) for v in loss_values(self.rows, float(speed))))
