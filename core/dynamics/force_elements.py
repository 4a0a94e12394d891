"""Force elements: joint torques, torsional and linear spring-dampers, bearings, compliant gear meshes, and their builders.

Each follows the contract of core.dynamics.elements.ForceElement and is made
by the builder registered for its entity class at the end of this file.

Each element adds forces and torques (world axes, about the bodies' centres of
mass) to the generalised force vector, and reports its potential energy, the
power it feeds in from outside (work) and the power it dissipates.
"""

from __future__ import annotations

import math

import numpy as np

from core.dynamics.channels import TOOTH_FORCES
from core.dynamics.constraints import GearConstraint, JointGeometry, Snapshot, cross
from core.dynamics.elements import ForceElement, builds
from core.gearing.gear_bodies import polar_inertia
from core.gearing.mesh_model import mesh_model_for, mesh_state
from core.gearing.pitch_point import TOOTH_FORCE_TEXT, force_components, force_direction
from core.model import entities as E


class Loads:
    """Accumulates forces and torques per body (ground entries are dropped)."""

    def __init__(self, n: int):
        self.f = np.zeros((n, 3))
        self.tau = np.zeros((n, 3))
        self.potential = 0.0
        self.work_rate = 0.0
        self.dissipation = 0.0

    @classmethod
    def stack(cls, many: list[Loads]) -> Loads:
        """The loads of many samples as one, each field with a leading sample axis (for output samples)."""
        out = cls(0)
        out.f, out.tau = np.array([x.f for x in many]), np.array([x.tau for x in many])
        for name in ("potential", "work_rate", "dissipation"):
            setattr(out, name, np.array([getattr(x, name) for x in many]))
        return out

    def force_at(self, b: int, force: np.ndarray, arm: np.ndarray) -> None:
        if b >= 0:
            self.f[b] += force
            self.tau[b] += cross(arm, force)

    def torque(self, b: int, torque: np.ndarray) -> None:
        if b >= 0:
            self.tau[b] += torque


class JointTorque(ForceElement):
    """Torque law(t) about a revolute joint's axis on body j, reaction on body i."""

    def __init__(self, name, geometry: JointGeometry, law):
        self.name, self.g, self.law = name, geometry, law

    def apply(self, t, s: Snapshot, loads: Loads, out: dict) -> None:
        _, ri, _, _ = s.pose(self.g.bi)
        a = ri @ self.g.ai
        tau = self.law(t)
        loads.torque(self.g.bj, tau * a)
        loads.torque(self.g.bi, -tau * a)
        loads.work_rate += tau * self.g.relative_speed(s)
        if out is not None:
            out.add(self.name, "torque", "N m", tau, "force", "applied torque on body j")


class TorsionalSpring(ForceElement):
    """tau = -k (theta - theta0) - c theta' about a revolute joint; theta is the joint's angle state."""

    def __init__(self, name, geometry: JointGeometry, stiffness, damping, angle0, angle_index):
        self.name, self.g, self.k, self.c, self.angle0, self.ia = name, geometry, stiffness, damping, angle0, angle_index

    def torque(self, angle: float, rate: float) -> tuple[float, float, float]:
        """Torque on body j [N m], potential energy [J] and dissipated power [W] at the joint's angle [rad] and
        spin [rad/s] (the one formula of both formulations' paths)."""
        return spring_torque(self.k, self.c, self.angle0, angle, rate)

    def apply(self, t, s, loads, out):
        _, ri, _, _ = s.pose(self.g.bi)
        a = ri @ self.g.ai
        tau, energy, dissipation = self.torque(s.extra[self.ia], self.g.relative_speed(s))
        loads.torque(self.g.bj, tau * a)
        loads.torque(self.g.bi, -tau * a)
        loads.potential += energy
        loads.dissipation += dissipation
        if out is not None:
            out.add(self.name, "torque", "N m", tau, "force", "spring-damper torque on body j")


def spring_torque(k: float, c: float, angle0: float, angle: float, rate: float) -> tuple[float, float, float]:
    """A torsional spring-damper (stiffness k [N m/rad], damping c [N m s/rad], free angle angle0 [rad]) at its
    angle [rad] and spin [rad/s]: torque on body j [N m], energy [J], dissipated power [W]. Plain numbers, so
    that the compiled joint fast path (core.dynamics.fast_path_kernel) runs the same formula."""
    dth = angle - angle0
    return -k * dth - c * rate, 0.5 * k * dth * dth, c * rate * rate


