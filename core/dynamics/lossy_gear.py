"""A gear pair with losses in the multibody system: mesh efficiency, bearing friction, stuck phases as events.

The physics (loss table, quadrants, driving side, holding range) is in
core.gearing.losses; this module puts it on a pair of the system. Shaft a is
gear 1, shaft b gear 2, both measured relative to the pair's carrier about
their own axes (w_a = a1 . (w_1 - w_c)), so a pair on a moving carrier (a
planetary set) has its losses in the carrier's frame. r = w_a / w_b comes from
the pair's velocity row at assembly.

While the pair rolls, the tooth force on gear 2 is k times the lossless one
(k = eta_mf1 when gear 1 drives, 1 / eta_mf2 when gear 2 drives) and the rest,
(1 - k) times it, acts on the carrier at the pitch point, so forces and
moments still balance; the bearing friction referred to gear 1, tau_bf, acts
as a couple -r sign(w_a) tau_bf about gear 2's axis between gear 2 and the
carrier. That is tau_b = -r (k tau_a - sign(w_a) tau_bf) with tau_a, tau_b the
torques the gears put into the pair, as in the massless gear of Modelica's
LossyGear, and the power lost is tau_loss w_a with tau_loss = tau_a + tau_b / r.
When the pair is stuck, a lock row holds w_a = 0 (and the mesh is lossless, no
power flows); its multiplier and the tooth force give the torque it holds.

The mode (forward, stuck, backward) and the driving side are discrete states,
held fixed within a step. Two event functions per pair, each positive while the
current mode is consistent, tell the run where it stops being so; the run
locates the zero on the step's interpolant and calls `decide`, which chooses the
new mode from the state there, and the integrator restarts:

rolling  'stop': sign(w_a) w_a (the shaft reaches rest);  'flow': the margin of
         the driving side, direction * tau_eta (negated when gear 2 drives)
stuck    'stop': high - held (the torque to hold passes what the losses hold
         forwards);  'flow': held - low (or backwards)
"""

from __future__ import annotations

import numpy as np

from core.dynamics.constraints import Constraint, GearConstraint, Snapshot, cross
from core.dynamics.events import Event
from core.gearing.losses import BACKWARD, FORWARD, STUCK, LossTable, LossValues

#: Share of the torques' scale by which the driving side may be wrong before it is switched (round-off at
#: tau_eta = 0, the balanced case of Modelica issue #108, must not chatter).
FLOW_TOLERANCE = 1e-9


class LockConstraint(Constraint):
    """a1 . (w_gear - w_carrier) = 0: a stuck lossy pair's gear 1 held at rest on its carrier (one row)."""

    rows = 1
    stabilised = True

    def __init__(self, name: str, carrier: int, gear: int, axis_in_gear: np.ndarray):
        self.name, self.carrier, self.gear, self.axis = name, carrier, gear, axis_in_gear

    def evaluate(self, s: Snapshot):
        _, rg, _, wg = s.pose(self.gear)
        _, _, _, wc = s.pose(self.carrier)
        a = rg @ self.axis
        jg = np.concatenate([np.zeros(3), a])[None]
        jc = -jg
        gamma = np.array([-(cross(wg, a) @ (wg - wc))])
        return [(self.carrier, jc, jc), (self.gear, jg, jg)], gamma, np.zeros(1)


