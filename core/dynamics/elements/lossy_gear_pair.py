"""A gear pair with losses after Modelica's LossyGear: mesh efficiency and bearing friction from a loss table,
stuck phases at rest (the physics of the losses: core.gearing.losses).

Shaft a is gear 1 and shaft b gear 2, each measured relative to the pair's carrier about its own axis
(w_a = a1 . (w_1 - w_c)), so a planetary set has its losses in the carrier's frame. While the pair rolls, the
tooth force on gear 2 is k times the lossless one (k = eta_mf1 when gear 1 drives, 1 / eta_mf2 when gear 2
drives) and the rest, (1 - k) times it, acts on the carrier at the pitch point, so forces and moments still
balance; the bearing friction referred to gear 1 acts as a couple -r sign(w_a) tau_bf about gear 2's axis
between gear 2 and the carrier. That is tau_b = -r (k tau_a - sign(w_a) tau_bf), as in the massless gear of
Modelica's LossyGear, and the power lost is tau_loss w_a. A compliant pair has the same relation with its losses
as a couple between gear 1 and the carrier about gear 1's axis: (1 / k - 1) times the mesh's torque on gear 1,
so that k of gear 1's torque reaches the mesh, and the bearing friction's -sign(w_a) tau_bf / k. Its mesh
deflects and its gears may float on bearings, so w_a = r w_b holds only on average: losses that acted on gear 2,
or as forces, would take power by other motions than the w_a that decides them, and gave power back near rest.
When the pair is stuck, a lock row holds w_a = 0; a compliant pair's limits at rest are then what its losses would
take rolling from rest under the mesh's torque (core.gearing.losses.mesh_holding_range), not under a torque the
lock's share moves.

Rows: the pair's no-slip row (rigid pairs; its power is the mesh's loss) and the lock (off while the pair
rolls). Ports: for a compliant pair first the teeth's approach the mesh deflects by (two ports and two extra
states, as the lossless pair's); then w_a (a compliant pair's loss couple acts along it) and the friction couple
of a rigid pair (its rate w_b).
Its events' values are `events` below; the layout of its discrete states is core.dynamics.elements.
lossy_gear_states, and the modes its events switch to between steps are core.dynamics.elements.lossy_gear_modes.
"""

from __future__ import annotations

import numpy as np

from core.dynamics.buffers.layout import LOSS_POWER
from core.dynamics.buffers.tables import table
from core.dynamics.elements.base import (DISC0, EVENT0, NROWS, OUT0, PORT0, ROW0, X0, Element, element)
from core.dynamics.elements.blocks import copy_row, pose, put_force, put_spin, vector
from core.dynamics.elements.gear_geometry import (APPROACH_PORTS, PAIR_FLOATS, pair_floats,
                                                  put_approach, put_pair_row, tooth_forces)
from core.dynamics.elements.gear_pair import soft, tooth_force_channels
from core.dynamics.elements.lossy_gear_modes import LossyGearModes
from core.dynamics.elements.lossy_gear_states import (DRIVES, HELD, HELD_SPEED, LEAD, MODE, TIE, TORQUE_FLOOR, WAY,
                                                     locked, member)
from core.dynamics.results.channels import Channel
from core.gearing.losses import (BACKWARD, FORWARD, STUCK, LossTable, bearing_friction, driving_torque, holding_range,
                                 loss_values, mesh_factor, mesh_holding_range)
from core.gearing.pitch_point import PairGeometryData, contact_frame
from core.geometry import vec3
from core.model.entities import GearPair

ARM, RATIO, AJ1, AJ2 = PAIR_FLOATS, PAIR_FLOATS + 1, PAIR_FLOATS + 2, PAIR_FLOATS + 5
G1, G2, CARRIER, TABLE, MESH = 10, 11, 12, 13, 14  # MESH: the compliant mesh's first port (-1: a rigid pair)
#: Share of the torques' scale by which the driving side may be wrong before it is switched (round-off at
#: tau_eta = 0, the balanced case of Modelica issue #108, must not chatter).
FLOW_TOLERANCE = 1e-9
#: Share of the power through the pair by which the loss power may fall below zero (round-off)
LOSS_ROUND_OFF = 1e-9
# its ports after the approach ports of a compliant pair: w_a (a compliant pair's loss couple), the friction couple
W_A, FRICTION = 0, 1


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
        put_approach(pr, ip[PORT0], fp, bodies, g1, g2)
    stuck = locked(disc, ip[DISC0])
    put_spin(rj, lock, 1, 0, vec3.scale(1.0 if stuck else 0.0, a1))
    copy_row(rgp, rj, lock)
    gam[lock] = -vec3.dot(vec3.cross(w1, a1), vec3.sub(w1, wc)) if stuck else 0.0
    phi[lock] = 0.0
    off[lock] = 0 if stuck else 1


