"""A gear pair with losses after Modelica's LossyGear: mesh efficiency and bearing friction from a loss table,
stuck phases at rest (the physics of the losses: core.gearing.losses).

Shaft a is gear 1 and shaft b gear 2, each measured relative to the pair's carrier about its own axis
(w_a = a1 . (w_1 - w_c)), so a planetary set has its losses in the carrier's frame. While the pair rolls, the
tooth force on gear 2 is k times the lossless one (k = eta_mf1 when gear 1 drives, 1 / eta_mf2 when gear 2
drives) and the rest, (1 - k) times it, acts on the carrier at the pitch point, so forces and moments still
balance; the bearing friction referred to gear 1 acts as a couple -r sign(w_a) tau_bf about gear 2's axis
between gear 2 and the carrier. That is tau_b = -r (k tau_a - sign(w_a) tau_bf), as in the massless gear of
Modelica's LossyGear, and the power lost is tau_loss w_a. When the pair is stuck, a lock row holds w_a = 0.

Rows: the pair's no-slip row (rigid pairs; its power is the mesh's loss) and the lock (off while the pair
rolls). Ports: w_a, the friction couple (its rate w_b), and for a compliant pair the teeth's approach the mesh
deflects by (two ports and two extra states, as the lossless pair's) and the share (1 - k) of the mesh's force
that moves from gear 2 to the carrier (its power is the mesh loss).
Discrete states: the mode (forward, stuck, backward), the driving side, and 'held', held within a step; two
events watch them: 'stop' (rolling: the shaft reaches rest; stuck: the torque to hold passes what the losses hold
forwards) and 'flow' (rolling: the driving side's margin; stuck: backwards).

Where other rows impose w_a (a speed motor's law, a fixed joint), the lock would repeat them and what the pair
holds at rest is not determined: the imposed motion decides the mode, since a motor overcomes any loss. The pair
rolls the way that motion goes; while it stays at rest the pair is 'held': stuck without its lock, passing the
torque without loss, and its events watch w_a leave rest (HELD_SPEED).
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import LOSS_POWER
from core.dynamics.buffers.tables import table
from core.dynamics.elements.base import (DISC0, EVENT0, NROWS, OUT0, PORT0, ROW0, X0, Element, element)
from core.dynamics.elements.blocks import copy_row, pose, put_force, put_spin, vector
from core.dynamics.elements.gear_geometry import (APPROACH_PORTS, PAIR_FLOATS, pair_floats, pair_frame,
                                                  put_approach, put_pair_row, tooth_forces)
from core.dynamics.elements.gear_pair import soft, tooth_force_channels
from core.dynamics.results.channels import Channel
from core.errors import ModesError
from core.gearing.losses import (BACKWARD, FORWARD, STUCK, LossTable, bearing_friction, driving_torque, holding_range,
                                 loss_values, mesh_factor)
from core.gearing.pitch_point import PairGeometryData, contact_frame
from core.geometry import vec3
from core.model.entities import GearPair

ARM, RATIO, AJ1, AJ2 = PAIR_FLOATS, PAIR_FLOATS + 1, PAIR_FLOATS + 2, PAIR_FLOATS + 5
G1, G2, CARRIER, TABLE, MESH = 10, 11, 12, 13, 14  # MESH: the compliant mesh's first port (-1: a rigid pair)
MODE, DRIVES, HELD = 0, 1, 2  # its discrete states (from DISC0): the mode, 1 when gear 1 drives, 1 when held
#: Speed [rad/s] past which a pair held at rest by imposed rows is moving: far above round-off of the imposed
#: speed, far below a speed at which a loss could matter (the pair is lossless until then)
HELD_SPEED = 1e-9
#: Share of the torques' scale by which the driving side may be wrong before it is switched (round-off at
#: tau_eta = 0, the balanced case of Modelica issue #108, must not chatter).
FLOW_TOLERANCE = 1e-9
#: Share of the power through the pair by which the loss power may fall below zero (round-off)
LOSS_ROUND_OFF = 1e-9
# its ports after the approach ports of a compliant pair: w_a, the friction couple, the mesh force's shares
W_A, FRICTION, SHARE = 0, 1, 2


def ports_from(ip):
    """The first of its own ports after the approach ports (a compliant pair's)."""
    return ip[PORT0] + (APPROACH_PORTS if ip[MESH] >= 0 else 0)


def factor(fb, ib, fp, ip, disc, w_a):
    """k: the share of the lossless tooth force that reaches gear 2 (1 when stuck)."""
    mode = disc[ip[DISC0] + MODE]
    if mode == STUCK:
        return 1.0
    return mesh_factor(loss_values(table(fb, ib, ip[TABLE]), w_a), disc[ip[DISC0] + DRIVES] != 0)


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    g1, g2, c = ip[G1], ip[G2], ip[CARRIER]
    _, r1, _, w1 = pose(bodies, g1)
    xc, _, _, wc = pose(bodies, c)
    _, r2, _, _ = pose(bodies, g2)
    a1, a2 = vec3.rotate(r1, vector(fp, AJ1)), vec3.rotate(r2, vector(fp, AJ2))
    w_a = vec3.dot(a1, vec3.sub(w1, wc))
    k = factor(fb, ib, fp, ip, disc, w_a)
    pr, p = ports[0], ports_from(ip)
    put_spin(pr, p + W_A, 0, 1, a1)
    put_spin(pr, p + FRICTION, 0, 1, a2)
    rj, rgp, rgs, gam, phi, off = rows
    lock = ip[ROW0] + ip[NROWS] - 1
    if ip[MESH] < 0:
        point, base, sep = put_pair_row(rows, ip[ROW0], fp, bodies, g1, g2, k)
        arm_c = vec3.sub(point, xc)  # the rest of gear 2's share, on the carrier at the pitch point
        put_force(rgp, ip[ROW0], 2, vec3.add(base, sep), arm_c, -(1.0 - k))
        put_force(rgs, ip[ROW0], 2, sep, arm_c, -(1.0 - k))
    else:
        point, _, base, sep, _ = pair_frame(fp, bodies, g1, g2)
        put_approach(pr, ip[PORT0], fp, bodies, g1, g2)
        x2 = pose(bodies, g2)[0]
        for s, side in enumerate((1.0, -1.0)):  # the mesh's force on the drive flank and on the coast flank
            d = vec3.add(base, vec3.scale(side, sep))
            put_force(pr, p + SHARE + s, 0, d, vec3.sub(point, x2), 1.0 - k)
            put_force(pr, p + SHARE + s, 1, d, vec3.sub(point, xc), -(1.0 - k))
    stuck = disc[ip[DISC0] + MODE] == STUCK and disc[ip[DISC0] + HELD] == 0
    put_spin(rj, lock, 1, 0, vec3.scale(1.0 if stuck else 0.0, a1))
    copy_row(rgp, rj, lock)
    gam[lock] = -vec3.dot(vec3.cross(w1, a1), vec3.sub(w1, wc)) if stuck else 0.0
    phi[lock] = 0.0
    off[lock] = 0 if stuck else 1


def bearing_couple(fb, ib, ip, disc, fp, w_a):
    """The couple about gear 2's axis from the bearing friction, -r sign(w_a) tau_bf [N m] (0 when stuck)."""
    mode = disc[ip[DISC0] + MODE]
    if mode == STUCK:
        return 0.0
    values = loss_values(table(fb, ib, ip[TABLE]), w_a)
    return -fp[RATIO] * mode * bearing_friction(values, disc[ip[DISC0] + DRIVES] != 0)


def law(t, fb, ib, fp, ip, disc, state, forces):
    jv, pv = state[0], state[1]
    u, xdot, acc = forces[0], forces[4], forces[5]
    p = ports_from(ip)
    if ip[MESH] < 0:
        forces[3][ip[ROW0]] += state[3][ip[X0]]
        xdot[ip[X0]] = jv[ip[ROW0]]
    else:
        for k in range(APPROACH_PORTS):
            xdot[ip[X0] + k] = pv[ip[PORT0] + k]
        for s in range(2):
            u[p + SHARE + s] = u[ip[MESH] + s]
            acc[2] -= u[p + SHARE + s] * pv[p + SHARE + s]
    couple = bearing_couple(fb, ib, ip, disc, fp, pv[p + W_A])
    u[p + FRICTION] = couple
    acc[2] -= couple * pv[p + FRICTION]


def torques(fb, ib, fp, ip, disc, state, forces, lam):
    """tau_a, tau_b [N m] (what the gears put into the pair), the lossless torque on gear 2, the bearing couple,
    w_a, w_b [rad/s] and k: from the tooth force (a rigid pair's multiplier, a compliant pair's mesh force with
    the mesh's torque on gear 1) and the lock's multiplier."""
    pv, u = state[1], forces[0]
    p = ports_from(ip)
    w_a, w_b = pv[p + W_A], pv[p + FRICTION]
    if ip[MESH] < 0:
        t1 = lam[ip[ROW0]] * fp[ARM]
        t2 = -fp[RATIO] * t1
    else:
        ft = u[ip[MESH]] + u[ip[MESH] + 1]
        t1 = ft * fp[ARM] + u[ip[MESH] + 2]
        t2 = -fp[RATIO] * ft * fp[ARM]
    lock = lam[ip[ROW0] + ip[NROWS] - 1]
    k = factor(fb, ib, fp, ip, disc, w_a)
    couple = bearing_couple(fb, ib, ip, disc, fp, w_a)
    return -(t1 + lock), -(k * t2 + couple), t2, couple, w_a, w_b, k


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    at = ip[OUT0]
    if ip[MESH] < 0:
        f = tooth_forces(fp, lam[ip[ROW0]])
        for i in range(4):
            out[at + i] = f[i]
        at += 4
    tau_a, tau_b, lossless, couple, w_a, w_b, k = torques(fb, ib, fp, ip, disc, state, forces, lam)
    mode = disc[ip[DISC0] + MODE]
    out[at] = state[3][ip[X0]]
    out[at + 1] = mode
    out[at + 2] = 0.0 if mode == STUCK else (1.0 if disc[ip[DISC0] + DRIVES] else 2.0)
    out[at + 3] = 0.0 if mode == STUCK else w_b * ((1.0 - k) * lossless - couple)
    out[at + 4], out[at + 5], out[at + 6] = tau_a, tau_b, w_a


def events(t, fb, ib, fp, ip, disc, state, forces, lam, g):
    tau_a, tau_b, _, _, w_a, _, _ = torques(fb, ib, fp, ip, disc, state, forces, lam)
    mode = disc[ip[DISC0] + MODE]
    held = tau_a + tau_b / fp[RATIO]
    e = ip[EVENT0]
    tab = table(fb, ib, ip[TABLE])
    if mode == STUCK and disc[ip[DISC0] + HELD]:
        g[e], g[e + 1] = HELD_SPEED - w_a, HELD_SPEED + w_a
        return
    if mode == STUCK:
        low, high = holding_range(loss_values(tab, 0.0), tau_a)
        g[e], g[e + 1] = high - held, held - low
        return
    values = loss_values(tab, w_a)
    scale = abs(tau_a) + values[2] + values[3]
    side = 1.0 if disc[ip[DISC0] + DRIVES] else -1.0
    if mode == BACKWARD:
        side = -side
    g[e] = mode * w_a
    g[e + 1] = side * driving_torque(values, tau_a, mode) + FLOW_TOLERANCE * scale


@element(GearPair)
class LossyGearPairElement(Element):
    FLOATS, INTS = PAIR_FLOATS + 8, 5
    LAW_ORDER = 1  # after the compliant meshes: it moves a share of their force
    MODES = True

    @classmethod
    def accepts(cls, pair) -> bool:
        return bool(pair.loss_rows())

    def __init__(self, pair, asm):
        super().__init__(pair, asm)
        j1, j2 = asm.element_of(pair.joint1).frame, asm.element_of(pair.joint2).frame
        self.pair_geometry, (self.g1, a1), (self.g2, a2) = pair_floats(asm, pair)
        self.carrier = asm.index[pair.carrier]
        self.axes = (tuple(a1), tuple(a2))  # each joint's axis in the axes of the body that carries the teeth
        self.table = LossTable(pair.loss_rows())
        self.table_index = asm.tables.add_table(self.table.rows)
        self.rigid = not soft(asm.model, pair)
        self.arm, self.ratio = self.lever(asm, pair, j1, j2)
        if self.rigid:
            asm.rows(self, 1, (self.g1, self.g2, self.carrier), stabilised=pair.stabilise, gear=True, power=LOSS_POWER)
        else:
            asm.ports(self, APPROACH_PORTS, (self.g1, self.g2))  # the approach the mesh deflects by
        asm.rows(self, 1, (self.carrier, self.g1))  # the lock
        asm.ports(self, 2, [(self.g1, self.carrier), (self.g2, self.carrier)])
        if not self.rigid:
            asm.ports(self, 2, (self.g2, self.carrier))
        asm.extras(self, 1 if self.rigid else APPROACH_PORTS)
        if self.rigid:  # a compliant mesh deflects by design
            asm.drift(self, "gear phase drift", "m", extra=self.x0)
        asm.discrete(self, [FORWARD, 1, 0])
        asm.events(self, 2)
        self.mesh_port = -1

    def lever(self, asm, pair, j1, j2) -> tuple[float, float]:
        """(the moment arm of the tooth force about gear 1's axis [m], r = w_a / w_b) from the start poses: both
        fixed by the geometry (the axes do not move in the carrier). The no-slip row's blocks (t, rho x t) on
        each gear against the gear's twist about its own axis (a x (x - p), a)."""
        packed = np.asarray(self.pair_geometry)
        gears = []
        for frame, g, centre, axis in ((j1, self.g1, packed[0:3], packed[6:9]), (j2, self.g2, packed[3:6], packed[9:12])):
            x, rot = asm.pose0(g)
            xj, rj = asm.pose0(frame.bj)  # the joint's point from its own body (the teeth may sit on a welded one)
            gears.append((x, x + rot @ centre, rot @ axis, xj + rj @ frame.sj))
        f = contact_frame(PairGeometryData.of(pair), gears[0][1], gears[0][2], gears[1][1], gears[1][2])
        moments = [sign * float(np.concatenate([f.t, np.cross(f.point - x, f.t)])
                                @ np.concatenate([np.cross(a, x - p), a]))
                   for (x, _, a, p), sign in zip(gears, (1.0, -1.0))]
        return moments[0], -moments[1] / moments[0]

    def link(self, asm):
        if not self.rigid:
            mesh = next(e for e in asm.elements if getattr(e, "pair_name", None) == self.name)
            self.mesh_port = mesh.port0

    def params(self):
        return ([*self.pair_geometry, self.arm, self.ratio, *self.axes[0], *self.axes[1]],
                [self.g1, self.g2, self.carrier, self.table_index, self.mesh_port])

    def channels(self):
        n = self.name
        return (tooth_force_channels(n) if self.rigid else []) + [
            Channel(n, "drift", "m", "gear pair", "accumulated phase error at the pitch circle"),
            Channel(n, "mode", "1", "gear pair", "1 rolling forwards, 0 stuck, -1 rolling backwards"),
            Channel(n, "driving", "1", "gear pair", "the gear that drives (power flows from it): 1 or 2; 0 when stuck"),
            Channel(n, "loss_power", "W", "gear pair", "power taken by the mesh and bearing losses"),
            Channel(n, "tau_a", "N m", "gear pair", "torque gear 1 puts into the pair, about its axis relative to the "
                    "carrier"),
            Channel(n, "tau_b", "N m", "gear pair", "torque gear 2 puts into the pair, about its axis relative to the "
                    "carrier"),
            Channel(n, "w_a", "rad/s", "gear pair", "speed of gear 1 relative to the carrier")]

    def guard(self, values) -> str:
        """Losses never give power back: the loss power at least zero to round-off of the power through the
        pair (|tau_a w_a| + |tau_b w_b|), and of a speed at rest (HELD_SPEED with the torques: near a stop, a
        sample on the interpolant may see w_a of 1e-12 rad/s the wrong way)."""
        at = self.out0 + (4 if self.rigid else 0)
        loss, tau_a, tau_b, w_a = (float(values[at + k]) for k in (3, 4, 5, 6))
        through = abs(tau_a * w_a) + abs(tau_b * w_a / self.ratio)
        if loss >= -LOSS_ROUND_OFF * through - HELD_SPEED * (abs(tau_a) + abs(tau_b / self.ratio)):
            return ""
        return (f"its losses give power back ({loss:.6g} W of {through:.6g} W through the pair): the loss table or "
                f"the mode is wrong there")

    # ------------------------------------------------------------------ modes (between steps)

    def states(self) -> list[tuple[int, int, int]]:
        """Its discrete states (mode, 1 when gear 1 drives, 1 when held): each mode with either side driving, and
        held at rest."""
        return ([(mode, drives, 0) for mode in (FORWARD, STUCK, BACKWARD) for drives in (1, 0)]
                + [(STUCK, drives, 1) for drives in (1, 0)])

    def event_names(self) -> list[str]:
        return [f"{self.name}: stop", f"{self.name}: flow"]

    def mode(self, system) -> int:
        return int(system.kernel.disc[self.disc0 + MODE])

    def held(self, system) -> bool:
        return bool(system.kernel.disc[self.disc0 + HELD])

    def _set(self, system, mode: int | None = None, a_drives: bool | None = None, held: bool | None = None) -> None:
        disc = system.kernel.disc
        if mode is not None:
            disc[self.disc0 + MODE] = mode
        if a_drives is not None:
            disc[self.disc0 + DRIVES] = int(a_drives)
        if held is not None:
            disc[self.disc0 + HELD] = int(held)
        system.rows_changed(0.0, None)

    def torques_at(self, system, t: float, y) -> tuple[float, float, float]:
        """tau_a, tau_b [N m] and w_a [rad/s] at (t, y), from its channels."""
        values = system.sample(t, y)[0]
        at = self.out0 + (4 if self.rigid else 0) + 4
        return float(values[at]), float(values[at + 1]), float(values[at + 2])

    def start(self, system, y) -> tuple:
        """The first mode at the start: rolling the way gear 1 turns relative to the carrier, or settled at rest."""
        w_a = self.torques_at(system, 0.0, y)[2]
        if abs(w_a) < 1e-12:
            order = system.elements.index
            if any(order(pair) < order(self) for pair, _ in self.ties(system, 0.0, y)[0]):
                return y, []  # settled with a pair before it, which the rows tie it to
            y, note = self._settle(system, 0.0, y)
            if self.mode(system) != STUCK:
                return y, []
            if self.held(system):
                return y, [f"{self.name} starts {note}"]
            return y, [f"{self.name} starts stuck: the torque it must hold at rest is within what its losses hold "
                       f"there; {note}"]
        self._set(system, mode=FORWARD if w_a > 0 else BACKWARD)
        self._choose_side(system, 0.0, y)
        return y, []

    def on_event(self, system, i: int, t: float, y) -> tuple:
        """Event i ('stop' 0, 'flow' 1) at (t, y): the new mode, the state and what changed."""
        mode = self.mode(system)
        if mode != STUCK:
            return (y, self._choose_side(system, t, y, flip=True)) if i == 1 else self._settle(system, t, y,
                                                                                               stopped=mode)
        # stuck: the torque to hold has reached what the losses hold forwards ('stop') or backwards ('flow')
        return self._settle(system, t, y, FORWARD if i == 0 else BACKWARD)

    def _choose_side(self, system, t: float, y, flip: bool = False) -> str:
        """The driving side of a rolling pair that is consistent with the torques it gives (the larger margin if
        both or neither are: they differ only by round-off there). `flip` when the driving side's margin has just
        run out: the torque passes through zero there and both margins are round-off, so they are taken a moment
        later (a millionth of a step, along each side's rate)."""
        dt = 1e-6 * system.model.settings.step if flip else 0.0
        margins = {}
        for side in (True, False):
            self._set(system, a_drives=side)
            ahead = system.space.retract(y, dt * system.evaluate(t, y)) if flip else y
            margins[side] = float(system.kernel.events(t + dt, ahead)[self.event0 + 1])
        a_drives = margins[True] >= margins[False]
        self._set(system, a_drives=a_drives)
        return f"gear {1 if a_drives else 2} drives"

    def _settle(self, system, t: float, y, breaks: int = 0, stopped: int = 0) -> tuple:
        """Hold the pair, and the pairs the rows tie to it, at rest, then let them stay stuck or start rolling
        from what they have to hold. `breaks` (FORWARD or BACKWARD) when an event found the torque at a limit of
        what the losses hold: it starts rolling that way. `stopped` (FORWARD or BACKWARD) when rolling that way
        just came to rest: the pair does not start again that way at the same instant (its speed fell to zero,
        so that motion is not consistent there; a tiny efficiency puts the holding limits within round-off of
        the torque), and stays stuck unless the torque moves it the other way.

        Pairs whose w_a the other rows tie to this pair's (the meshes of a planetary set, a pinion driving two
        gears) share its mode, each turning its own way (w_a = c w_a(self)): their locks repeat one another, so
        they hold the torque together (split by least squares: alike pairs share it equally), and the first
        whose share passes its limit starts them all. Where the pairs differ, their shares do not tell when the
        set breaks away: a start that the set's motion then contradicts (it would slow) raises ModesError."""
        group, imposed = self.ties(system, t, y)
        if imposed is not None:
            return self._follow(system, t, y, imposed)
        for pair, _ in group:
            pair._set(system, mode=STUCK, held=False)
        system.rows_changed(t, y)
        y = system.consistent_velocities(y, t)[0]
        holds = [(pair, int(np.sign(c)), *pair._holding(system, t, y)) for pair, c in group]
        way, first = breaks, holds[0]  # way: this pair's
        for hold in holds if not breaks else ():
            _, sign, held, low, high, _ = hold
            own = stopped * sign  # the way that pair came to rest
            if (held > high and own != FORWARD) or (held < low and own != BACKWARD):
                way, first = (FORWARD if held > high else BACKWARD) * sign, hold
                break
        pair, sign, held, low, high, scale = first
        held_at = f"the losses hold {low:.6g} to {high:.6g} N m at rest"
        if not way:
            # held is a difference of torques: shown to their resolution (a round-off residue of 1e-31 N m is 0)
            shown = held if abs(held) > 1e-12 * scale else 0.0
            if low <= held <= high:
                return y, f"stuck: it holds {shown:.6g} N m ({held_at})" + _with(group, "are stuck with it")
            towards = "forwards" if stopped == FORWARD else "backwards"
            return y, (f"stuck: it came to rest rolling {towards} and holds {shown:.6g} N m (its losses' limits at "
                       f"rest, {low:.6g} to {high:.6g} N m, follow from the torque it passes on)"
                       + _with(group, "are stuck with it"))
        for other, c in group:
            other._set(system, mode=way * int(np.sign(c)))
        system.rows_changed(t, y)
        for other, _ in group[1:]:
            other._choose_side(system, t, y)
        rate = self._w_a_rate(system, t, y) if len(group) > 1 else 0.0
        if rate * way * system.model.settings.step < -HELD_SPEED:
            raise ModesError(
                f"the lossy pairs {', '.join(p.name for p, _ in group)} are tied by the gear rows and stick and roll "
                f"together: at t = {t:.9g} s {pair.name} reached the limit of its share of the torque they hold, "
                f"but the set rolling {'forwards' if way == FORWARD else 'backwards'} would slow "
                f"({rate:.6g} rad/s^2 on {self.name}): together they hold more. GearDyn splits what tied pairs hold "
                f"at rest by least squares, which decides their break-away only where the pairs are alike",
                items=tuple(p.name for p, _ in group))
        who = "" if pair is self else f"{pair.name} has "
        if way * sign == FORWARD:  # an event finds the torque at the limit, to the event's tolerance
            where = "above" if held > high + 1e-9 * abs(high) else "at"
            limit = f"{where} the top of what {held_at}"
        else:
            where = "below" if held < low - 1e-9 * abs(low) else "at"
            limit = f"{where} the bottom of what {held_at}"
        towards = "forwards" if way == FORWARD else "backwards"
        return y, (f"starts {towards}: {who}{held:.6g} N m to hold, {limit}, {self._choose_side(system, t, y)}"
                   + _with(group, "start with it"))

    def _holding(self, system, t: float, y) -> tuple[float, float, float, float]:
        """What it holds at rest, tau_a + tau_b / r, the losses' limits there, and the torques' scale [N m]."""
        tau_a, tau_b, _ = self.torques_at(system, t, y)
        low, high = self.table.at_rest.holding_range(tau_a)
        scale = max(abs(tau_a), abs(tau_b / self.ratio), abs(low), abs(high))
        return tau_a + tau_b / self.ratio + 0.0, low + 0.0, high + 0.0, scale  # + 0.0: no '-0' in messages

    def ties(self, system, t: float, y) -> tuple[list, str | None]:
        """What ties this pair's w_a (for its modes, and for the model's checks), from the locks' rows with every lock
        on: when the rows other than the locks
        fix it, ([(self, 1)], what imposes it: the speed motors among those rows, or the joints); else ([(pair,
        c)], None) with this pair first (c = 1) and each lossy pair whose w_a those rows tie to its own,
        w_a = c w_a(self)."""
        pairs = [e for e in system.elements if isinstance(e, LossyGearPairElement)]
        disc, saved = system.kernel.disc, system.kernel.disc.copy()
        for pair in pairs:
            disc[pair.disc0 + MODE], disc[pair.disc0 + HELD] = STUCK, 0
        system.kernel.forget()
        jac = system.jacobian(t, y)
        disc[:] = saved
        system.kernel.forget()
        lock = {pair: pair.row0 + pair.nrows - 1 for pair in pairs}
        rest = np.ones(len(jac), dtype=bool)
        rest[list(lock.values())] = False
        rest &= np.any(jac != 0.0, axis=1)
        mine = jac[lock[self]]
        coeff = _as_sum(jac[rest], mine)
        if coeff is not None:
            rows = np.flatnonzero(rest)[np.abs(coeff) > 1e-9 * np.abs(coeff).max()]
            motors = [e.name for e in system.elements if e.name in system.model.forces and e.nrows
                      and np.any((rows >= e.row0) & (rows < e.row0 + e.nrows))]
            return [(self, 1.0)], ", ".join(f"'{m}'" for m in motors) if motors else "the joints"
        group = [(self, 1.0)]
        for pair in (p for p in pairs if p is not self):
            coeff = _as_sum(np.vstack([jac[rest], mine]), jac[lock[pair]])
            if coeff is not None and abs(coeff[-1]) > 1e-9 * np.linalg.norm(jac[lock[pair]]) / np.linalg.norm(mine):
                group.append((pair, float(coeff[-1])))
        return group, None

    def _follow(self, system, t: float, y, imposed: str) -> tuple:
        """The pair's speed is imposed: it rolls the way it is imposed to move (its speed, else its acceleration
        over a step past HELD_SPEED), or is held at rest without its lock."""
        self._set(system, mode=STUCK, held=True)
        system.rows_changed(t, y)
        y = system.consistent_velocities(y, t)[0]
        w_a = self.torques_at(system, t, y)[2]
        rate = self._w_a_rate(system, t, y)
        if abs(w_a) > 1e3 * HELD_SPEED:  # a speed that stepped
            way, how = np.sign(w_a), f"at {w_a:.6g} rad/s"
        elif abs(rate) * system.model.settings.step > HELD_SPEED:
            way, how = np.sign(rate), f"at {rate:.6g} rad/s^2"
        else:  # leaving rest with no acceleration (1 - cos), or still at rest
            way, how = (np.sign(w_a) if abs(w_a) > HELD_SPEED else 0), "from rest"
        if not way:
            return y, (f"held at rest by {imposed}: its speed is imposed there, so it passes the torque without "
                       f"loss until that speed leaves rest")
        self._set(system, mode=int(way), held=False)
        system.rows_changed(t, y)
        towards = "forwards" if way > 0 else "backwards"
        return y, (f"starts {towards}: {imposed} moves it {towards} {how}, {self._choose_side(system, t, y)}")

    def _w_a_rate(self, system, t: float, y) -> float:
        """dw_a/dt [rad/s^2] at (t, y) in the modes as set, its lock off (the speed rows impose, or a tied set's
        rolling gives): a1 . (alpha_1 - alpha_c) + (w_1 x a1) . (w_1 - w_c)."""
        acc = system.accelerations(t, y)[:, 3:]
        _, rot, _, spin = system.bodies(y)
        ground = len(acc)
        alpha1, alphac = (acc[b] if b < ground else np.zeros(3) for b in (self.g1, self.carrier))
        w1, wc = (spin[b] if b < ground else np.zeros(3) for b in (self.g1, self.carrier))
        a1 = rot[self.g1] @ np.asarray(self.axes[0]) if self.g1 < ground else np.asarray(self.axes[0])
        return float(a1 @ (alpha1 - alphac) + np.cross(w1, a1) @ (w1 - wc))


def _as_sum(rows: np.ndarray, row: np.ndarray) -> np.ndarray | None:
    """The coefficients that make `row` a sum of `rows` (least squares), or None when it is not one."""
    coeff = np.linalg.lstsq(rows.T, row, rcond=None)[0]
    return coeff if np.linalg.norm(rows.T @ coeff - row) <= 1e-9 * np.linalg.norm(row) else None


def _with(group: list, how: str) -> str:
    """'; <the other pairs of the group> <how>' for a note ('' for a pair alone)."""
    return f"; {', '.join(pair.name for pair, _ in group[1:])} {how}" if len(group) > 1 else ""
