"""A compliant mesh: a gear pair made soft by a spring-damper along the line of action (core.gearing.mesh_model).

Each flank deflects by its approach along its own line of action: the pair's two extra states hold the teeth's
approach along the tooth force's base part (the transmission error e at the working pitch circle, when the
centres stay put) and along its separating part s (the centres approaching), so the drive flank deflects by
delta = (e + s) cos(alpha_wt) and the coast flank by (e - s) cos(alpha_wt); each pushes back with
F = k(phi) (delta -+ j/2) + c delta' while in contact (none across the backlash j), the stiffness varying with
the mesh phase phi = z theta / 2 pi + phase0 of the reference gear (the one turning on the pair's carrier, a
planet; else gear 1: core.gearing.mesh_phase), so the planets of a set are phased as their teeth stand. Three
ports: the drive flank's tooth force on gear 1 (and its reaction on gear 2), the coast flank's, and the torque
-dV/dtheta about the reference gear's axis that the stiffness's change with the phase gives.
"""

from __future__ import annotations

import math

from core.dynamics.buffers.tables import table
from core.dynamics.elements.base import OUT0, PORT0, Element, element
from core.dynamics.elements.blocks import put_spin, vector
from core.dynamics.elements.gear_geometry import (
    PAIR_FLOATS,
    pair_floats,
    pair_frame,
    put_tooth_force,
    tooth_forces,
)
from core.dynamics.elements.gear_pair import tooth_force_channels
from core.dynamics.results.channels import Channel
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import MESH_STATE, mesh_model_for, mesh_state, mesh_stiffness_in_phase
from core.gearing.mesh_phase import mesh_phase
from core.geometry import vec3
from core.model.entities import CompliantMesh

COS, Z, PHASE0, K_MEAN, IS_COSINE, COSINE, DAMPING, BACKLASH = range(PAIR_FLOATS, PAIR_FLOATS + 8)
AJ, AI = PAIR_FLOATS + 8, PAIR_FLOATS + 11  # the reference gear's joint axis in body j's and body i's axes
G1, G2, BI, PROFILE, ERROR, ANGLE, SLIP, GREF = 10, 11, 12, 13, 14, 15, 16, 17
FT, TORQUE, DISSIPATION, ENERGY = (MESH_STATE.index(k) for k in ("ft", "torque", "dissipation", "energy"))
DEFLECTION, FORCE, STIFFNESS = (MESH_STATE.index(k) for k in ("deflection", "force", "stiffness"))


def geometry(fb, ib, fp, ip, disc, bodies, rows, ports):
    point, _, base, sep, _ = pair_frame(fp, bodies, ip[G1], ip[G2])
    pr, p = ports[0], ip[PORT0]
    put_tooth_force(pr, p, point, vec3.add(base, sep), bodies, ip[G1], ip[G2], 1.0)
    put_tooth_force(pr, p + 1, point, vec3.sub(base, sep), bodies, ip[G1], ip[G2], 1.0)
    rot = bodies[1]
    put_spin(pr, p + 2, 0, 1, vec3.rotate(rot[ip[GREF]], vector(fp, AJ)))
    # the reaction on the reference gear's seat about its own axis (the joint's axis seen from body i)
    ai = vec3.rotate(rot[ip[BI]], vector(fp, AI))
    for a in range(3):
        pr[p + 2, 1, 3 + a] = -ai[a]


def flank_states(fb, ib, fp, ip, state):
    """The drive and the coast flank at the state: core.gearing.mesh_model.mesh_state's values (MESH_STATE) at
    the approach along each flank's line of action."""
    extra, rates = state[3], state[1]
    e, s, x, p = extra[ip[ERROR]], extra[ip[ERROR] + 1], ip[ERROR], ip[SLIP]
    rate, s_rate = rates[p], rates[p + 1]
    k, dk = mesh_stiffness_in_phase(extra[ip[ANGLE]], fp[Z], fp[PHASE0], fp[K_MEAN], fp[IS_COSINE] != 0.0,
                                    fp[COSINE], table(fb, ib, ip[PROFILE]))  # one phase for both flanks
    drive = mesh_state(e + s, rate + s_rate, fp[COS], fp[Z], k, dk, fp[DAMPING], fp[BACKLASH])
    coast = mesh_state(e - s, rate - s_rate, fp[COS], fp[Z], k, dk, fp[DAMPING], fp[BACKLASH])
    return drive, coast, x