def bearing_couple(fb, ib, ip, disc, fp, w_a):
    """The bearing friction's couple [N m] (0 when stuck): on a rigid pair -r sign(w_a) tau_bf about gear 2's axis;
    on a compliant pair -sign(w_a) tau_bf / k about gear 1's (its losses sit at gear 1's side of the mesh)."""
    mode = disc[ip[DISC0] + MODE]
    if mode == STUCK:
        return 0.0
    values = loss_values(table(fb, ib, ip[TABLE]), w_a)
    drives = disc[ip[DISC0] + DRIVES] != 0
    if ip[MESH] < 0:
        return -fp[RATIO] * mode * bearing_friction(values, drives)
    return -mode * bearing_friction(values, drives) / mesh_factor(values, drives)


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
    couple = bearing_couple(fb, ib, ip, disc, fp, pv[p + W_A])
    if ip[MESH] < 0:
        u[p + FRICTION] = couple
        acc[2] -= couple * pv[p + FRICTION]
        return
    # a compliant pair's losses: a couple between gear 1 and the carrier, so that gear 1 takes 1 / k of the
    # mesh's torque (k of its torque reaches the mesh), and the bearing friction's
    ft = u[ip[MESH]] + u[ip[MESH] + 1]
    u[p + W_A] = (1.0 / factor(fb, ib, fp, ip, disc, pv[p + W_A]) - 1.0) * ft * fp[ARM] + couple
    acc[2] -= u[p + W_A] * pv[p + W_A]


def torques(fb, ib, fp, ip, disc, state, forces, lam):
    """tau_a, tau_b [N m] (what the gears put into the pair), the lossless torque on gear 2, the bearing couple,
    w_a, w_b [rad/s] and k: from the tooth force (a rigid pair's multiplier, a compliant pair's mesh force) and
    the lock's multiplier. A rigid pair's losses act on gear 2, a compliant pair's on gear 1 (so they take power
    at the side whose motion decides them, whatever the mesh's deflection does): tau_b = -r (k tau_a - sign(w_a)
    tau_bf) either way."""
    pv, u = state[1], forces[0]
    p = ports_from(ip)
    w_a, w_b = pv[p + W_A], pv[p + FRICTION]
    lock = lam[ip[ROW0] + ip[NROWS] - 1]
    k = factor(fb, ib, fp, ip, disc, w_a)
    couple = bearing_couple(fb, ib, ip, disc, fp, w_a)
    if ip[MESH] < 0:
        t1 = lam[ip[ROW0]] * fp[ARM]
        t2 = -fp[RATIO] * t1
        return -(t1 + lock), -(k * t2 + couple), t2, couple, w_a, w_b, k
    ft = u[ip[MESH]] + u[ip[MESH] + 1]
    t2 = -fp[RATIO] * ft * fp[ARM]
    # the mesh's torque from its stiffness's change with the phase acts on gear 1 and its seat, not through the
    # pair: it is not what gear 1 puts into the pair (counted there, it decided the driving side against the loss)
    return -(ft * fp[ARM] / k + couple + lock), -t2, t2, couple, w_a, w_b, k


def loss_power(ip, forces, lossless, couple, w_a, w_b, k):
    """The power the losses take [W] while the pair rolls: what its loss forces take from the bodies (a rigid
    pair's on gear 2, a compliant pair's loss couple on gear 1)."""
    if ip[MESH] < 0:
        return w_b * ((1.0 - k) * lossless - couple)
    return -forces[0][ports_from(ip) + W_A] * w_a


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    at = ip[OUT0]
    if ip[MESH] < 0:
        f = tooth_forces(fp, lam[ip[ROW0]])
        for i in range(4):
            out[at + i] = f[i]
        at += 4
    tau_a, tau_b, lossless, couple, w_a, w_b, k = torques(fb, ib, fp, ip, disc, state, forces, lam)
    mode = STUCK if member(disc, ip[DISC0]) else disc[ip[DISC0] + MODE]  # a set's member is at rest
    out[at] = state[3][ip[X0]]
    out[at + 1] = mode
    out[at + 2] = 0.0 if mode == STUCK else (1.0 if disc[ip[DISC0] + DRIVES] else 2.0)
    out[at + 3] = 0.0 if mode == STUCK else loss_power(ip, forces, lossless, couple, w_a, w_b, k)
    out[at + 4], out[at + 5], out[at + 6] = tau_a, tau_b, w_a