class LossyGear:
    """The losses of one gear pair (rigid or compliant) and their discrete state. See the module docstring."""

    def __init__(self, name: str, table: LossTable, gear: GearConstraint, carrier: int, start: Snapshot,
                 compliant=None):
        """`start`: the bodies' poses at assembly, for the pair's constant ratio and mesh radius."""
        self.name, self.table, self.gear, self.carrier, self.compliant = name, table, gear, carrier, compliant
        self.b1, self.b2 = gear.j1.bj, gear.j2.bj
        self.lock = LockConstraint(f"{name} (stuck)", carrier, self.b1, gear.j1.aj)
        self.mode = FORWARD
        self.a_drives = True
        # J1 . tw1, the moment arm of the tooth force about gear 1's axis [m], and r = w_a / w_b from the velocity
        # row: both fixed by the geometry (the axes do not move in the carrier). The tooth force's radial and
        # axial parts act in the plane of each gear's axis and the pitch point, so they turn neither gear: the
        # torque of Ft on gear k is Ft J_k . tw_k.
        (_, j1, _, _), (_, j2, _, _) = gear.blocks(start)[0]
        (_, _, tw1), (_, _, tw2) = self._axes(start)
        self.arm = float(j1[0] @ tw1)
        self.ratio = -float(j2[0] @ tw2) / self.arm

    # ------------------------------------------------------------------ kinematics

    def _axes(self, s: Snapshot):
        """World axes and axis points of both gears, and their twists relative to the carrier per unit speed."""
        out = []
        for b, g in ((self.b1, self.gear.j1), (self.b2, self.gear.j2)):
            x, rot, _, _ = s.pose(b)
            a, p = rot @ g.aj, x + rot @ g.sj
            out.append((a, p, np.concatenate([cross(a, x - p), a])))
        return out

    def speeds(self, s: Snapshot) -> tuple[float, float]:
        """w_a, w_b [rad/s]: gear 1 and gear 2 relative to the carrier about their axes."""
        _, _, _, wc = s.pose(self.carrier)
        w = []
        for b, g in ((self.b1, self.gear.j1), (self.b2, self.gear.j2)):
            _, rot, _, wb = s.pose(b)
            w.append(float((rot @ g.aj) @ (wb - wc)))
        return w[0], w[1]

    def values(self, s: Snapshot) -> LossValues:
        return self.table.at(self.speeds(s)[0])

    @property
    def rolling(self) -> bool:
        return self.mode != STUCK

    # ------------------------------------------------------------------ forces while rolling

    def factor(self, s: Snapshot) -> float:
        """k: the share of the lossless tooth force that reaches gear 2 (1 when stuck)."""
        return self.values(s).factor(self.a_drives) if self.rolling else 1.0

    def scale_blocks(self, s: Snapshot, blocks):
        """The gear row's blocks with gear 2's force scaled by k and the rest on the carrier (rolling only)."""
        if not self.rolling:
            return blocks
        k = self.factor(s)
        if k == 1.0:
            return blocks
        (b1, j1, g1, sep1), (b2, j2, g2, sep2) = blocks
        x2 = s.pose(b2)[0]
        out = [(b1, j1, g1, sep1), (b2, j2, k * g2, k * sep2)]
        if self.carrier >= 0:
            xc = s.pose(self.carrier)[0]
            out.append((self.carrier, None, (1.0 - k) * _moved(g2, x2 - xc), (1.0 - k) * _moved(sep2, x2 - xc)))
        return out

    def bearing_torque(self, values: LossValues) -> float:
        """The couple about gear 2's axis from the bearing friction, -r sign(w_a) tau_bf [N m] (0 when stuck)."""
        if not self.rolling:
            return 0.0
        return -self.ratio * self.mode * values.friction(self.a_drives)

    def apply(self, t: float, s: Snapshot, loads) -> None:
        """The bearing friction couple on gear 2 and its reaction on the carrier."""
        torque = self.bearing_torque(self.values(s))
        if torque:
            (_, _, _), (a2, _, _) = self._axes(s)
            loads.torque(self.b2, torque * a2)
            loads.torque(self.carrier, -torque * a2)

    def compliant_force(self, s: Snapshot, d: np.ndarray, point: np.ndarray, loads) -> None:
        """A compliant mesh's force d on gear 1 at `point`: -k d on gear 2, -(1 - k) d on the carrier."""
        k = self.factor(s)
        loads.force_at(self.b2, -k * d, point - s.pose(self.b2)[0])
        if k != 1.0:
            loads.force_at(self.carrier, -(1.0 - k) * d, point - s.pose(self.carrier)[0])

    # ------------------------------------------------------------------ torques and power

    def torques(self, s: Snapshot, tooth: float, lock: float) -> dict:
        """tau_a, tau_b [N m] (what the gears put into the pair), the lossless torque on gear 2, r, w_a, w_b.

        `tooth` is the gear row's multiplier Ft [N] (rigid pairs; ignored for a
        compliant one, whose force follows from the state); `lock` the lock
        row's multiplier [N m] (0 while rolling).
        """
        if self.compliant is not None:
            (_, _, tw1), (_, _, tw2) = self._axes(s)
            d, point, tau1 = self.compliant.tooth_force(s)
            t1 = float(np.concatenate([d, cross(point - s.pose(self.b1)[0], d)]) @ tw1) + tau1
            t2 = float(np.concatenate([-d, cross(point - s.pose(self.b2)[0], -d)]) @ tw2)
        else:
            t1 = tooth * self.arm
            t2 = -self.ratio * t1
        w_a, w_b = self.speeds(s)
        values = self.table.at(w_a)
        k = values.factor(self.a_drives) if self.rolling else 1.0
        bearing = self.bearing_torque(values)
        return {"tau_a": -(t1 + lock), "tau_b": -(k * t2 + bearing), "lossless_2": t2, "bearing": bearing,
                "ratio": self.ratio, "w_a": w_a, "w_b": w_b, "k": k}

    def loss_power(self, tq: dict) -> float:
        """Power taken by the losses [W]: (1 - k) times the lossless power into gear 2, less the bearing couple's."""
        if not self.rolling:
            return 0.0
        return tq["w_b"] * ((1.0 - tq["k"]) * tq["lossless_2"] - tq["bearing"])

    # ------------------------------------------------------------------ modes

    def margins(self, tq: dict) -> tuple[float, float]:
        """The two event functions ('stop', 'flow') from the pair's torques: both positive while the mode holds."""
        tau_a, held = tq["tau_a"], tq["tau_a"] + tq["tau_b"] / tq["ratio"]
        if self.rolling:
            vals = self.table.at(tq["w_a"])
            scale = abs(tau_a) + vals.tau_bf1 + vals.tau_bf2
            eta = vals.driving_torque(tau_a, self.mode)
            side = 1.0 if self.a_drives else -1.0
            if self.mode == BACKWARD:
                side = -side
            return self.mode * tq["w_a"], side * eta + FLOW_TOLERANCE * scale
        low, high = self.table.at_rest.holding_range(tau_a)
        return high - held, held - low

    def at_rest(self, tq: dict, breaks: int = 0) -> str:
        """With the pair held (mode STUCK, lock row on): stay stuck or start rolling; says what it decided.

        The driving side of a pair that starts rolling is chosen by the system
        afterwards, from the torques it gives rolling.

        `breaks`: an event found the torque to hold at a limit of the holding
        range (FORWARD: the upper one, BACKWARD: the lower one), so the pair
        starts that way although the two are equal to round-off.
        """
        held, tau_a = tq["tau_a"] + tq["tau_b"] / tq["ratio"] + 0.0, tq["tau_a"]  # + 0.0: no '-0' in messages
        low, high = (v + 0.0 for v in self.table.at_rest.holding_range(tau_a))
        if held > high or breaks == FORWARD:
            self.mode = FORWARD
            return f"starts forwards: {held:.6g} N m to hold, above {high:.6g} N m"
        if held < low or breaks == BACKWARD:
            self.mode = BACKWARD
            return f"starts backwards: {held:.6g} N m to hold, below {low:.6g} N m"
        # held is a difference of torques: shown to their resolution (a round-off residue of 1e-31 N m is 0)
        scale = max(abs(tau_a), abs(tq["tau_b"] / tq["ratio"]), abs(low), abs(high))
        shown = held if abs(held) > 1e-12 * scale else 0.0
        return f"stuck: it holds {shown:.6g} N m (losses hold {low:.6g} to {high:.6g} N m at rest)"

    def events(self, margins) -> list[Event]:
        """The pair's two event functions; `margins(t, y)` gives this pair's (stop, flow) at a state."""
        return [Event(lambda t, y: margins(t, y)[0], direction=-1.0, terminal=True, name=f"{self.name}: stop"),
                Event(lambda t, y: margins(t, y)[1], direction=-1.0, terminal=True, name=f"{self.name}: flow")]


def _moved(block: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """A wrench block (1, 6) at a body's COM moved to a point `offset` before it (moment gains offset x force)."""
    f, m = block[0, :3], block[0, 3:]
    return np.concatenate([f, m + cross(offset, f)])[None]