class LinearSpring(ForceElement):
    """Spring-damper between a point on body i and a point on body j (COM-relative body axes)."""

    def __init__(self, name, bi, bj, si, sj, stiffness, damping, free_length):
        self.name, self.bi, self.bj, self.si, self.sj = name, bi, bj, si, sj
        self.k, self.c, self.l0 = stiffness, damping, free_length

    def apply(self, t, s, loads, out):
        xi, ri, vi, wi = s.pose(self.bi)
        xj, rj, vj, wj = s.pose(self.bj)
        ai, aj = ri @ self.si, rj @ self.sj
        d = (xj + aj) - (xi + ai)
        length = float(np.linalg.norm(d))
        n = d / length if length > 1e-15 else np.zeros(3)
        rate = float(n @ ((vj + cross(wj, aj)) - (vi + cross(wi, ai))))
        tension = self.k * (length - self.l0) + self.c * rate
        loads.force_at(self.bi, tension * n, ai)
        loads.force_at(self.bj, -tension * n, aj)
        loads.potential += 0.5 * self.k * (length - self.l0) ** 2
        loads.dissipation += self.c * rate * rate
        if out is not None:
            out.add(self.name, "force", "N", tension, "force", "tension (positive pulls the points together)")


class Bearing(ForceElement):
    """Radial, axial and tilt spring-dampers between housing (i) and shaft (j) at a point."""

    def __init__(self, name, geometry: JointGeometry, kr, cr, ka, ca, kt, ct):
        self.name, self.g = name, geometry
        self.kr, self.cr, self.ka, self.ca, self.kt, self.ct = kr, cr, ka, ca, kt, ct

    def apply(self, t, s, loads, out):
        g = self.g
        ri_, rj_, (xi, ri, vi, wi), (xj, rj, vj, wj) = g.points(s)
        a = ri @ g.ai
        d = (xj + rj_) - (xi + ri_)
        dv = (vj + cross(wj, rj_)) - (vi + cross(wi, ri_))
        da, dva = a * (a @ d), a * (a @ dv)
        dr, dvr = d - da, dv - dva
        force = -(self.kr * dr + self.cr * dvr + self.ka * da + self.ca * dva)  # on the shaft
        tilt = cross(a, rj @ g.aj)
        dw = wj - wi
        dw_perp = dw - a * (a @ dw)
        moment = -(self.kt * tilt + self.ct * dw_perp)
        loads.force_at(g.bj, force, rj_)
        loads.force_at(g.bi, -force, ri_)
        loads.torque(g.bj, moment)
        loads.torque(g.bi, -moment)
        loads.potential += 0.5 * (self.kr * dr @ dr + self.ka * da @ da + self.kt * tilt @ tilt)
        loads.dissipation += self.cr * dvr @ dvr + self.ca * dva @ dva + self.ct * dw_perp @ dw_perp
        if out is not None:
            out.add_vector(self.name, "F", "N", force, "force", "bearing force on the shaft, world")