def law(t, fb, ib, fp, ip, disc, state, forces):
    d, c, _ = flank_states(fb, ib, fp, ip, state)
    on_d, on_c = d[DEFLECTION] < 0.0, c[DEFLECTION] > 0.0  # Ft > 0 (the drive flank) pushes delta < 0
    u, p = forces[0], ip[PORT0]
    u[p] = d[FT] if on_d else 0.0
    u[p + 1] = c[FT] if on_c else 0.0
    u[p + 2] = (d[TORQUE] if on_d else 0.0) + (c[TORQUE] if on_c else 0.0)
    forces[5][0] += (d[ENERGY] if on_d else 0.0) + (c[ENERGY] if on_c else 0.0)
    forces[5][2] += (d[DISSIPATION] if on_d else 0.0) + (c[DISSIPATION] if on_c else 0.0)


def outputs(t, fb, ib, fp, ip, disc, bodies, rows, ports, state, forces, lam, react, out):
    d, c, x = flank_states(fb, ib, fp, ip, state)
    on = c if c[DEFLECTION] > 0.0 and not d[DEFLECTION] < 0.0 else d  # the flank in contact (drive if neither)
    ft = (d[FT] if d[DEFLECTION] < 0.0 else 0.0) + (c[FT] if c[DEFLECTION] > 0.0 else 0.0)
    at = ip[OUT0]
    f = tooth_forces(fp, ft)
    for i in range(4):
        out[at + i] = f[i]
    out[at + 4] = state[3][x]
    out[at + 5], out[at + 6], out[at + 7] = on[DEFLECTION], -ft / fp[COS], on[STIFFNESS]


@element(CompliantMesh)
class CompliantMeshElement(Element):
    FLOATS, INTS = PAIR_FLOATS + 14, 8

    def __init__(self, mesh, asm):
        super().__init__(mesh, asm)
        model = asm.model
        pair = model.gear_pairs[mesh.pair]
        inertias = polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2)
        self.model = m = mesh_model_for(pair, mesh, *inertias)
        self.pair_name = pair.name
        self.phase = mesh_phase(model, pair)
        ref = asm.element_of(self.phase.joint)
        self.frame, self.angle = ref.frame, ref.x0
        self.pair_geometry, (self.g1, _), (self.g2, _) = pair_floats(asm, pair)
        self.profile = asm.tables.add_table(m.table)
        asm.ports(self, 2, (self.g1, self.g2))
        asm.ports(self, 1, (self.frame.bj, self.frame.bi))

    def link(self, asm):
        pair = asm.element_of(self.pair_name)
        self.error, self.slip = pair.x0, pair.port0

    def params(self):
        m, f = self.model, self.frame
        floats = [*self.pair_geometry, math.cos(m.pressure_angle), float(self.phase.teeth), self.phase.phase0,
                  m.k_mean, float(m.cosine is not None), m.cosine or 0.0, m.damping, m.backlash, *f.aj, *f.ai]
        return floats, [self.g1, self.g2, f.bi, self.profile, self.error, self.angle, self.slip, f.bj]

    def deflection_state(self) -> tuple[int, float]:
        """The extra state of its deflection (the pair's transmission error) and, for a static equilibrium's start,
        its value just past the backlash on the drive flank [m] (inside the backlash the mesh has no stiffness)."""
        return self.error, 0.5 * self.model.backlash / math.cos(self.model.pressure_angle) * (1.0 + 1e-6)

    def channels(self):
        n = self.name
        return tooth_force_channels(self.pair_name) + [
            Channel(n, "TE", "m", "mesh", "transmission error (the DTE of a run) at the working pitch circle"),
            Channel(n, "deflection", "m", "mesh", "deflection along the line of action"),
            Channel(n, "force", "N", "mesh", "mesh force along the line of action"),
            Channel(n, "stiffness", "N/m", "mesh", "mesh stiffness along the line of action")]