def events(t, fb, ib, fp, ip, disc, state, forces, lam, g):
    tau_a, tau_b, _, _, w_a, _, _ = torques(fb, ib, fp, ip, disc, state, forces, lam)
    d, e = ip[DISC0], ip[EVENT0]
    mode = disc[d + MODE]
    held = tau_a + tau_b / fp[RATIO]
    tab = table(fb, ib, ip[TABLE])
    if mode == STUCK and disc[d + HELD]:
        g[e], g[e + 1] = HELD_SPEED - w_a, HELD_SPEED + w_a
        return
    if mode == STUCK:
        if ip[MESH] < 0:
            low, high = holding_range(loss_values(tab, 0.0), tau_a)
        else:  # what its losses hold follows from the mesh's torque, as rolling from rest would (not from the lock's)
            low, high = mesh_holding_range(loss_values(tab, 0.0), -tau_b / fp[RATIO])
        g[e], g[e + 1] = high - held + TORQUE_FLOOR, held - low + TORQUE_FLOOR
        # a set's lead: the watch of the set's torque, to which its members add. It turns the set's way where that
        # torque passes half the lead's own limit the other way: before the set can break away that way (its
        # limit there is the lead's and the members' losses), and not on every ripple about zero (a compliant
        # set at rest)
        slack = FLOW_TOLERANCE * (abs(tau_a) + abs(low) + abs(high)) + TORQUE_FLOOR
        if disc[d + WAY] > 0:
            g[e + 1] = held - 0.5 * low + slack
        elif disc[d + WAY] < 0:
            g[e] = 0.5 * high - held + slack
        return
    values = loss_values(tab, w_a)
    scale = abs(tau_a) + values[2] + values[3]
    side = 1.0 if disc[d + DRIVES] else -1.0
    if mode == BACKWARD:
        side = -side
    g[e] = mode * w_a
    g[e + 1] = side * driving_torque(values, tau_a, mode) + FLOW_TOLERANCE * scale + TORQUE_FLOOR
    if member(disc, d):  # a set's member at rest: what it holds, to the lead's watch (the lead comes first)
        lead = int(disc[d + LEAD])
        g[e] = 1.0
        tied = disc[d + TIE] * held
        if mode * disc[d + TIE] > 0:
            g[lead + 1] += tied
        else:
            g[lead] -= tied


@element(GearPair)
class LossyGearPairElement(LossyGearModes, Element):
    FLOATS, INTS = PAIR_FLOATS + 8, 5
    LAW_ORDER = 1  # after the compliant meshes: a compliant pair's loss couple follows their force
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
        asm.extras(self, 1 if self.rigid else APPROACH_PORTS)
        if self.rigid:  # a compliant mesh deflects by design
            asm.drift(self, "gear phase drift", "m", extra=self.x0)
        asm.discrete(self, [FORWARD, 1, 0, 0, -1, 0.0])
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

    @property
    def modes_at(self) -> int:
        """Its first channel after a rigid pair's tooth forces: drift, mode, driving, loss power, tau_a, tau_b, w_a."""
        return self.out0 + (4 if self.rigid else 0)

    def guard(self, values) -> str:
        """Losses never give power back: the loss power at least zero to round-off of the power through the
        pair (|tau_a w_a| + |tau_b w_b|), and of a speed at rest (HELD_SPEED with the torques: near a stop, a
        sample on the interpolant may see w_a of 1e-12 rad/s the wrong way)."""
        at = self.modes_at
        loss, tau_a, tau_b, w_a = (float(values[at + k]) for k in (3, 4, 5, 6))
        through = abs(tau_a * w_a) + abs(tau_b * w_a / self.ratio)
        if loss >= -LOSS_ROUND_OFF * through - HELD_SPEED * (abs(tau_a) + abs(tau_b / self.ratio)):
            return ""
        return (f"its losses give power back ({loss:.6g} W of {through:.6g} W through the pair): the loss table or "
                f"the mode is wrong there")