class CompliantMesh(ForceElement):
    """A gear pair made soft by a MeshModel (core.gearing.mesh_model): a spring-damper along the line of action.

    e is the pair's phase error at the working pitch circle (the TE) [m] and
    delta = e cos(alpha_wt) the deflection along the line of action; the mesh
    phase phi = z1 theta1 follows gear 1's rotation on its joint. The tangential
    force is Ft = -F cos(alpha_wt), applied with its radial and axial parts.
    The stiffness depends on the configuration through phi, so
    V = k(phi) p^2 / 2 (p the flank penetration) is a potential and its torque
    -dV/dtheta1 = -(dk/dphi) z1 p^2 / 2 acts on gear 1.
    """

    def __init__(self, name, gear: GearConstraint, mesh, angle_index):
        self.name, self.gear, self.mesh, self.ia = name, gear, mesh, angle_index
        self.cos = math.cos(mesh.pressure_angle)
        self.lossy = None  # a LossyGear of the same pair: gear 2 then takes its share of the force

    def state(self, e: float, slip_rate: float, angle: float):
        """The mesh at TE e [m], its rate [m/s] and gear 1's joint angle [rad] (the one formula of both
        formulations' paths): deflection [m], its rate [m/s], stiffness [N/m] and its slope in the mesh phase,
        force along the line of action [N], energy [J], Ft [N], the potential torque about gear 1's axis [N m]
        and the dissipated power [W]."""
        m = self.mesh
        return mesh_state(float(e), float(slip_rate), float(angle), self.cos, float(self.gear.pair.z1), m.k_mean,
                          m.cosine is not None, m.cosine or 0.0, m.profile, m.damping, m.backlash)

    def _state(self, s):
        return self.state(s.extra[self.gear.error_index], self.gear.slip_rate(s), s.extra[self.ia])

    def tooth_force(self, s, state=None):
        """The tooth force on gear 1 (world) [N], the pitch point [m], the potential torque about gear 1's axis [N m]."""
        *_, ft, tau, _ = state if state is not None else self._state(s)
        f, _, _ = self.gear.frame(s)
        d = force_direction(self.gear.pair, f, 1.0 if ft >= 0 else -1.0) * ft
        return d, f.point, tau

    def apply(self, t, s, loads, out):
        gear = self.gear
        state = self._state(s)
        delta, delta_rate, k, _, f_loa, energy, ft, _, dissipation = state
        e = s.extra[gear.error_index]
        d, point, tau = self.tooth_force(s, state)
        loads.force_at(gear.j1.bj, d, point - s.pose(gear.j1.bj)[0])
        if self.lossy is not None:
            self.lossy.compliant_force(s, d, point, loads)
        else:
            loads.force_at(gear.j2.bj, -d, point - s.pose(gear.j2.bj)[0])
        if tau:
            _, r1, _, _ = s.pose(gear.j1.bj)
            loads.torque(gear.j1.bj, tau * (r1 @ gear.j1.aj))
            _, ri, _, _ = s.pose(gear.j1.bi)
            loads.torque(gear.j1.bi, -tau * (ri @ gear.j1.ai))
        loads.potential += energy
        loads.dissipation += dissipation
        if out is not None:
            for label, value in zip(TOOTH_FORCES, force_components(gear.pair, ft)):
                out.add(gear.name, label, "N", value, "gear pair", TOOTH_FORCE_TEXT[label])
            out.add(self.name, "TE", "m", e, "mesh", "transmission error at the working pitch circle")
            out.add(self.name, "deflection", "m", delta, "mesh", "deflection along the line of action")
            out.add(self.name, "force", "N", f_loa, "mesh", "mesh force along the line of action")
            out.add(self.name, "stiffness", "N/m", k, "mesh", "mesh stiffness along the line of action")


# --------------------------------------------------------------------------- builders (see core.dynamics.elements)


@builds(E.Torque)
def _torque(system, f) -> JointTorque:
    return JointTorque(f.name, system.geometry[f.joint], f.law)


@builds(E.TorsionalSpringDamper)
def _torsional_spring(system, f) -> TorsionalSpring:
    return TorsionalSpring(f.name, system.geometry[f.joint], f.stiffness, f.damping, f.angle0,
                           system.angle_index[f.joint])


@builds(E.SpringDamper)
def _linear_spring(system, f) -> LinearSpring:
    bi, bj = system.index[f.body_i], system.index[f.body_j]
    si = np.asarray(f.point_i) - (system.com[bi] if bi >= 0 else 0.0)
    sj = np.asarray(f.point_j) - (system.com[bj] if bj >= 0 else 0.0)
    return LinearSpring(f.name, bi, bj, si, sj, f.stiffness, f.damping, f.free_length)


@builds(E.BearingSpringDamper)
def _bearing(system, f) -> Bearing:
    bi, bj = system.index[f.body_i], system.index[f.body_j]
    geo = JointGeometry(bi, bj, f.position, f.axis, system.pose0(bi), system.pose0(bj))
    return Bearing(f.name, geo, f.radial_stiffness, f.radial_damping, f.axial_stiffness, f.axial_damping,
                   f.tilt_stiffness, f.tilt_damping)


@builds(E.CompliantMesh)
def _compliant_mesh(system, f) -> CompliantMesh:
    model = system.model
    pair = model.gear_pairs[f.pair]
    mesh = mesh_model_for(pair, f, polar_inertia(model, pair.joint1), polar_inertia(model, pair.joint2))
    return CompliantMesh(f.name, system.gears[f.pair], mesh, system.angle_index[pair.joint1])
